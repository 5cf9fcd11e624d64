package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
)

// ListSessions is one page of the account's checkout sessions, newest
// first; status "" means any.
func ListSessions(ctx context.Context, q sqlx.QueryerContext, accountID, status string, page, pageSize int) ([]checkout.CheckoutSession, int, error) {
	return listPage[checkout.CheckoutSession](ctx, q, "checkout sessions", sessionColumns, "checkout_sessions",
		"account_id = $1 AND ($2 = '' OR status = $2)", []any{accountID, status}, page, pageSize)
}

// RollEndpointSecret gives a live endpoint in scope a new signing secret:
// its next attempts are signed with it.
func RollEndpointSecret(ctx context.Context, q sqlx.QueryerContext, scope EndpointScope, id, secret string) (WebhookEndpoint, error) {
	var e WebhookEndpoint
	err := sqlx.GetContext(ctx, q, &e, `UPDATE webhook_endpoints SET secret = $4, updated_at = now()
		WHERE id = $1 AND `+scope.where(2)+` RETURNING `+endpointColumns, id, scope.AccountID, scope.KeyID, secret)
	if errors.Is(err, sql.ErrNoRows) {
		return e, domain.NotFound("webhook endpoint")
	}
	if err != nil {
		return e, fmt.Errorf("db: roll endpoint secret: %w", err)
	}
	return e, nil
}
