package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/twofactor"
)

// Portal is the sub-account portal's use cases: a holder's login
// (password, second factor, throttles), what the holder reads, the PIX
// charges the holder makes into the sub-account and the second factor's
// enrollment. No money leaves from here: the main account moves a
// sub-account's money (docs/portal.md).
type Portal struct {
	DB *sqlx.DB
	// Charges makes the holder's charges: ordinary charges with the
	// sub-account's id, so the merchant's fees, the sub-account's locks,
	// webhooks and WebSocket all apply.
	Charges *Charges
	// Throttle counts failed logins per e-mail and per address.
	Throttle LoginThrottle
	// FailuresPerEmail and FailuresPerAddress are the failed logins allowed
	// within the throttle's window (config: LOGIN_FAILURES_PER_*; 0 takes
	// the defaults).
	FailuresPerEmail, FailuresPerAddress int
	// Sealer keeps TOTP secrets at rest.
	Sealer *twofactor.Sealer
	// Now is the clock of the codes and the records; nil is time.Now.
	Now func() time.Time
}

// The login throttles' defaults (CONTRACTS.md): failed logins per e-mail
// and per address within the window.
const (
	DefaultLoginFailuresPerEmail   = 10
	DefaultLoginFailuresPerAddress = 100
)

func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

//go:generate go tool mockgen -destination=servicemock/login_throttle.go -package=servicemock . LoginThrottle

// LoginThrottle counts failed logins per id over a sliding window
// (ratelimit.Failures in one process, ratelimit.SharedFailures across
// replicas).
type LoginThrottle interface {
	Blocked(ctx context.Context, id string, limit int) time.Duration
	Fail(ctx context.Context, id string, limit int)
	Forget(ctx context.Context, id string)
}

// The portal's refusals, mapped to pages at the edge (api/portal.go).
var (
	// ErrLoginFailed is every failed login alike: a wrong e-mail, password
	// or code, an unknown e-mail, a revoked, legacy or disabled portal.
	ErrLoginFailed = errors.New("portal: login failed")
	// ErrCodeNeeded is a right password without the second factor's code.
	ErrCodeNeeded = errors.New("portal: a second factor code is needed")
	// ErrSessionEnded is a session that may not go on (revoked, e-mail
	// changed, second factor reset, sub-account disabled or deleted).
	ErrSessionEnded = errors.New("portal: session ended")
)

// ThrottledError is a login refused before any check: too many failures
// for the e-mail or the address inside the window.
type ThrottledError struct{ RetryAfter time.Duration }

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("portal: too many failed logins, retry in %s", e.RetryAfter)
}

// PortalLogin is a login form with where it came from.
type PortalLogin struct {
	Email, Password, Code string
	Address, UserAgent    string
}

// PortalHolder is who a portal session stands for: the sub-account (its
// password hash left out), its account, and the epoch the session holds.
type PortalHolder struct {
	Subaccount subaccount.Subaccount
	Account    domain.Account
	Epoch      int64
}

func (s *Portal) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Login checks a holder's e-mail, password and, once enrolled, code, and
// answers the holder. Every attempt is recorded; every failure counts
// against the e-mail and the address, and once either has spent its
// budget the attempt is refused (ThrottledError) before any check.
func (s *Portal) Login(ctx context.Context, in PortalLogin) (PortalHolder, error) {
	email := strings.ToLower(strings.TrimSpace(in.Email))
	attempt := db.LoginAttempt{Email: truncate(email, 320), Address: in.Address, UserAgent: truncate(in.UserAgent, 512)}
	var h PortalHolder
	gate := loginGate{area: "portal", throttle: s.Throttle, perEmail: s.FailuresPerEmail, perAddress: s.FailuresPerAddress}
	err := gate.run(ctx, email, in.Address, func() error {
		var err error
		h, err = s.check(ctx, email, in)
		if h.Subaccount.ID != "" {
			attempt.UserID = &h.Subaccount.ID
		}
		return err
	}, func(outcome string) error {
		attempt.Outcome = outcome
		return db.PortalLogins.RecordAttempt(ctx, s.DB, attempt, s.now(), subaccount.LoginSucceeded)
	})
	if err != nil {
		return PortalHolder{}, err
	}
	h.Subaccount.PortalLastLoginAt = domain.TimePtr(s.now())
	return h, nil
}

// check is Login's verdict on the credentials; the holder is set when the
// e-mail names a portal, whatever the verdict.
func (s *Portal) check(ctx context.Context, email string, in PortalLogin) (PortalHolder, error) {
	sa, secrets, err := db.PortalLogin(ctx, s.DB, email)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return PortalHolder{}, err
	}
	var hash *string
	if err == nil {
		hash = sa.PortalPasswordHash
	}
	if !passwordMatches(hash, in.Password) || err != nil || !sa.CanLogIn() {
		return PortalHolder{Subaccount: sa}, ErrLoginFailed
	}
	h := PortalHolder{Subaccount: sa, Epoch: sa.PortalEpoch}
	if sa.PortalTwoFactor {
		if err := s.factor().take(ctx, sa.ID, secrets, in.Code); err != nil {
			return h, err
		}
	}
	if h.Account, err = db.GetAccount(ctx, s.DB, sa.AccountID); err != nil {
		return h, err
	}
	h.Subaccount.PortalPasswordHash = nil
	return h, nil
}

func (s *Portal) factor() secondFactor {
	return secondFactor{db: s.DB, logins: db.PortalLogins, sealer: s.Sealer, now: s.now()}
}

// Holder is the holder of a session of subID's portal opened under epoch,
// or ErrSessionEnded when that session may not go on.
func (s *Portal) Holder(ctx context.Context, subID string, epoch int64) (PortalHolder, error) {
	sa, err := db.PortalHolder(ctx, s.DB, subID)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && !sa.SessionLive(epoch)) {
		return PortalHolder{}, ErrSessionEnded
	}
	if err != nil {
		return PortalHolder{}, err
	}
	acct, err := db.GetAccount(ctx, s.DB, sa.AccountID)
	if err != nil {
		return PortalHolder{}, err
	}
	sa.PortalPasswordHash = nil
	return PortalHolder{Subaccount: sa, Account: acct, Epoch: epoch}, nil
}
