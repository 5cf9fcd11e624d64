package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

// ListedKey is a key as the dashboard lists it: with its last use.
type ListedKey struct {
	domain.APIKey
	LastUsedAt *domain.Time
}

// ListKeys is the account's keys, newest first, with their last use;
// revoked ones are kept for a day (the list says when each went).
func ListKeys(ctx context.Context, q sqlx.QueryerContext, accountID string) ([]ListedKey, error) {
	var rows []struct {
		keyRow
		LastUsedAt *domain.Time `db:"last_used_at"`
	}
	err := sqlx.SelectContext(ctx, q, &rows, `SELECT `+prefixedPlain("k", keyColumns)+`, u.last_used_at
		FROM api_keys k LEFT JOIN api_key_uses u ON u.key_id = k.id
		WHERE k.account_id = $1 AND (k.revoked_at IS NULL OR k.revoked_at > now() - interval '1 day')
		ORDER BY k.created_at DESC, k.id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("db: list keys: %w", err)
	}
	out := make([]ListedKey, len(rows))
	for i, r := range rows {
		out[i] = ListedKey{APIKey: r.key(), LastUsedAt: r.LastUsedAt}
	}
	return out, nil
}

// prefixedPlain qualifies a column list with a table alias, keeping the
// columns' own names.
func prefixedPlain(alias, columns string) string {
	parts := strings.Split(columns, ",")
	for i, c := range parts {
		parts[i] = alias + "." + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// AccountKey is one of the account's keys; another account's is not found.
func AccountKey(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (domain.APIKey, error) {
	var row keyRow
	err := sqlx.GetContext(ctx, q, &row, `SELECT `+keyColumns+` FROM api_keys WHERE id = $1 AND account_id = $2`, id, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.APIKey{}, domain.NotFound("key")
	}
	if err != nil {
		return domain.APIKey{}, fmt.Errorf("db: key: %w", err)
	}
	return row.key(), nil
}

// RetireKey sets when a key stops working, at the latest until (a roll's
// grace; a key already ending sooner keeps its end).
func RetireKey(ctx context.Context, q sqlx.ExecerContext, id string, until time.Time) error {
	if _, err := q.ExecContext(ctx, `UPDATE api_keys SET revoked_at = LEAST(COALESCE(revoked_at, $2), $2) WHERE id = $1`, id, until); err != nil {
		return fmt.Errorf("db: retire key: %w", err)
	}
	AuthChanged()
	return nil
}

// TouchKeys records the keys' last uses (id → when), never moving one
// back: one statement for every key a process saw since its last write.
func TouchKeys(ctx context.Context, q sqlx.ExecerContext, uses map[string]time.Time) error {
	if len(uses) == 0 {
		return nil
	}
	ids, ats := make([]string, 0, len(uses)), make([]time.Time, 0, len(uses))
	for id, at := range uses {
		ids, ats = append(ids, id), append(ats, at)
	}
	_, err := q.ExecContext(ctx, `INSERT INTO api_key_uses (key_id, last_used_at)
		SELECT u.id, u.at FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at) JOIN api_keys k ON k.id = u.id
		ON CONFLICT (key_id) DO UPDATE SET last_used_at = GREATEST(api_key_uses.last_used_at, EXCLUDED.last_used_at)`,
		pq.StringArray(ids), pq.Array(ats))
	if err != nil {
		return fmt.Errorf("db: touch keys: %w", err)
	}
	return nil
}
