package service_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/ratelimit"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/twofactor"
)

const portalPassword = "Hold3r!pass"

// portalFixture is a sub-account whose portal is set up, and the portal's
// use case with a real throttle and a clock the test sets.
type portalFixture struct {
	*subFixture
	portal *service.Portal
	email  string
	now    time.Time
}

func newPortalFixture(t *testing.T) *portalFixture {
	t.Helper()
	f := &portalFixture{subFixture: newSubFixture(t, 100), now: time.Now()}
	f.email = fmt.Sprintf("holder-%s@example.com", f.sub)
	if err := f.svc.PortalSetup(t.Context(), f.acct, subaccount.PortalSetup{Ref: f.sub, Email: f.email, Password: portalPassword}); err != nil {
		t.Fatal(err)
	}
	sealer, err := twofactor.NewSealer([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	f.portal = &service.Portal{DB: sharedDB, Throttle: ratelimit.NewFailures(15 * time.Minute), Sealer: sealer,
		Now: func() time.Time { return f.now }}
	return f
}

func (f *portalFixture) login(t *testing.T, password, code string) (service.PortalHolder, error) {
	t.Helper()
	return f.portal.Login(t.Context(), service.PortalLogin{Email: f.email, Password: password, Code: code, Address: "203.0.113.7", UserAgent: "test"})
}

// attempts are the outcomes recorded for an e-mail, oldest first.
func attempts(t *testing.T, email string) []string {
	t.Helper()
	var out []string
	if err := sharedDB.SelectContext(t.Context(), &out, `SELECT outcome FROM portal_login_attempts WHERE email = $1 ORDER BY id`, email); err != nil {
		t.Fatal(err)
	}
	return out
}

// Every attempt is recorded with its outcome; a success sets lastLoginAt
// and answers the holder of the portal's current epoch.
func TestPortalLoginRecordsEveryAttempt(t *testing.T) {
	t.Parallel()
	f := newPortalFixture(t)
	if _, err := f.login(t, "Wr0ng!pass", ""); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("wrong password: %v", err)
	}
	unknown := "nobody-" + f.email
	if _, err := f.portal.Login(t.Context(), service.PortalLogin{Email: unknown, Password: portalPassword}); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("unknown e-mail: %v", err)
	}
	h, err := f.login(t, portalPassword, "")
	if err != nil || h.Subaccount.ID != f.sub || h.Account.ID != f.acct.ID || h.Subaccount.PortalPasswordHash != nil {
		t.Fatalf("login: %+v %v", h, err)
	}
	if got := attempts(t, f.email); len(got) != 2 || got[0] != subaccount.LoginFailed || got[1] != subaccount.LoginSucceeded {
		t.Fatalf("attempts %v", got)
	}
	if got := attempts(t, unknown); len(got) != 1 || got[0] != subaccount.LoginFailed {
		t.Fatalf("unknown e-mail's attempts %v", got)
	}
	st, err := f.svc.PortalStatus(t.Context(), f.acct, f.sub)
	if err != nil || st.Portal.LastLoginAt == nil {
		t.Fatalf("lastLoginAt after a login: %+v %v", st, err)
	}
	if _, err := f.portal.Holder(t.Context(), f.sub, h.Epoch); err != nil {
		t.Fatalf("holder of the new session: %v", err)
	}
}

