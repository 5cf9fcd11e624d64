package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/dashboard"
)

// The dashboard's users, their invitations, login attempts and the audit
// log (migration 00034).

const userColumns = `id, account_id, email, role, session_epoch, two_factor, password_hash IS NOT NULL AS has_password,
	last_login_at, created_at`

// InsertUser stores a user: with its password's hash (a sign-up's owner)
// or with an invitation's token hash valid until expires. An e-mail that
// another live user has is a 400 naming email.
func InsertUser(ctx context.Context, q sqlx.QueryerContext, u dashboard.User, passwordHash *string, inviteHash []byte, expires *time.Time) (dashboard.User, error) {
	var out dashboard.User
	err := sqlx.GetContext(ctx, q, &out, `
		INSERT INTO dashboard_users (id, account_id, email, role, password_hash, invite_hash, invite_expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING `+userColumns,
		u.ID, u.AccountID, u.Email, u.Role, passwordHash, inviteHash, expires)
	if isUniqueViolation(err) {
		return out, domain.Invalid("email", "is already used by a dashboard user")
	}
	if err != nil {
		return out, fmt.Errorf("db: insert dashboard user: %w", err)
	}
	return out, nil
}

// Signup stores an account, its ledger accounts and its owner in one
// transaction.
func Signup(ctx context.Context, d *sqlx.DB, a domain.Account, owner dashboard.User, passwordHash string) (domain.Account, dashboard.User, error) {
	var acct domain.Account
	var user dashboard.User
	err := InTx(ctx, d, func(tx *sqlx.Tx) error {
		var err error
		if acct, err = InsertAccount(ctx, tx, a); err != nil {
			return err
		}
		user, err = InsertUser(ctx, tx, owner, &passwordHash, nil, nil)
		return err
	})
	return acct, user, err
}

// UserLogin is the live user with the e-mail (lower case), with its
// password's hash (nil before an invitation is taken) and its second
// factor's secrets; not found when none has it.
func UserLogin(ctx context.Context, q sqlx.QueryerContext, email string) (dashboard.User, *string, FactorSecrets, error) {
	var row struct {
		dashboard.User
		Hash *string `db:"password_hash"`
		FactorSecrets
	}
	err := sqlx.GetContext(ctx, q, &row, `SELECT `+userColumns+`, password_hash, `+DashboardLogins.secretColumns()+`
		FROM dashboard_users WHERE lower(email) = $1 AND deleted_at IS NULL`, email)
	if errors.Is(err, sql.ErrNoRows) {
		return row.User, nil, row.FactorSecrets, domain.NotFound("user")
	}
	if err != nil {
		return row.User, nil, row.FactorSecrets, fmt.Errorf("db: dashboard login: %w", err)
	}
	return row.User, row.Hash, row.FactorSecrets, nil
}

// GetUser is a live user; accountID "" takes it whatever its account,
// another account's is not found.
func GetUser(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (dashboard.User, error) {
	var u dashboard.User
	err := sqlx.GetContext(ctx, q, &u, `SELECT `+userColumns+` FROM dashboard_users
		WHERE id = $1 AND ($2 = '' OR account_id = $2) AND deleted_at IS NULL`, id, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return u, domain.NotFound("user")
	}
	if err != nil {
		return u, fmt.Errorf("db: dashboard user: %w", err)
	}
	return u, nil
}

// ListUsers is the account's live users, oldest first.
func ListUsers(ctx context.Context, q sqlx.QueryerContext, accountID string) ([]dashboard.User, error) {
	var us []dashboard.User
	if err := sqlx.SelectContext(ctx, q, &us, `SELECT `+userColumns+` FROM dashboard_users
		WHERE account_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`, accountID); err != nil {
		return nil, fmt.Errorf("db: dashboard users: %w", err)
	}
	return us, nil
}

// RemoveUser removes the account's user (its sessions end: the row is no
// longer live); another account's is not found.
func RemoveUser(ctx context.Context, q sqlx.ExecerContext, accountID, id string) error {
	res, err := q.ExecContext(ctx, `UPDATE dashboard_users SET deleted_at = now(), updated_at = now(),
		session_epoch = session_epoch + 1 WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID)
	if err != nil {
		return fmt.Errorf("db: remove dashboard user: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return domain.NotFound("user")
	}
	return nil
}

// TakeInvite sets the password of the user whose invitation's token hash
// is inviteHash, if it is still valid at now, and spends the invitation
// (one statement: a link is used once); not found otherwise.
func TakeInvite(ctx context.Context, q sqlx.QueryerContext, inviteHash []byte, passwordHash string, now time.Time) (dashboard.User, error) {
	var u dashboard.User
	err := sqlx.GetContext(ctx, q, &u, `UPDATE dashboard_users SET password_hash = $2, invite_hash = NULL,
			invite_expires_at = NULL, session_epoch = session_epoch + 1, updated_at = now()
		WHERE invite_hash = $1 AND invite_expires_at > $3 AND deleted_at IS NULL RETURNING `+userColumns,
		inviteHash, passwordHash, now)
	if errors.Is(err, sql.ErrNoRows) {
		return u, domain.NotFound("invitation")
	}
	if err != nil {
		return u, fmt.Errorf("db: take invitation: %w", err)
	}
	return u, nil
}

// InviteLive reports whether an invitation's token hash is still valid at
// now (the set-password page asks before it shows its form).
func InviteLive(ctx context.Context, q sqlx.QueryerContext, inviteHash []byte, now time.Time) (bool, error) {
	var ok bool
	err := sqlx.GetContext(ctx, q, &ok, `SELECT EXISTS (SELECT 1 FROM dashboard_users
		WHERE invite_hash = $1 AND invite_expires_at > $2 AND deleted_at IS NULL)`, inviteHash, now)
	if err != nil {
		return false, fmt.Errorf("db: invitation: %w", err)
	}
	return ok, nil
}

// AuditEntry is one line of an account's audit log.
type AuditEntry struct {
	ID        int64       `db:"id"`
	AccountID string      `db:"account_id"`
	UserID    *string     `db:"user_id"`
	Actor     string      `db:"actor"`
	Action    string      `db:"action"`
	Target    string      `db:"target"`
	Address   string      `db:"address"`
	CreatedAt domain.Time `db:"created_at"`
}

// Audit appends e to its account's log.
func Audit(ctx context.Context, q sqlx.ExecerContext, e AuditEntry) error {
	_, err := q.ExecContext(ctx, `INSERT INTO dashboard_audit (account_id, user_id, actor, action, target, address)
		VALUES ($1, $2, $3, $4, $5, $6)`, e.AccountID, e.UserID, e.Actor, e.Action, e.Target, e.Address)
	if err != nil {
		return fmt.Errorf("db: audit: %w", err)
	}
	return nil
}

// AuditLog is the account's latest audit entries, newest first, before
// the entry id before (0: from the newest).
func AuditLog(ctx context.Context, q sqlx.QueryerContext, accountID string, before int64, limit int) ([]AuditEntry, error) {
	var es []AuditEntry
	if err := sqlx.SelectContext(ctx, q, &es, `SELECT id, account_id, user_id, actor, action, target, address, created_at
		FROM dashboard_audit WHERE account_id = $1 AND ($2 = 0 OR id < $2) ORDER BY id DESC LIMIT $3`,
		accountID, before, limit); err != nil {
		return nil, fmt.Errorf("db: audit log: %w", err)
	}
	return es, nil
}
