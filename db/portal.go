package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

// PortalLogin is a live sub-account whose portal has the e-mail (lower
// case), with its second factor's secrets; not found when none has it.
func PortalLogin(ctx context.Context, q sqlx.QueryerContext, email string) (subaccount.Subaccount, FactorSecrets, error) {
	var row struct {
		subaccount.Subaccount
		FactorSecrets
	}
	err := sqlx.GetContext(ctx, q, &row, `
		SELECT `+subColumns+`, `+PortalLogins.secretColumns()+`
		FROM subaccounts WHERE portal_email = $1 AND deleted_at IS NULL`, email)
	if errors.Is(err, sql.ErrNoRows) {
		return row.Subaccount, row.FactorSecrets, domain.NotFound("portal")
	}
	if err != nil {
		return row.Subaccount, row.FactorSecrets, fmt.Errorf("db: portal login: %w", err)
	}
	return row.Subaccount, row.FactorSecrets, nil
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

// LoginAttemptsKept is how long login attempts are kept: long enough to
// answer a holder's "was that me?" for a quarter.
const LoginAttemptsKept = 90 * 24 * time.Hour

// PurgeSessions drops the human pages' expired sessions and the login
// attempts older than LoginAttemptsKept (the hourly purge): scs's own
// cleanup goroutine is off, so one process's purge serves every store.
func PurgeSessions(ctx context.Context, d *sqlx.DB) (int64, error) {
	res, err := d.ExecContext(ctx, `
		WITH old AS (DELETE FROM portal_login_attempts WHERE created_at < now() - $1 * interval '1 second'),
			old_dashboard AS (DELETE FROM dashboard_login_attempts WHERE created_at < now() - $1 * interval '1 second')
		DELETE FROM sessions WHERE expiry < now()`, int64(LoginAttemptsKept/time.Second))
	if err != nil {
		return 0, fmt.Errorf("db: purge sessions: %w", err)
	}
	return res.RowsAffected()
}
