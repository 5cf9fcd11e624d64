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
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/money"
)

// PaymentLink is a stored payment link.
type PaymentLink struct {
	ID             string         `db:"id"`
	AccountID      string         `db:"account_id"`
	APIKeyID       *string        `db:"api_key_id"`
	Name           string         `db:"name"`
	Description    string         `db:"description"`
	AllowedMethods pq.StringArray `db:"allowed_methods"`
	FixedAmount    *money.Cents   `db:"fixed_amount"`
	ProductIDs     pq.StringArray `db:"product_ids"`
	CustomerMode   string         `db:"customer_mode"`
	Status         string         `db:"status"`
	CreatedAt      domain.Time    `db:"created_at"`
	UpdatedAt      domain.Time    `db:"updated_at"`
}

const linkColumns = `id, account_id, api_key_id, name, description, allowed_methods, fixed_amount, product_ids,
	customer_mode, status, created_at, updated_at`

// InsertPaymentLink stores a new link.
func InsertPaymentLink(ctx context.Context, q sqlx.QueryerContext, l PaymentLink) (PaymentLink, error) {
	var out PaymentLink
	err := sqlx.GetContext(ctx, q, &out, `
		INSERT INTO payment_links (id, account_id, api_key_id, name, description, allowed_methods, fixed_amount,
			product_ids, customer_mode, status)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING `+linkColumns,
		l.ID, l.AccountID, l.APIKeyID, l.Name, l.Description, l.AllowedMethods, l.FixedAmount, l.ProductIDs,
		l.CustomerMode, l.Status)
	if err != nil {
		return out, fmt.Errorf("db: insert payment link: %w", err)
	}
	return out, nil
}

// GetPaymentLink reads a live link of the account (another account's, or a
// deleted one, is not found).
func GetPaymentLink(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (PaymentLink, error) {
	var l PaymentLink
	err := hotGet(ctx, q, &l, `SELECT `+linkColumns+` FROM payment_links
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID)
	return l, linkErr(err, "get")
}

// PublicPaymentLink reads a live link by id alone: the hosted pay page,
// whose visitor has no API key (the link id is the page's address).
func PublicPaymentLink(ctx context.Context, q sqlx.QueryerContext, id string) (PaymentLink, error) {
	var l PaymentLink
	err := hotGet(ctx, q, &l, `SELECT `+linkColumns+` FROM payment_links WHERE id = $1 AND deleted_at IS NULL`, id)
	return l, linkErr(err, "get public")
}

// ListPaymentLinks is one page of the account's live links, newest first;
// status "" means any, search matches the name or description.
func ListPaymentLinks(ctx context.Context, q sqlx.QueryerContext, accountID, status, search string, page, pageSize int) ([]PaymentLink, int, error) {
	where := `account_id = $1 AND deleted_at IS NULL AND ($2 = '' OR status = $2)
		AND ($3 = '' OR name ILIKE '%' || $3 || '%' OR description ILIKE '%' || $3 || '%')`
	return listPage[PaymentLink](ctx, q, "payment links", linkColumns, "payment_links", where,
		[]any{accountID, status, likeEscape(search)}, page, pageSize)
}

// UpdatePaymentLink applies p to a live link of the account.
func UpdatePaymentLink(ctx context.Context, q sqlx.QueryerContext, accountID, id string, p checkout.LinkPatch) (PaymentLink, error) {
	var methods, products any
	if p.AllowedMethods != nil {
		methods = pq.StringArray(p.AllowedMethods)
	}
	if p.ProductIDs != nil {
		products = pq.StringArray(p.ProductIDs)
	}
	var l PaymentLink
	err := sqlx.GetContext(ctx, q, &l, `
		UPDATE payment_links SET
			name = COALESCE($3, name), description = COALESCE($4, description),
			allowed_methods = COALESCE($5, allowed_methods), fixed_amount = COALESCE($6, fixed_amount),
			product_ids = COALESCE($7, product_ids), customer_mode = COALESCE($8, customer_mode),
			status = COALESCE($9, status), updated_at = now()
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL RETURNING `+linkColumns,
		id, accountID, p.Name, p.Description, methods, p.FixedAmount, products, p.CustomerMode, p.Status)
	return l, linkErr(err, "update")
}

// DeletePaymentLink marks a live link of the account deleted: its page and
// checkouts are gone, its sessions keep naming it.
func DeletePaymentLink(ctx context.Context, q sqlx.ExecerContext, accountID, id string) error {
	res, err := q.ExecContext(ctx, `UPDATE payment_links SET deleted_at = now(), updated_at = now()
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID)
	if err != nil {
		return fmt.Errorf("db: delete payment link: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.NotFound("payment link")
	}
	return nil
}

// likeEscape makes s a literal inside a LIKE pattern.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}

func linkErr(err error, what string) error {
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return domain.NotFound("payment link")
	case err != nil:
		return fmt.Errorf("db: %s payment link: %w", what, err)
	}
	return nil
}
