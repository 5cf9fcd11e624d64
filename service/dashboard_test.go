package service_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/ratelimit"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/twofactor"
)

const dashPassword = "D4shboard!pw"

// dashFixture is the dashboard's use case with real throttles and a
// clock the test sets.
type dashFixture struct {
	dash *service.Dashboard
	now  time.Time
}

func newDashFixture(t *testing.T) *dashFixture {
	t.Helper()
	sealer, err := twofactor.NewSealer([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	f := &dashFixture{now: time.Now()}
	f.dash = &service.Dashboard{DB: sharedDB, Throttle: ratelimit.NewFailures(15 * time.Minute),
		Signups: ratelimit.NewFailures(time.Hour), Sealer: sealer, PublicURL: "https://jangada.example",
		Webhooks: &service.Webhooks{DB: sharedDB}, Now: func() time.Time { return f.now }}
	return f
}

// signup makes an account and its owner with a fresh e-mail.
func (f *dashFixture) signup(t *testing.T) service.DashboardUser {
	t.Helper()
	email := fmt.Sprintf("owner-%d@loja.example", time.Now().UnixNano())
	in, err := dashboard.SignupRequest{Account: domain.AccountRequest{Name: ptr("Loja do Painel"), Email: &email,
		Document: ptr("52998224725")}, Password: ptr(dashPassword)}.Validate()
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.dash.Signup(t.Context(), in, "198.51.100.1")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func (f *dashFixture) login(t *testing.T, email, password, code string) (service.DashboardUser, error) {
	t.Helper()
	return f.dash.Login(t.Context(), service.DashboardLogin{Email: email, Password: password, Code: code, Address: "198.51.100.2", UserAgent: "test"})
}

// A sign-up makes an unverified account and its owner, who logs in; the
// audit log names both.
func TestDashboardSignupAndLogin(t *testing.T) {
	t.Parallel()
	f := newDashFixture(t)
	u := f.signup(t)
	if u.Account.Verified || u.User.Role != dashboard.RoleOwner || u.User.AccountID != u.Account.ID {
		t.Fatalf("signup %+v", u)
	}
	if _, err := f.login(t, strings.ToUpper(u.User.Email), "Wr0ng!pass", ""); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("wrong password: %v", err)
	}
	got, err := f.login(t, strings.ToUpper(u.User.Email), dashPassword, "")
	if err != nil || got.User.ID != u.User.ID || got.Account.ID != u.Account.ID {
		t.Fatalf("login %+v %v", got, err)
	}
	log, err := f.dash.AuditLog(t.Context(), got, 0)
	if err != nil || len(log) != 2 || log[0].Action != "user.login" || log[1].Action != "account.signup" || log[0].Address != "198.51.100.2" {
		t.Fatalf("audit %+v %v", log, err)
	}
}

// Sign-ups are counted per address before anything is checked: once the
// budget is spent, no account is made.
func TestDashboardSignupThrottled(t *testing.T) {
	t.Parallel()
	ctrl := gomock.NewController(t)
	signups := servicemock.NewMockLoginThrottle(ctrl)
	signups.EXPECT().Blocked(gomock.Any(), "dashboard-signup:198.51.100.1", service.DefaultSignupsPerAddress).Return(40 * time.Minute)
	f := newDashFixture(t)
	f.dash.Signups = signups
	_, err := f.dash.Signup(t.Context(), dashboard.Signup{Account: domain.NewAccount{Name: "X", Email: "never-made@loja.example",
		Document: "52998224725"}, Password: dashPassword}, "198.51.100.1")
	var th *service.ThrottledError
	if !errors.As(err, &th) || th.RetryAfter != 40*time.Minute {
		t.Fatalf("throttled signup: %v", err)
	}
	var n int
	if err := sharedDB.GetContext(t.Context(), &n, `SELECT count(*) FROM accounts WHERE email = 'never-made@loja.example'`); err != nil || n != 0 {
		t.Fatalf("accounts %d %v", n, err)
	}
}

// An invitation's link sets the password once, within 24 hours; the
// invited user then logs in with its role.
func TestDashboardInvitation(t *testing.T) {
	t.Parallel()
	f := newDashFixture(t)
	owner := f.signup(t)
	email := "dev-" + owner.User.ID + "@loja.example"
	inv, err := f.dash.Invite(t.Context(), owner.Account.ID, nil, dashboard.Invite{Email: email, Role: dashboard.RoleDeveloper})
	if err != nil || !strings.HasPrefix(inv.URL, "https://jangada.example/dashboard/set-password/") {
		t.Fatalf("invite %+v %v", inv, err)
	}
	token := inv.URL[strings.LastIndex(inv.URL, "/")+1:]
	if _, err := f.login(t, email, dashPassword, ""); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("login before the password is set: %v", err)
	}
	if err := f.dash.SetPassword(t.Context(), token, ptr("short")); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("weak password: %v", err)
	}
	if err := f.dash.SetPassword(t.Context(), token, ptr(dashPassword)); err != nil {
		t.Fatal(err)
	}
	if err := f.dash.SetPassword(t.Context(), token, ptr(dashPassword)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a link used twice: %v", err)
	}
	dev, err := f.login(t, email, dashPassword, "")
	if err != nil || dev.User.Role != dashboard.RoleDeveloper || dev.Account.ID != owner.Account.ID {
		t.Fatalf("invited login %+v %v", dev, err)
	}
	// An expired link sets nothing.
	late, err := f.dash.Invite(t.Context(), owner.Account.ID, &owner, dashboard.Invite{Email: "late-" + email, Role: dashboard.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(dashboard.InviteValid + time.Minute)
	if err := f.dash.SetPassword(t.Context(), late.URL[strings.LastIndex(late.URL, "/")+1:], ptr(dashPassword)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("expired link: %v", err)
	}
}

// The roles' boundaries, and another account's ids: a viewer manages no
// key, a developer no user, an admin makes no owner, and nobody reaches
// another account's key or endpoint.
func TestDashboardRolesAndAccounts(t *testing.T) {
	t.Parallel()
	f := newDashFixture(t)
	owner, other := f.signup(t), f.signup(t)
	as := func(role string) service.DashboardUser { u := owner; u.User.Role = role; return u }
	if _, err := f.dash.Keys(t.Context(), as(dashboard.RoleViewer)); !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("viewer keys: %v", err)
	}
	if _, err := f.dash.Users(t.Context(), as(dashboard.RoleDeveloper)); !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("developer users: %v", err)
	}
	admin := as(dashboard.RoleAdmin)
	if _, err := f.dash.Invite(t.Context(), "", &admin, dashboard.Invite{Email: "boss@x.example", Role: dashboard.RoleOwner}); !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("admin invites an owner: %v", err)
	}
	k, _, err := f.dash.CreateKey(t.Context(), other, domain.NewKey{Name: "theirs", Permissions: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.dash.RevokeKey(t.Context(), owner, k.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another account's key: %v", err)
	}
	if _, _, err := f.dash.RollKey(t.Context(), owner, k.ID, time.Hour); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("roll another account's key: %v", err)
	}
	e, err := f.dash.CreateEndpoint(t.Context(), other, domain.EndpointPatch{URL: ptr("https://hooks.example.com/x"), Events: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"get":        func() error { _, err := f.dash.Endpoint(t.Context(), owner, e.ID); return err },
		"test":       func() error { _, err := f.dash.TestEndpoint(t.Context(), owner, e.ID, "req"); return err },
		"deliveries": func() error { _, _, err := f.dash.Deliveries(t.Context(), owner, e.ID, 1); return err },
		"delete":     func() error { return f.dash.DeleteEndpoint(t.Context(), owner, e.ID) },
		"roll":       func() error { _, err := f.dash.RollEndpointSecret(t.Context(), owner, e.ID); return err },
		"disable":    func() error { return f.dash.SetEndpointStatus(t.Context(), owner, e.ID, domain.EndpointDisabled) },
		"payment":    func() error { _, err := f.dash.Payment(t.Context(), owner, "tx_of_nobody"); return err },
	} {
		if err := call(); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("%s of another account's endpoint: %v", name, err)
		}
	}
}

