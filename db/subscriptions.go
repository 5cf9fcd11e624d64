package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

// InsertSubscription stores a new subscription; an existing id writes
// nothing (a retried create).
func InsertSubscription(ctx context.Context, ex sqlx.ExecerContext, s billing.Subscription) error {
	doc, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = ex.ExecContext(ctx, `
		INSERT INTO subscriptions (id, account_id, api_key_id, external_id, status, next_cycle, doc, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
		s.ID, s.AccountID, s.APIKeyID, s.ExternalID, s.Status, s.NextCycle, string(doc), s.CreatedAt.Time)
	if err != nil {
		return fmt.Errorf("db: insert subscription: %w", err)
	}
	return nil
}

// SaveSubscription writes s over its row (the workflow's activities, under
// the row lock LockSubscription took).
func SaveSubscription(ctx context.Context, ex sqlx.ExecerContext, s billing.Subscription) error {
	doc, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = ex.ExecContext(ctx, `UPDATE subscriptions SET status = $2, next_cycle = $3, doc = $4, updated_at = now() WHERE id = $1`,
		s.ID, s.Status, s.NextCycle, string(doc))
	if err != nil {
		return fmt.Errorf("db: save subscription: %w", err)
	}
	return nil
}

// GetSubscription loads one of the account's subscriptions by its id or
// its externalId; another account's is not found. An empty accountID
// loads any account's (workflow side), by id only.
func GetSubscription(ctx context.Context, q sqlx.QueryerContext, accountID, idOrExternal string) (billing.Subscription, error) {
	return subscription(ctx, q, `SELECT doc FROM subscriptions
		WHERE ($2 = '' AND id = $1) OR ($2 <> '' AND account_id = $2 AND (id = $1 OR external_id = $1))
		ORDER BY id = $1 DESC LIMIT 1`, idOrExternal, accountID)
}

// LockSubscription loads a subscription under its row lock, until tx ends.
func LockSubscription(ctx context.Context, tx *sqlx.Tx, id string) (billing.Subscription, error) {
	return subscription(ctx, tx, `SELECT doc FROM subscriptions WHERE id = $1 FOR UPDATE`, id)
}

func subscription(ctx context.Context, q sqlx.QueryerContext, query string, args ...any) (billing.Subscription, error) {
	var doc []byte
	err := sqlx.GetContext(ctx, q, &doc, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return billing.Subscription{}, domain.NotFound("subscription")
	}
	if err != nil {
		return billing.Subscription{}, fmt.Errorf("db: get subscription: %w", err)
	}
	var s billing.Subscription
	return s, json.Unmarshal(doc, &s)
}

// ListSubscriptions loads a page of the account's subscriptions (of one
// status when status is not empty), newest first, and how many there are.
func ListSubscriptions(ctx context.Context, q sqlx.QueryerContext, accountID, status string, page, pageSize int) ([]billing.Subscription, int, error) {
	where, args := "account_id = $1", []any{accountID}
	if status != "" {
		where, args = where+" AND status = $2", append(args, status)
	}
	docs, total, err := listPage[[]byte](ctx, q, "subscriptions", "doc", "subscriptions", where, args, page, pageSize)
	if err != nil {
		return nil, 0, err
	}
	out := make([]billing.Subscription, len(docs))
	for i, d := range docs {
		if err := json.Unmarshal(d, &out[i]); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}
