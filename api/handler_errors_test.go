package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/service"
)

// useCaseErrors are what a use case may return, with the answer each gets
// from fail. secret is a detail that must not reach the caller.
var useCaseErrors = []struct {
	name    string
	err     error
	status  int
	message string
	secret  string
}{
	{"domain.Invalid → 400 with its message", domain.Invalid("recipientEmail", "has no Jangada account"),
		http.StatusBadRequest, "recipientEmail has no Jangada account", ""},
	{"wrapped domain.Invalid → 400 with its message", fmt.Errorf("service: internal: %w", domain.Invalid("amount", "exceeds the daily limit")),
		http.StatusBadRequest, "amount exceeds the daily limit", "service:"},
	{"bare ErrInsufficientBalance → 400", domain.ErrInsufficientBalance,
		http.StatusBadRequest, "insufficient balance", ""},
	{"domain.Insufficient → 400 with its message", fmt.Errorf("debit: %w", domain.Insufficient("available balance of %s does not cover %s", "10.00", "25.50")),
		http.StatusBadRequest, "available balance of 10.00 does not cover 25.50", "debit:"},
	{"domain.NotFound → 404", domain.NotFound("recipient account"),
		http.StatusNotFound, "recipient account not found", ""},
	{"domain.Forbidden → 403", domain.Forbidden("this account is blocked"),
		http.StatusForbidden, "this account is blocked", ""},
	{"wrapped ErrConflict → 409 (retry shortly: the same request is in flight)", fmt.Errorf("db: insert: %w", domain.ErrConflict),
		http.StatusConflict, "db: insert: conflict", ""},
	{"wrapped ErrUnavailable → 503 with the generic message", fmt.Errorf("temporal: start workflow at 10.0.0.7:7233: %w", domain.ErrUnavailable),
		http.StatusServiceUnavailable, domain.ErrUnavailable.Error(), "10.0.0.7"},
	{"unexpected error → 500 without details", errors.New("pq: duplicate key value violates unique constraint \"ledger_pkey\""),
		http.StatusInternalServerError, "internal error", "ledger_pkey"},
	{"context canceled → 500 without details", fmt.Errorf("db: begin: %w", context.Canceled),
		http.StatusInternalServerError, "internal error", "db: begin"},
}

// expectMapped checks one mapped error answer, including that its message
// is exactly the expected one (no cause leaked).
func expectMapped(t *testing.T, env apiEnvelope, message, secret string) {
	t.Helper()
	if got := deref(env.Message); got != message {
		t.Errorf("message = %q, want exactly %q", got, message)
	}
	if secret != "" && strings.Contains(deref(env.Message), secret) {
		t.Errorf("message leaks %q: %q", secret, deref(env.Message))
	}
}

// Every error kind, through the create route of internal transfers, and
// each create route's use case once with a representative error.
func TestHandlerCreateErrorMapping(t *testing.T) {
	t.Parallel()
	for _, tc := range useCaseErrors {
		t.Run("POST /v1/transfer-internal/create: "+tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("transfer-internal/create")
			f.internal.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(domain.Transaction{}, tc.err)
			w := f.merchant("POST", "/v1/transfer-internal/create", `{"amount":10,"recipientEmail":"bob@example.com"}`)
			env := expectFail(t, w, tc.status, tc.message)
			expectMapped(t, env, tc.message, tc.secret)
		})
	}

	routes := []struct {
		name, path, body string
		expect           func(f *fixture, err error)
	}{
		{"POST /v1/payment-pix/create", "/v1/payment-pix/create", `{"amount":10,"description":"Pedido 1"}`, func(f *fixture, err error) {
			f.charges.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CreatedCharge{}, err)
		}},
		{"POST /v1/transfer-pix/create", "/v1/transfer-pix/create", `{"amount":10,"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, func(f *fixture, err error) {
			f.transfers.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(domain.Transaction{}, err)
		}},
		{"POST /v1/payouts/create", "/v1/payouts/create", `{"amount":10,"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, func(f *fixture, err error) {
			f.transfers.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(domain.Transaction{}, err)
		}},
		{"POST /v1/refunds/create", "/v1/refunds/create", `{"transactionId":"tx_in_1","amount":10}`, func(f *fixture, err error) {
			f.refunds.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).Return(domain.Transaction{}, err)
		}},
		{"POST /v1/transfer-scheduled/create", "/v1/transfer-scheduled/create",
			`{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":100,"payload":{"method":"interna","amount":5,"recipientEmail":"bob@example.com"}}`,
			func(f *fixture, err error) {
				f.schedules.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(schedule.Record{}, err)
			}},
	}
	picks := []int{0, 3, 4, 7, 8} // Invalid, Insufficient, NotFound, Unavailable, unexpected
	for _, r := range routes {
		for _, i := range picks {
			tc := useCaseErrors[i]
			t.Run(r.name+": "+tc.name, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t).authorized("*")
				r.expect(f, tc.err)
				w := f.merchant("POST", r.path, r.body)
				env := expectFail(t, w, tc.status, tc.message)
				expectMapped(t, env, tc.message, tc.secret)
			})
		}
	}

	t.Run("POST /v1/transfer-internal/create: panicking use case → 500 envelope", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("*")
		f.internal.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
			DoAndReturn(func(context.Context, domain.Account, domain.APIKey, domain.NewInternal) (domain.Transaction, error) {
				panic("ledger invariant broken at acc_secret")
			})
		w := f.merchant("POST", "/v1/transfer-internal/create", `{"amount":10,"recipientEmail":"bob@example.com"}`)
		env := expectFail(t, w, http.StatusInternalServerError, "internal error")
		expectMapped(t, env, "internal error", "acc_secret")
	})
}
