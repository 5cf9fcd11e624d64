package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

// PortalSecrets are what a portal login checks beyond the password: the
// sealed TOTP secret, the step of the last code taken and the hashes of the
// recovery codes left.
type PortalSecrets struct {
	TOTPSecret *string        `db:"portal_totp_secret"`
	TOTPStep   int64          `db:"portal_totp_step"`
	Recovery   pq.StringArray `db:"portal_recovery_hashes"`
}

// PortalLogin is a live sub-account whose portal has the e-mail (lower
// case), with its second factor's secrets; not found when none has it.
func PortalLogin(ctx context.Context, q sqlx.QueryerContext, email string) (subaccount.Subaccount, PortalSecrets, error) {
	var row struct {
		subaccount.Subaccount
		PortalSecrets
	}
	err := sqlx.GetContext(ctx, q, &row, `
		SELECT `+subColumns+`, portal_totp_secret, portal_totp_step, portal_recovery_hashes
		FROM subaccounts WHERE portal_email = $1 AND deleted_at IS NULL`, email)
	if errors.Is(err, sql.ErrNoRows) {
		return row.Subaccount, row.PortalSecrets, domain.NotFound("portal")
	}
	if err != nil {
		return row.Subaccount, row.PortalSecrets, fmt.Errorf("db: portal login: %w", err)
	}
	return row.Subaccount, row.PortalSecrets, nil
}

// PortalHolder is the live sub-account id, whatever its account.
func PortalHolder(ctx context.Context, q sqlx.QueryerContext, id string) (subaccount.Subaccount, error) {
	var s subaccount.Subaccount
	err := sqlx.GetContext(ctx, q, &s, `SELECT `+subColumns+` FROM subaccounts WHERE id = $1 AND deleted_at IS NULL`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return s, domain.NotFound("sub-account")
	}
	if err != nil {
		return s, fmt.Errorf("db: portal holder: %w", err)
	}
	return s, nil
}

// TakeTOTPStep records that the code of step was taken for id's portal,
// and reports false when that step or a later one was taken already (a
// replay, or a race with another login using the same code): one
// statement, so two logins cannot both take one code.
func TakeTOTPStep(ctx context.Context, q sqlx.ExecerContext, id string, step int64) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE subaccounts SET portal_totp_step = $2
		WHERE id = $1 AND portal_totp_step < $2 AND portal_two_factor`, id, step)
	if err != nil {
		return false, fmt.Errorf("db: take totp step: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// TakeRecoveryCode removes the recovery code's hash from id's portal, and
// reports false when it was not there (unknown, or used already).
func TakeRecoveryCode(ctx context.Context, q sqlx.ExecerContext, id, hash string) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE subaccounts SET portal_recovery_hashes = array_remove(portal_recovery_hashes, $2)
		WHERE id = $1 AND $2 = ANY(portal_recovery_hashes) AND portal_two_factor`, id, hash)
	if err != nil {
		return false, fmt.Errorf("db: take recovery code: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// EnrollPortalTOTP turns on id's second factor with the sealed secret, the
// step of the code that confirmed it and the recovery codes' hashes, and
// moves the sessions' epoch on by one (the sessions opened without it
// end), if they are still of epoch (a reset or a revoke in between wins);
// it reports whether it did.
func EnrollPortalTOTP(ctx context.Context, q sqlx.ExecerContext, id string, epoch int64, sealed string, step int64, hashes []string) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE subaccounts SET portal_two_factor = true, portal_totp_secret = $3,
			portal_totp_step = GREATEST(portal_totp_step, $4), portal_recovery_hashes = $5,
			portal_session_epoch = $2 + 1, updated_at = now()
		WHERE id = $1 AND portal_session_epoch = $2 AND deleted_at IS NULL`, id, epoch, sealed, step, stringArray(hashes))
	if err != nil {
		return false, fmt.Errorf("db: enroll totp: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// PortalAttempt is one login attempt of the portal, as recorded.
type PortalAttempt struct {
	SubaccountID *string
	Email        string
	Address      string
	UserAgent    string
	Outcome      string
}

// RecordPortalAttempt stores the attempt and, when it succeeded, the
// portal's last login time (at).
func RecordPortalAttempt(ctx context.Context, q sqlx.ExecerContext, a PortalAttempt, at time.Time) error {
	_, err := q.ExecContext(ctx, `
		WITH attempt AS (
			INSERT INTO portal_login_attempts (subaccount_id, email, address, user_agent, outcome, created_at)
			VALUES ($1, $2, $3, $4, $5, $6))
		UPDATE subaccounts SET portal_last_login_at = $6 WHERE id = $1 AND $5 = $7`,
		a.SubaccountID, a.Email, a.Address, a.UserAgent, a.Outcome, at, subaccount.LoginSucceeded)
	if err != nil {
		return fmt.Errorf("db: record portal attempt: %w", err)
	}
	return nil
}

// LoginAttemptsKept is how long login attempts are kept: long enough to
// answer a holder's "was that me?" for a quarter.
const LoginAttemptsKept = 90 * 24 * time.Hour

// PurgeSessions drops the human pages' expired sessions and the login
// attempts older than LoginAttemptsKept (the hourly purge): scs's own
// cleanup goroutine is off, so one process's purge serves every store.
func PurgeSessions(ctx context.Context, d *sqlx.DB) (int64, error) {
	res, err := d.ExecContext(ctx, `
		WITH old AS (DELETE FROM portal_login_attempts WHERE created_at < now() - $1 * interval '1 second')
		DELETE FROM sessions WHERE expiry < now()`, int64(LoginAttemptsKept/time.Second))
	if err != nil {
		return 0, fmt.Errorf("db: purge sessions: %w", err)
	}
	return res.RowsAffected()
}