// A rolled key keeps working through its grace beside its successor, and
// stops when revoked; every key's last use is written by RecordUses.
func TestDashboardKeyRollAndLastUse(t *testing.T) {
	t.Parallel()
	f := newDashFixture(t)
	owner := f.signup(t)
	old, oldSecret, err := f.dash.CreateKey(t.Context(), owner, domain.NewKey{Name: "backend", Permissions: []string{"payment-pix/*"}})
	if err != nil {
		t.Fatal(err)
	}
	auth := &service.Auth{DB: sharedDB}
	if _, _, err := auth.Resolve(t.Context(), oldSecret); err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(t.Context())
	cancel() // RecordUses writes once more as it returns
	auth.RecordUses(done, time.Hour)
	keys, err := f.dash.Keys(t.Context(), owner)
	if err != nil || len(keys) != 1 || keys[0].LastUsedAt == nil {
		t.Fatalf("keys %+v %v", keys, err)
	}
	neu, newSecret, err := f.dash.RollKey(t.Context(), owner, old.ID, time.Hour)
	if err != nil || neu.Name != "backend" || neu.Permissions[0] != "payment-pix/*" || newSecret == oldSecret {
		t.Fatalf("roll %+v %v", neu, err)
	}
	for _, s := range []string{oldSecret, newSecret} {
		if _, _, err := auth.Resolve(t.Context(), s); err != nil {
			t.Fatalf("a key in its grace: %v", err)
		}
	}
	if _, _, err := f.dash.RollKey(t.Context(), owner, neu.ID, 25*time.Hour); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("a grace past 24 h: %v", err)
	}
	if _, err := f.dash.RevokeKey(t.Context(), owner, old.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := auth.Resolve(t.Context(), oldSecret); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("a revoked rolled key: %v", err)
	}
}

