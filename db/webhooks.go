package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

// WebhookEndpoint is a stored webhook endpoint. APIKeyID nil marks a
// dashboard endpoint, which receives every event of the account.
type WebhookEndpoint struct {
	ID          string         `db:"id"`
	AccountID   string         `db:"account_id"`
	APIKeyID    *string        `db:"api_key_id"`
	URL         string         `db:"url"`
	Events      pq.StringArray `db:"events"`
	Description string         `db:"description"`
	Status      string         `db:"status"`
	Secret      string         `db:"secret"`
	CreatedAt   domain.Time    `db:"created_at"`
	UpdatedAt   domain.Time    `db:"updated_at"`
}

const endpointColumns = `id, account_id, api_key_id, url, events, description, status, secret, created_at, updated_at`

// CreateEndpoint stores a new endpoint, refusing more than max live
// endpoints per account (the count is taken under the account's row lock).
func CreateEndpoint(ctx context.Context, d *sqlx.DB, e WebhookEndpoint, max int) (WebhookEndpoint, error) {
	var out WebhookEndpoint
	err := InTx(ctx, d, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, e.AccountID); err != nil {
			return fmt.Errorf("db: lock account: %w", err)
		}
		var n int
		if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM webhook_endpoints WHERE account_id = $1 AND deleted_at IS NULL`, e.AccountID); err != nil {
			return fmt.Errorf("db: count endpoints: %w", err)
		}
		if n >= max {
			return domain.Invalidf("an account may have at most %d webhook endpoints", max)
		}
		return tx.GetContext(ctx, &out, `
			INSERT INTO webhook_endpoints (id, account_id, api_key_id, url, events, description, status, secret)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING `+endpointColumns,
			e.ID, e.AccountID, e.APIKeyID, e.URL, e.Events, e.Description, e.Status, e.Secret)
	})
	if err != nil {
		return WebhookEndpoint{}, err
	}
	return out, nil
}

// EndpointScope is whose endpoints a caller may see and change. A merchant
// key sees only the endpoints it created (KeyID set): another key of the
// same account, whatever its permissions, cannot read, redirect, disable or
// delete them, nor touch a dashboard endpoint. The admin API sees a whole
// account (KeyID ""), or any account (AccountID "" too).
type EndpointScope struct {
	AccountID string
	KeyID     string
}

// where is the condition of live endpoints in the scope, its account and
// key taken from parameters $n and $n+1.
func (s EndpointScope) where(n int) string {
	a, k := "$"+strconv.Itoa(n), "$"+strconv.Itoa(n+1)
	return `(` + a + ` = '' OR account_id = ` + a + `) AND (` + k + ` = '' OR api_key_id = ` + k + `) AND deleted_at IS NULL`
}

// GetEndpoint reads a live endpoint in scope.
func GetEndpoint(ctx context.Context, q sqlx.QueryerContext, scope EndpointScope, id string) (WebhookEndpoint, error) {
	var e WebhookEndpoint
	err := sqlx.GetContext(ctx, q, &e, `SELECT `+endpointColumns+` FROM webhook_endpoints
		WHERE id = $1 AND `+scope.where(2), id, scope.AccountID, scope.KeyID)
	if errors.Is(err, sql.ErrNoRows) {
		return e, domain.NotFound("webhook endpoint")
	}
	if err != nil {
		return e, fmt.Errorf("db: get endpoint: %w", err)
	}
	return e, nil
}

// ListEndpoints returns one page of the live endpoints in scope (an
// account is required), newest first.
func ListEndpoints(ctx context.Context, q sqlx.QueryerContext, scope EndpointScope, page, pageSize int) ([]WebhookEndpoint, int, error) {
	if scope.AccountID == "" {
		return nil, 0, errors.New("db: list endpoints: no account")
	}
	return listPage[WebhookEndpoint](ctx, q, "endpoints", endpointColumns, "webhook_endpoints", scope.where(1),
		[]any{scope.AccountID, scope.KeyID}, page, pageSize)
}

// UpdateEndpoint applies p to a live endpoint in scope.
func UpdateEndpoint(ctx context.Context, d *sqlx.DB, scope EndpointScope, id string, p domain.EndpointPatch) (WebhookEndpoint, error) {
	var events any
	if p.Events != nil {
		events = pq.StringArray(p.Events)
	}
	var e WebhookEndpoint
	err := d.GetContext(ctx, &e, `
		UPDATE webhook_endpoints SET
			url = COALESCE($4, url), events = COALESCE($5, events),
			description = COALESCE($6, description), status = COALESCE($7, status), updated_at = now()
		WHERE id = $1 AND `+scope.where(2)+` RETURNING `+endpointColumns,
		id, scope.AccountID, scope.KeyID, p.URL, events, p.Description, p.Status)
	if errors.Is(err, sql.ErrNoRows) {
		return e, domain.NotFound("webhook endpoint")
	}
	if err != nil {
		return e, fmt.Errorf("db: update endpoint: %w", err)
	}
	return e, nil
}

// DeleteEndpoint soft-deletes an endpoint: its delivery history stays, and
// deliveries still in their retry schedule stop at their next attempt.
func DeleteEndpoint(ctx context.Context, d *sqlx.DB, scope EndpointScope, id string) error {
	res, err := d.ExecContext(ctx, `UPDATE webhook_endpoints SET deleted_at = now(), updated_at = now()
		WHERE id = $1 AND `+scope.where(2), id, scope.AccountID, scope.KeyID)
	if err != nil {
		return fmt.Errorf("db: delete endpoint: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.NotFound("webhook endpoint")
	}
	return nil
}

// ActiveEndpoints returns the active endpoints of the given accounts, the
// candidates the dispatcher routes events to.
func ActiveEndpoints(ctx context.Context, q sqlx.QueryerContext, accountIDs []string) ([]WebhookEndpoint, error) {
	var out []WebhookEndpoint
	err := sqlx.SelectContext(ctx, q, &out, `SELECT `+endpointColumns+` FROM webhook_endpoints
		WHERE account_id = ANY($1) AND status = 'ACTIVE' AND deleted_at IS NULL`, pq.StringArray(accountIDs))
	if err != nil {
		return nil, fmt.Errorf("db: active endpoints: %w", err)
	}
	return out, nil
}
