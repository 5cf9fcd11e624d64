package api

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"syscall"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/service"
)

// outageErrors are how a PostgreSQL outage reaches a handler, wrapped the
// way the db package wraps them.
var outageErrors = []struct {
	name string
	err  error
}{
	{"connection refused (*net.OpError)", fmt.Errorf("db: key lookup: %w", &net.OpError{Op: "dial", Net: "tcp",
		Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}})},
	{"driver.ErrBadConn", fmt.Errorf("db: post: %w", driver.ErrBadConn)},
	{"admin shutdown (57P01)", fmt.Errorf("db: insert: %w", &pq.Error{Code: "57P01", Message: "terminating connection due to administrator command"})},
	{"the database system is shutting down (57P03)", fmt.Errorf("db: begin: %w", &pq.Error{Code: "57P03", Message: "the database system is shutting down"})},
	{"pool closed", fmt.Errorf("db: get: %w", errors.New("sql: database is closed"))},
}

// expect503 checks the outage answer: 503, the generic message (no cause
// leaked) and a Retry-After.
func expect503(t *testing.T, w interface{ Header() http.Header }, code int, body string) {
	t.Helper()
	if code != http.StatusServiceUnavailable {
		t.Errorf("status = %d, want 503; body %s", code, body)
	}
	if w.Header().Get("Retry-After") != RetryAfterUnavailable {
		t.Errorf("Retry-After = %q, want %q", w.Header().Get("Retry-After"), RetryAfterUnavailable)
	}
}

// A use case that meets a database outage answers 503
// with Retry-After, not 500 "internal error".
func TestHandlerDatabaseOutageIs503(t *testing.T) {
	t.Parallel()
	for _, tc := range outageErrors {
		t.Run("POST /v1/transfer-internal/create: "+tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("*")
			f.internal.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(domain.Transaction{}, tc.err)
			w := f.merchant("POST", "/v1/transfer-internal/create", `{"amount":10,"recipientEmail":"bob@example.com"}`)
			env := expectFail(t, w, http.StatusServiceUnavailable, domain.ErrUnavailable.Error())
			expectMapped(t, env, domain.ErrUnavailable.Error(), "db:")
			expect503(t, w, w.Code, w.Body.String())
		})
		t.Run("GET /v1/transfer-scheduled/get: "+tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("*")
			f.schedules.EXPECT().Get(gomock.Any(), gomock.Any(), gomock.Any()).Return(schedule.Record{}, tc.err).AnyTimes()
			w := f.merchant("GET", getSchedulePath, "")
			expectFail(t, w, http.StatusServiceUnavailable, domain.ErrUnavailable.Error())
			expect503(t, w, w.Code, w.Body.String())
		})
	}
}

// A key lookup that failed because the database is away is no bad key: the
// address's budget stays whole, so the merchant is not throttled when the
// database comes back.
func TestHandlerOutageSpendsNoBadKeyBudget(t *testing.T) {
	t.Parallel()
	f := newFixture(t, withConfig(func(c *config.Config) { c.RateLimitPerMinute = 2 }))
	down := f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(domain.APIKey{}, domain.Account{}, outageErrors[0].err).Times(5)
	f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(testKey("*"), testAccount(), nil).After(down)
	expectScheduleGet(f)
	for range 5 {
		w := f.merchant("GET", getSchedulePath, "")
		expectFail(t, w, http.StatusServiceUnavailable, domain.ErrUnavailable.Error())
		expect503(t, w, w.Code, w.Body.String())
	}
	// The database is back: the same address and key are served at once.
	expectOK(t, f.merchant("GET", getSchedulePath, ""), "Scheduled transfer")
}

// Against a real database connection that cannot be made (a pool pointed
// at a port nothing listens on): the real key lookup, a merchant route and
// an admin route all answer 503 with Retry-After, and the failed lookups
// spend none of the address's bad-key budget.
func TestServerWithDatabaseAway(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	d, err := sqlx.Open("postgres", "postgres://postgres@"+addr+"/jangada?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	cfg := testConfig()
	cfg.RateLimitPerMinute = 2
	f := newFixture(t, func(dp *Deps) {
		dp.Config = cfg
		dp.DB = d
		dp.Auth = &service.Auth{DB: d}
		dp.Transactions = &service.Transactions{DB: d}
		dp.Accounts = &service.Accounts{DB: d}
	})
	for i := range 6 { // three times the address's budget
		w := f.serve("GET", "/v1/account/balance", "", "X-API-Key", fmt.Sprintf("sk_live_%d", i))
		expectFail(t, w, http.StatusServiceUnavailable, domain.ErrUnavailable.Error())
		expect503(t, w, w.Code, w.Body.String())
	}
	if f.srv.limiter.Exhausted(t.Context(), "ip:"+testPeer, cfg.RateLimitPerMinute) {
		t.Fatal("lookups failed by the outage spent the address's bad-key budget")
	}
	w := f.admin("GET", "/admin/v1/accounts/acc_1", "")
	expectFail(t, w, http.StatusServiceUnavailable, domain.ErrUnavailable.Error())
	expect503(t, w, w.Code, w.Body.String())
}
