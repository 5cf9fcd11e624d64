package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/fiscal"
)

const invoiceColumns = `id, account_id, api_key_id, charge_id, amount, status, number, reference_id, reason, created_at, updated_at`

// InsertFiscalInvoice stores a charge's new fiscal invoice; it reports
// false, writing nothing, when the charge has one (its id and its charge
// are both unique: a retried paid transition inserts once).
func InsertFiscalInvoice(ctx context.Context, tx *sqlx.Tx, inv fiscal.FiscalInvoice) (bool, error) {
	res, err := tx.ExecContext(ctx, `
		INSERT INTO fiscal_invoices (id, account_id, api_key_id, charge_id, amount, status)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
		inv.ID, inv.AccountID, inv.APIKeyID, inv.ChargeID, inv.Amount, inv.Status)
	if err != nil {
		return false, fmt.Errorf("db: insert fiscal invoice: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// GetFiscalInvoice loads a fiscal invoice (for its workflow, the sweeper
// and the issuer's notices: no account scope, nothing reads it for a
// merchant).
func GetFiscalInvoice(ctx context.Context, q sqlx.QueryerContext, id string) (fiscal.FiscalInvoice, error) {
	return fiscalInvoice(ctx, q, `SELECT `+invoiceColumns+` FROM fiscal_invoices WHERE id = $1`, id)
}

// LockFiscalInvoice loads a fiscal invoice under its row lock until tx ends.
func LockFiscalInvoice(ctx context.Context, tx *sqlx.Tx, id string) (fiscal.FiscalInvoice, error) {
	return fiscalInvoice(ctx, tx, `SELECT `+invoiceColumns+` FROM fiscal_invoices WHERE id = $1 FOR UPDATE`, id)
}

// UpdateFiscalInvoice writes an invoice's status and the issuer's answer.
func UpdateFiscalInvoice(ctx context.Context, tx *sqlx.Tx, inv fiscal.FiscalInvoice) (fiscal.FiscalInvoice, error) {
	return fiscalInvoice(ctx, tx, `UPDATE fiscal_invoices SET status = $2, number = $3, reference_id = $4, reason = $5, updated_at = now()
		WHERE id = $1 RETURNING `+invoiceColumns, inv.ID, inv.Status, inv.Number, inv.ReferenceID, inv.Reason)
}

func fiscalInvoice(ctx context.Context, q sqlx.QueryerContext, query string, args ...any) (fiscal.FiscalInvoice, error) {
	var inv fiscal.FiscalInvoice
	err := sqlx.GetContext(ctx, q, &inv, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return inv, domain.NotFound("fiscal invoice")
	}
	if err != nil {
		return inv, fmt.Errorf("db: get fiscal invoice: %w", err)
	}
	return inv, nil
}
