package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

type keyRow struct {
	domain.APIKey
	Perms pq.StringArray `db:"permissions"`
	IPs   pq.StringArray `db:"ip_allowlist"`
}

func (r keyRow) key() domain.APIKey {
	k := r.APIKey
	k.Permissions, k.IPAllowlist = []string(r.Perms), []string(r.IPs)
	if k.IPAllowlist == nil {
		k.IPAllowlist = []string{}
	}
	return k
}

const keyColumns = `id, account_id, name, prefix, permissions, ip_allowlist, rate_limit_per_minute, revoked_at, created_at`

// CreateKey stores a key by the hash of its secret.
func CreateKey(ctx context.Context, d *sqlx.DB, k domain.APIKey, hash []byte) (domain.APIKey, error) {
	if k.IPAllowlist == nil {
		k.IPAllowlist = []string{}
	}
	var row keyRow
	err := d.QueryRowxContext(ctx, `
		INSERT INTO api_keys (id, account_id, name, prefix, hash, permissions, ip_allowlist, rate_limit_per_minute)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING `+keyColumns,
		k.ID, k.AccountID, k.Name, k.Prefix, hash, pq.StringArray(k.Permissions), pq.StringArray(k.IPAllowlist),
		k.RateLimitPerMinute).StructScan(&row)
	if err != nil {
		return domain.APIKey{}, fmt.Errorf("db: insert key: %w", err)
	}
	return row.key(), nil
}

// KeyByHash finds a valid key (never revoked, or rolled and still in its
// grace) by the hash of its secret.
func KeyByHash(ctx context.Context, q sqlx.QueryerContext, hash []byte) (domain.APIKey, error) {
	var row keyRow
	err := hotGet(ctx, q, &row, `SELECT `+keyColumns+` FROM api_keys WHERE hash = $1 AND (revoked_at IS NULL OR revoked_at > now())`, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.APIKey{}, domain.ErrUnauthorized
	}
	if err != nil {
		return domain.APIKey{}, fmt.Errorf("db: key lookup: %w", err)
	}
	return row.key(), nil
}

// keyAndAccountSQL is KeyAndAccountByHash's statement, built once.
var keyAndAccountSQL = `SELECT ` + prefixed("k", keyColumns) + `, ` + prefixed("a", accountColumns) + `
	FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1 AND (k.revoked_at IS NULL OR k.revoked_at > now())`

// KeyAndAccountByHash finds a valid key by the hash of its secret
// together with its account, in one statement (every request needs both).
func KeyAndAccountByHash(ctx context.Context, q sqlx.QueryerContext, hash []byte) (domain.APIKey, domain.Account, error) {
	var row struct {
		K keyRow     `db:"k"`
		A accountRow `db:"a"`
	}
	err := hotGet(ctx, q, &row, keyAndAccountSQL, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.APIKey{}, domain.Account{}, domain.ErrUnauthorized
	}
	if err != nil {
		return domain.APIKey{}, domain.Account{}, fmt.Errorf("db: key lookup: %w", err)
	}
	return row.K.key(), row.A.account(), nil
}

// prefixed qualifies a column list with a table alias and names each
// result "alias.column", which sqlx maps to the field tagged alias.
func prefixed(alias, columns string) string {
	parts := strings.Split(columns, ",")
	for i, c := range parts {
		c = strings.TrimSpace(c)
		parts[i] = alias + "." + c + ` AS "` + alias + "." + c + `"`
	}
	return strings.Join(parts, ", ")
}

// RevokeKey marks a key revoked now (a rolled key's grace ends);
// revoking twice is harmless.
func RevokeKey(ctx context.Context, d *sqlx.DB, id string) (domain.APIKey, error) {
	var row keyRow
	err := d.QueryRowxContext(ctx, `
		UPDATE api_keys SET revoked_at = LEAST(COALESCE(revoked_at, now()), now()) WHERE id = $1 RETURNING `+keyColumns, id).StructScan(&row)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.APIKey{}, domain.NotFound("key")
	}
	if err != nil {
		return domain.APIKey{}, fmt.Errorf("db: revoke key: %w", err)
	}
	AuthChanged()
	return row.key(), nil
}

// RevokedKeyIDs returns which of the keys are revoked (a rolled key once
// its grace has passed): the WebSocket
// gateway's periodic re-check, behind the revocation NOTIFY.
func RevokedKeyIDs(ctx context.Context, q sqlx.QueryerContext, ids []string) ([]string, error) {
	var out []string
	err := sqlx.SelectContext(ctx, q, &out, `SELECT id FROM api_keys WHERE id = ANY($1) AND revoked_at <= now()`, pq.StringArray(ids))
	if err != nil {
		return nil, fmt.Errorf("db: revoked keys: %w", err)
	}
	return out, nil
}
