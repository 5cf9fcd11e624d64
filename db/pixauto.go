package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
)

// InsertAuthorization stores a new PIX automatic authorization; an existing
// id writes nothing and reports false (a retried create).
func InsertAuthorization(ctx context.Context, ex sqlx.ExecerContext, a pixauto.Authorization) (bool, error) {
	doc, err := json.Marshal(a)
	if err != nil {
		return false, err
	}
	res, err := ex.ExecContext(ctx, `
		INSERT INTO pix_automatic_authorizations (id, account_id, customer_id, status, doc, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
		a.ID, a.AccountID, a.CustomerID, a.Status, string(doc), a.CreatedAt)
	if err != nil {
		return false, fmt.Errorf("db: insert authorization: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SaveAuthorization writes the authorization over its row.
func SaveAuthorization(ctx context.Context, ex sqlx.ExecerContext, a pixauto.Authorization) error {
	doc, err := json.Marshal(a)
	if err != nil {
		return err
	}
	if _, err := ex.ExecContext(ctx, `UPDATE pix_automatic_authorizations SET status = $2, doc = $3, updated_at = now() WHERE id = $1`,
		a.ID, a.Status, string(doc)); err != nil {
		return fmt.Errorf("db: save authorization: %w", err)
	}
	return nil
}

// GetAuthorization loads one of the account's authorizations; another
// account's id is not found. An empty accountID loads any account's
// (workflow side).
func GetAuthorization(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (pixauto.Authorization, error) {
	return authorization(ctx, q, `SELECT doc FROM pix_automatic_authorizations WHERE id = $1 AND ($2 = '' OR account_id = $2)`, id, accountID)
}

// LockAuthorization loads an authorization under its row lock until tx
// ends: every change of an authorization and every new instruction of it
// take this lock first, so an instruction never lands on an authorization
// that a concurrent cancel has closed.
func LockAuthorization(ctx context.Context, tx *sqlx.Tx, id string) (pixauto.Authorization, error) {
	return authorization(ctx, tx, `SELECT doc FROM pix_automatic_authorizations WHERE id = $1 FOR UPDATE`, id)
}

func authorization(ctx context.Context, q sqlx.QueryerContext, query string, args ...any) (pixauto.Authorization, error) {
	var doc []byte
	err := sqlx.GetContext(ctx, q, &doc, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return pixauto.Authorization{}, domain.NotFound("authorization")
	}
	if err != nil {
		return pixauto.Authorization{}, fmt.Errorf("db: get authorization: %w", err)
	}
	var a pixauto.Authorization
	return a, json.Unmarshal(doc, &a)
}

// ListAuthorizations loads a page of the account's authorizations, newest
// first (status "" for all), and how many there are.
func ListAuthorizations(ctx context.Context, q sqlx.QueryerContext, accountID, status string, page, pageSize int) ([]pixauto.Authorization, int, error) {
	docs, total, err := listPage[[]byte](ctx, q, "authorizations", "doc", "pix_automatic_authorizations",
		"account_id = $1 AND ($2 = '' OR status = $2)", []any{accountID, status}, page, pageSize)
	if err != nil {
		return nil, 0, err
	}
	out := make([]pixauto.Authorization, len(docs))
	for i, d := range docs {
		if err := json.Unmarshal(d, &out[i]); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// ListInstructions loads a page of the account's payment instructions,
// newest first, optionally of one authorization and one status.
func ListInstructions(ctx context.Context, q sqlx.QueryerContext, accountID, authorizationID, status string, page, pageSize int) ([]domain.Transaction, int, error) {
	return listPage[domain.Transaction](ctx, q, "instructions", txColumns, "transactions",
		`account_id = $1 AND type = '`+domain.TypePixAutomatic+`' AND ($2 = '' OR details->'pixAutomatic'->>'authorizationId' = $2)
		AND ($3 = '' OR status = $3)`, []any{accountID, authorizationID, status}, page, pageSize)
}

// OpenInstructions lists an authorization's SCHEDULED instructions, by due
// date: what its workflow still has to charge or hear about.
func OpenInstructions(ctx context.Context, q sqlx.QueryerContext, authorizationID string) ([]domain.Transaction, error) {
	var out []domain.Transaction
	err := sqlx.SelectContext(ctx, q, &out, `SELECT `+txColumns+` FROM transactions
		WHERE type = '`+domain.TypePixAutomatic+`' AND details->'pixAutomatic'->>'authorizationId' = $1 AND status = 'SCHEDULED'
		ORDER BY details->'pixAutomatic'->>'dueDate', id`, authorizationID)
	if err != nil {
		return nil, fmt.Errorf("db: open instructions: %w", err)
	}
	return out, nil
}
