package service

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/twofactor"
)

// What every area's login does alike (the portal's, the dashboard's): the
// throttle asked first, one argon2id verification for every refusal, the
// second factor's codes each taken once, every attempt recorded.

// loginGate is an area's login throttle: failures per e-mail and per
// address within the throttle's window.
type loginGate struct {
	area                 string
	throttle             LoginThrottle
	perEmail, perAddress int
}

// run asks the throttle, then check, and records the attempt's outcome
// (record): a success forgets the e-mail's failures, a failure counts
// against the e-mail and the address, and once either has spent its
// budget the attempt is refused (ThrottledError) before check runs.
func (g loginGate) run(ctx context.Context, email, address string, check func() error, record func(outcome string) error) error {
	byEmail, byAddr := g.area+"-email:"+email, g.area+"-address:"+address
	perEmail := orDefault(g.perEmail, DefaultLoginFailuresPerEmail)
	perAddr := orDefault(g.perAddress, DefaultLoginFailuresPerAddress)
	if wait := max(g.throttle.Blocked(ctx, byEmail, perEmail), g.throttle.Blocked(ctx, byAddr, perAddr)); wait > 0 {
		return errors.Join(&ThrottledError{RetryAfter: wait}, record(subaccount.LoginThrottled))
	}
	err := check()
	var outcome string
	switch {
	case err == nil:
		outcome = subaccount.LoginSucceeded
		g.throttle.Forget(ctx, byEmail)
	case errors.Is(err, ErrCodeNeeded):
		outcome = subaccount.LoginCodeAsked
	case errors.Is(err, ErrLoginFailed):
		outcome = subaccount.LoginFailed
		g.throttle.Fail(ctx, byEmail, perEmail)
		g.throttle.Fail(ctx, byAddr, perAddr)
	default:
		return err
	}
	if rerr := record(outcome); rerr != nil {
		return rerr
	}
	return err
}

var (
	dummyOnce sync.Once
	dummyHash string
)

// dummy is a hash no password matches, verified for an unknown e-mail so
// that it costs what a known one does.
func dummy() string {
	dummyOnce.Do(func() { dummyHash, _ = subaccount.HashPassword("no login has this password: Aa1!") })
	return dummyHash
}

// passwordMatches verifies password against hash (nil: the dummy, which
// nothing matches), so every refusal costs one argon2id verification.
func passwordMatches(hash *string, password string) bool {
	h := dummy() // made on the first login, whatever it names, so no first refusal costs more
	if hash != nil {
		h = *hash
	}
	return subaccount.VerifyPassword(h, password)
}

// secondFactor checks a login's code against a user's second factor.
type secondFactor struct {
	db     sqlx.ExecerContext
	logins db.Logins
	sealer *twofactor.Sealer
	now    time.Time
}

// take takes a TOTP code (six digits) or a recovery code of the user id,
// each once: a wrong or replayed code is ErrLoginFailed, no code at all
// ErrCodeNeeded.
func (f secondFactor) take(ctx context.Context, id string, secrets db.FactorSecrets, code string) error {
	code = strings.TrimSpace(code)
	if code == "" {
		return ErrCodeNeeded
	}
	var ok bool
	var err error
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		ok, err = f.logins.TakeRecoveryCode(ctx, f.db, id, twofactor.HashRecovery(code))
	} else if secrets.TOTPSecret != nil {
		var secret string
		if secret, err = f.sealer.Open(id, *secrets.TOTPSecret); err == nil {
			if step, verr := twofactor.Verify(secret, code, f.now, secrets.TOTPStep); verr == nil {
				ok, err = f.logins.TakeTOTPStep(ctx, f.db, id, step)
			}
		}
	}
	if err != nil || !ok {
		return errors.Join(ErrLoginFailed, err)
	}
	return nil
}

// Enrollment is a TOTP secret being enrolled: shown to the user (Secret,
// URI) and kept sealed in the session until a code confirms it.
type Enrollment struct {
	twofactor.Enrollment
	Sealed string
}

// totpIssuer names Jangada in the user's authenticator app.
const totpIssuer = "Jangada"

// beginTOTP makes a new TOTP secret for owner (sealed to it), labelled
// with the user's e-mail in the app.
func beginTOTP(sealer *twofactor.Sealer, owner, label string) (Enrollment, error) {
	e, err := twofactor.NewSecret(totpIssuer, label)
	if err != nil {
		return Enrollment{}, err
	}
	return Enrollment{Enrollment: e, Sealed: sealer.Seal(owner, e.Secret)}, nil
}

// confirm enrolls the sealed secret of owner once code is one of its
// codes, and answers the ten recovery codes to show once and the epoch
// the enrolling session goes on under (every other session, opened
// without the second factor, ends). A wrong code is a 400 naming code; a
// session ended meanwhile is ErrSessionEnded.
func (f secondFactor) confirm(ctx context.Context, owner string, epoch int64, sealed, code string) ([]string, int64, error) {
	secret, err := f.sealer.Open(owner, sealed)
	if err != nil {
		return nil, 0, domain.Invalid("code", "names no secret being enrolled: open the page again")
	}
	step, err := twofactor.Verify(secret, code, f.now, 0)
	if err != nil {
		return nil, 0, domain.Invalid("code", "is not the code your app shows now")
	}
	codes, hashes := twofactor.RecoveryCodes()
	ok, err := f.logins.Enroll(ctx, f.db, owner, epoch, sealed, step, hashes)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, ErrSessionEnded
	}
	return codes, epoch + 1, nil
}