// Once enrolled, the login asks for the code, takes it once, and the
// sessions opened before the enrollment end.
func TestDashboardSecondFactor(t *testing.T) {
	t.Parallel()
	f := newDashFixture(t)
	owner := f.signup(t)
	e, err := f.dash.BeginTwoFactor(t.Context(), owner)
	if err != nil || !strings.Contains(e.URI, "otpauth://totp/") {
		t.Fatalf("begin %+v %v", e, err)
	}
	code, err := totp.GenerateCode(e.Secret, f.now)
	if err != nil {
		t.Fatal(err)
	}
	codes, epoch, err := f.dash.ConfirmTwoFactor(t.Context(), owner, e.Sealed, code)
	if err != nil || len(codes) != 10 || epoch != owner.Epoch+1 {
		t.Fatalf("confirm %d %d %v", len(codes), epoch, err)
	}
	if _, err := f.dash.User(t.Context(), owner.User.ID, owner.Epoch, ""); !errors.Is(err, service.ErrSessionEnded) {
		t.Fatalf("a session opened before the enrollment: %v", err)
	}
	if _, err := f.login(t, owner.User.Email, dashPassword, ""); !errors.Is(err, service.ErrCodeNeeded) {
		t.Fatalf("login without the code: %v", err)
	}
	f.now = f.now.Add(30 * time.Second)
	next, _ := totp.GenerateCode(e.Secret, f.now)
	if _, err := f.login(t, owner.User.Email, dashPassword, next); err != nil {
		t.Fatalf("login with the code: %v", err)
	}
	if _, err := f.login(t, owner.User.Email, dashPassword, next); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("the same code twice: %v", err)
	}
	if _, err := f.login(t, owner.User.Email, dashPassword, codes[0]); err != nil {
		t.Fatalf("a recovery code: %v", err)
	}
}