// The throttle is asked before any check, for the e-mail and the address;
// a failure counts against both, a success forgets the e-mail's run.
func TestPortalLoginThrottle(t *testing.T) {
	t.Parallel()
	f := newPortalFixture(t)
	ctrl := gomock.NewController(t)
	th := servicemock.NewMockLoginThrottle(ctrl)
	f.portal.Throttle, f.portal.FailuresPerEmail, f.portal.FailuresPerAddress = th, 3, 7
	byEmail, byAddr := "portal-email:"+f.email, "portal-address:203.0.113.7"

	th.EXPECT().Blocked(gomock.Any(), byEmail, 3).Return(time.Duration(0))
	th.EXPECT().Blocked(gomock.Any(), byAddr, 7).Return(42 * time.Second)
	var throttled *service.ThrottledError
	if _, err := f.login(t, portalPassword, ""); !errors.As(err, &throttled) || throttled.RetryAfter != 42*time.Second {
		t.Fatalf("a blocked address: %v", err)
	}

	th.EXPECT().Blocked(gomock.Any(), gomock.Any(), gomock.Any()).Return(time.Duration(0)).Times(2)
	th.EXPECT().Fail(gomock.Any(), byEmail, 3)
	th.EXPECT().Fail(gomock.Any(), byAddr, 7)
	if _, err := f.login(t, "Wr0ng!pass", ""); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("wrong password: %v", err)
	}

	th.EXPECT().Blocked(gomock.Any(), gomock.Any(), gomock.Any()).Return(time.Duration(0)).Times(2)
	th.EXPECT().Forget(gomock.Any(), byEmail)
	if _, err := f.login(t, portalPassword, ""); err != nil {
		t.Fatalf("login: %v", err)
	}
	if got := attempts(t, f.email); len(got) != 3 || got[0] != subaccount.LoginThrottled {
		t.Fatalf("attempts %v", got)
	}
}

// A disabled sub-account and the legacy portal states cannot log in, with
// the right password, and are refused as any failure is.
func TestPortalLoginRefusesLegacyAndDisabled(t *testing.T) {
	t.Parallel()
	f := newPortalFixture(t)
	for _, state := range []string{subaccount.PortalPendingPassword, subaccount.PortalInvitePending, subaccount.PortalPendingVerification} {
		sharedDB.MustExecContext(t.Context(), `UPDATE subaccounts SET portal_state = $2 WHERE id = $1`, f.sub, state)
		if _, err := f.login(t, portalPassword, ""); !errors.Is(err, service.ErrLoginFailed) {
			t.Fatalf("portal state %s: %v", state, err)
		}
	}
	sharedDB.MustExecContext(t.Context(), `UPDATE subaccounts SET portal_state = 'active' WHERE id = $1`, f.sub)
	status := subaccount.StatusDisabled
	if _, err := f.svc.Update(t.Context(), f.acct, subaccount.Update{ID: f.sub, Status: &status}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.login(t, portalPassword, ""); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("disabled sub-account: %v", err)
	}
}

// Every change the merchant makes to a portal, and disabling or deleting
// its sub-account, ends the sessions open on it.
func TestPortalSessionsEnd(t *testing.T) {
	t.Parallel()
	disabled, active := subaccount.StatusDisabled, subaccount.StatusActive
	changes := map[string]func(t *testing.T, f *portalFixture) error{
		"update-email": func(t *testing.T, f *portalFixture) error {
			f.email = "new-" + f.email
			_, err := f.svc.PortalUpdateEmail(t.Context(), f.acct, subaccount.PortalEmail{Ref: f.sub, Email: f.email})
			return err
		},
		"reset-2fa": func(t *testing.T, f *portalFixture) error {
			_, err := f.svc.PortalReset2FA(t.Context(), f.acct, f.sub)
			return err
		},
		"setup again": func(t *testing.T, f *portalFixture) error {
			return f.svc.PortalSetup(t.Context(), f.acct, subaccount.PortalSetup{Ref: f.sub, Email: f.email, Password: portalPassword})
		},
		"disable and enable": func(t *testing.T, f *portalFixture) error {
			if _, err := f.svc.Update(t.Context(), f.acct, subaccount.Update{ID: f.sub, Status: &disabled}); err != nil {
				return err
			}
			_, err := f.svc.Update(t.Context(), f.acct, subaccount.Update{ID: f.sub, Status: &active})
			return err
		},
		"revoke": func(t *testing.T, f *portalFixture) error {
			_, err := f.svc.PortalRevoke(t.Context(), f.acct, f.sub)
			return err
		},
		"delete": func(t *testing.T, f *portalFixture) error {
			if _, err := f.svc.RemoveBalance(t.Context(), f.acct, f.key, subaccount.Move{From: f.sub, To: f.sub, Amount: 100,
				ExternalReference: "empty"}); err != nil {
				return err
			}
			return f.svc.Delete(t.Context(), f.acct, f.sub)
		},
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newPortalFixture(t)
			h, err := f.login(t, portalPassword, "")
			if err != nil {
				t.Fatal(err)
			}
			// A rename is no reason to end a session.
			rename := "Ana Maria"
			if _, err := f.svc.Update(t.Context(), f.acct, subaccount.Update{ID: f.sub, Name: &rename}); err != nil {
				t.Fatal(err)
			}
			if _, err := f.portal.Holder(t.Context(), f.sub, h.Epoch); err != nil {
				t.Fatalf("a rename ended the session: %v", err)
			}
			if err := change(t, f); err != nil {
				t.Fatal(err)
			}
			if _, err := f.portal.Holder(t.Context(), f.sub, h.Epoch); !errors.Is(err, service.ErrSessionEnded) {
				t.Fatalf("session after %s: %v", name, err)
			}
		})
	}
}

