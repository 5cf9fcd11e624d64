package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Logins names where an area keeps what its logins check and record: its
// users' second factor, sessions' epoch and last login (the portal on the
// sub-account's row, columns prefixed portal_; the dashboard on its
// users', no prefix) and its login attempts. Each change of a code is one
// UPDATE, so two logins cannot both take one code.
type Logins struct {
	table, prefix string
	// attempts is the area's attempts table, user its column of the user.
	attempts, user string
}

// The areas' logins.
var (
	PortalLogins    = Logins{table: "subaccounts", prefix: "portal_", attempts: "portal_login_attempts", user: "subaccount_id"}
	DashboardLogins = Logins{table: "dashboard_users", attempts: "dashboard_login_attempts", user: "user_id"}
)

// LoginAttempt is one login attempt of an area, as recorded: the user
// when the e-mail names one.
type LoginAttempt struct {
	UserID    *string
	Email     string
	Address   string
	UserAgent string
	Outcome   string
}

// RecordAttempt stores the attempt and, when its outcome is succeeded,
// the user's last login time (at).
func (f Logins) RecordAttempt(ctx context.Context, q sqlx.ExecerContext, a LoginAttempt, at time.Time, succeeded string) error {
	_, err := q.ExecContext(ctx, fmt.Sprintf(`
		WITH attempt AS (
			INSERT INTO %[1]s (%[2]s, email, address, user_agent, outcome, created_at)
			VALUES ($1, $2, $3, $4, $5, $6))
		UPDATE %[3]s SET %[4]slast_login_at = $6 WHERE id = $1 AND $5 = $7`, f.attempts, f.user, f.table, f.prefix),
		a.UserID, a.Email, a.Address, a.UserAgent, a.Outcome, at, succeeded)
	if err != nil {
		return fmt.Errorf("db: record login attempt: %w", err)
	}
	return nil
}

// FactorSecrets are what a login checks beyond the password: the sealed
// TOTP secret, the step of the last code taken and the hashes of the
// recovery codes left.
type FactorSecrets struct {
	TOTPSecret *string        `db:"totp_secret"`
	TOTPStep   int64          `db:"totp_step"`
	Recovery   pq.StringArray `db:"recovery_hashes"`
}

// secretColumns selects FactorSecrets from the area's row.
func (f Logins) secretColumns() string {
	return fmt.Sprintf("%[1]stotp_secret AS totp_secret, %[1]stotp_step AS totp_step, %[1]srecovery_hashes AS recovery_hashes", f.prefix)
}

func (f Logins) exec(ctx context.Context, q sqlx.ExecerContext, what, query string, args ...any) (bool, error) {
	res, err := q.ExecContext(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("db: %s: %w", what, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// TakeTOTPStep records that the code of step was taken for id, and
// reports false when that step or a later one was taken already (a
// replay, or a race with another login using the same code).
func (f Logins) TakeTOTPStep(ctx context.Context, q sqlx.ExecerContext, id string, step int64) (bool, error) {
	return f.exec(ctx, q, "take totp step", fmt.Sprintf(`UPDATE %[1]s SET %[2]stotp_step = $2
		WHERE id = $1 AND %[2]stotp_step < $2 AND %[2]stwo_factor`, f.table, f.prefix), id, step)
}

// TakeRecoveryCode removes the recovery code's hash from id, and reports
// false when it was not there (unknown, or used already).
func (f Logins) TakeRecoveryCode(ctx context.Context, q sqlx.ExecerContext, id, hash string) (bool, error) {
	return f.exec(ctx, q, "take recovery code", fmt.Sprintf(`UPDATE %[1]s SET %[2]srecovery_hashes = array_remove(%[2]srecovery_hashes, $2)
		WHERE id = $1 AND $2 = ANY(%[2]srecovery_hashes) AND %[2]stwo_factor`, f.table, f.prefix), id, hash)
}

// Enroll turns on id's second factor with the sealed secret, the step of
// the code that confirmed it and the recovery codes' hashes, and moves
// the sessions' epoch on by one (the sessions opened without it end), if
// they are still of epoch (a reset or a revoke in between wins); it
// reports whether it did.
func (f Logins) Enroll(ctx context.Context, q sqlx.ExecerContext, id string, epoch int64, sealed string, step int64, hashes []string) (bool, error) {
	return f.exec(ctx, q, "enroll totp", fmt.Sprintf(`UPDATE %[1]s SET %[2]stwo_factor = true, %[2]stotp_secret = $3,
			%[2]stotp_step = GREATEST(%[2]stotp_step, $4), %[2]srecovery_hashes = $5,
			%[2]ssession_epoch = $2 + 1, updated_at = now()
		WHERE id = $1 AND %[2]ssession_epoch = $2 AND deleted_at IS NULL`, f.table, f.prefix),
		id, epoch, sealed, step, stringArray(hashes))
}