// Enrollment: a wrong code is refused; the right one turns the second
// factor on with ten single-use recovery codes and moves the epoch on (the
// other sessions end, the enrolling one goes on under the new epoch). A
// login then needs a code, takes each TOTP step once and each recovery
// code once; reset-2fa drops the secret and the codes.
func TestPortalTwoFactor(t *testing.T) {
	t.Parallel()
	f := newPortalFixture(t)
	h, err := f.login(t, portalPassword, "")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := f.login(t, portalPassword, "")
	e, err := f.portal.BeginTwoFactor(t.Context(), h)
	if err != nil || e.Sealed == "" || e.Secret == "" {
		t.Fatalf("begin: %+v %v", e, err)
	}
	code := func(at time.Time) string {
		c, err := totp.GenerateCode(e.Secret, at)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if _, _, err := f.portal.ConfirmTwoFactor(t.Context(), h, e.Sealed, code(f.now.Add(-5*time.Minute))); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("a stale code: %v", err)
	}
	codes, epoch, err := f.portal.ConfirmTwoFactor(t.Context(), h, e.Sealed, code(f.now))
	if err != nil || len(codes) != twofactor.RecoveryCount || epoch != h.Epoch+1 {
		t.Fatalf("confirm: %d codes, epoch %d, %v", len(codes), epoch, err)
	}
	if _, err := f.portal.Holder(t.Context(), f.sub, epoch); err != nil {
		t.Fatalf("the enrolling session: %v", err)
	}
	if _, err := f.portal.Holder(t.Context(), f.sub, other.Epoch); !errors.Is(err, service.ErrSessionEnded) {
		t.Fatalf("a session opened without the second factor: %v", err)
	}

	if _, err := f.login(t, portalPassword, ""); !errors.Is(err, service.ErrCodeNeeded) {
		t.Fatalf("no code: %v", err)
	}
	if _, err := f.login(t, "Wr0ng!pass", code(f.now)); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("a code with a wrong password: %v", err)
	}
	if _, err := f.login(t, portalPassword, code(f.now)); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("the enrollment's code again: %v", err)
	}
	f.now = f.now.Add(30 * time.Second)
	if _, err := f.login(t, portalPassword, code(f.now)); err != nil {
		t.Fatalf("the next step's code: %v", err)
	}
	if _, err := f.login(t, portalPassword, code(f.now)); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("a replayed code: %v", err)
	}
	if _, err := f.login(t, portalPassword, codes[3]); err != nil {
		t.Fatalf("a recovery code: %v", err)
	}
	if _, err := f.login(t, portalPassword, codes[3]); !errors.Is(err, service.ErrLoginFailed) {
		t.Fatalf("a used recovery code: %v", err)
	}

	if _, err := f.svc.PortalReset2FA(t.Context(), f.acct, f.sub); err != nil {
		t.Fatal(err)
	}
	var left struct {
		Secret   *string `db:"portal_totp_secret"`
		Recovery int     `db:"n"`
	}
	if err := sharedDB.GetContext(t.Context(), &left, `SELECT portal_totp_secret, cardinality(portal_recovery_hashes) AS n
		FROM subaccounts WHERE id = $1`, f.sub); err != nil || left.Secret != nil || left.Recovery != 0 {
		t.Fatalf("after reset-2fa: %+v %v", left, err)
	}
	if _, err := f.login(t, portalPassword, ""); err != nil {
		t.Fatalf("login after reset-2fa: %v", err)
	}
}
