package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/bureau"
)

const dunningColumns = `id, account_id, status, type, payment, value, fee, description, debtor, document_name, document_type,
	reference_id, reason, created_at, updated_at`

// InsertDunning stores a new dunning with its documents file; it reports
// false, writing nothing, when the id exists (a retried create). A second
// standing dunning of the same billing is refused by the table's unique
// index, as a 400.
func InsertDunning(ctx context.Context, tx *sqlx.Tx, d bureau.Dunning, document []byte) (bool, error) {
	res, err := tx.ExecContext(ctx, `
		INSERT INTO dunnings (id, account_id, status, type, payment, value, fee, description, debtor, document, document_name, document_type, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (id) DO NOTHING`,
		d.ID, d.AccountID, d.Status, d.Type, d.Payment, d.Value, d.Fee, d.Description, d.Debtor, document, d.DocumentName,
		d.DocumentType, d.CreatedAt)
	var pe *pq.Error
	if errors.As(err, &pe) && pe.Code == "23505" {
		return false, domain.Invalidf("billing %s already has a dunning", d.Payment)
	}
	if err != nil {
		return false, fmt.Errorf("db: insert dunning: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// GetDunning loads one of the account's dunnings (an empty accountID: any
// account's, for the workflow); another account's is not found.
func GetDunning(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (bureau.Dunning, error) {
	return dunning(ctx, q, `SELECT `+dunningColumns+` FROM dunnings WHERE id = $1 AND ($2 = '' OR account_id = $2)`, id, accountID)
}

// LockDunning loads a dunning under its row lock until tx ends.
func LockDunning(ctx context.Context, tx *sqlx.Tx, id string) (bureau.Dunning, error) {
	return dunning(ctx, tx, `SELECT `+dunningColumns+` FROM dunnings WHERE id = $1 FOR UPDATE`, id)
}

// StandingDunning is the billing's dunning that still stands (not
// DENIED), if any.
func StandingDunning(ctx context.Context, q sqlx.QueryerContext, accountID, payment string) (*bureau.Dunning, error) {
	d, err := dunning(ctx, q, `SELECT `+dunningColumns+` FROM dunnings
		WHERE account_id = $1 AND payment = $2 AND status <> 'DENIED'`, accountID, payment)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, nil
	}
	return &d, err
}

func dunning(ctx context.Context, q sqlx.QueryerContext, query string, args ...any) (bureau.Dunning, error) {
	var d bureau.Dunning
	err := sqlx.GetContext(ctx, q, &d, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return d, domain.NotFound("dunning")
	}
	if err != nil {
		return d, fmt.Errorf("db: get dunning: %w", err)
	}
	return d, nil
}

// DunningDocument is the documents file of a dunning (for the bureau).
func DunningDocument(ctx context.Context, q sqlx.QueryerContext, id string) ([]byte, error) {
	var doc []byte
	if err := sqlx.GetContext(ctx, q, &doc, `SELECT document FROM dunnings WHERE id = $1`, id); err != nil {
		return nil, fmt.Errorf("db: dunning document: %w", err)
	}
	return doc, nil
}

// UpdateDunning writes a dunning's status, bureau reference and reason.
func UpdateDunning(ctx context.Context, tx *sqlx.Tx, d bureau.Dunning) (bureau.Dunning, error) {
	return dunning(ctx, tx, `UPDATE dunnings SET status = $2, reference_id = $3, reason = $4, updated_at = now()
		WHERE id = $1 RETURNING `+dunningColumns, d.ID, d.Status, d.ReferenceID, d.Reason)
}

// ListDunnings returns the account's dunnings matching f, newest first, from
// f.Offset, at most f.Limit, and how many match.
func ListDunnings(ctx context.Context, q sqlx.QueryerContext, accountID string, f bureau.DunningFilter) ([]bureau.Dunning, int, error) {
	conds, args := []string{"account_id = $1"}, []any{accountID}
	for col, v := range map[string]string{"status": f.Status, "type": f.Type, "payment": f.Payment} {
		if v != "" {
			args = append(args, v)
			conds = append(conds, col+" = $"+strconv.Itoa(len(args)))
		}
	}
	where := strings.Join(conds, " AND ")
	var total int
	if err := sqlx.GetContext(ctx, q, &total, `SELECT count(*) FROM dunnings WHERE `+where, args...); err != nil {
		return nil, 0, fmt.Errorf("db: count dunnings: %w", err)
	}
	out := []bureau.Dunning{}
	if f.Offset >= total {
		return out, total, nil
	}
	n := len(args)
	args = append(args, f.Limit, f.Offset)
	err := sqlx.SelectContext(ctx, q, &out, fmt.Sprintf(`SELECT %s FROM dunnings WHERE %s ORDER BY created_at DESC, id DESC LIMIT $%d OFFSET $%d`,
		dunningColumns, where, n+1, n+2), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("db: list dunnings: %w", err)
	}
	return out, total, nil
}

const reportColumns = `id, account_id, status, customer_id, cpf_cnpj, fee, score, restrictions, reference_id, created_at`

// InsertReport stores a credit report; false, writing nothing, when the id
// exists.
func InsertReport(ctx context.Context, tx *sqlx.Tx, r bureau.Report) (bool, error) {
	res, err := tx.ExecContext(ctx, `
		INSERT INTO bureau_reports (`+reportColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
		r.ID, r.AccountID, r.Status, r.Customer, r.CpfCnpj, r.Fee, r.Score, r.Restrictions, r.ReferenceID, r.CreatedAt)
	if err != nil {
		return false, fmt.Errorf("db: insert report: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// GetReport loads one of the account's credit reports.
func GetReport(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (bureau.Report, error) {
	var r bureau.Report
	err := sqlx.GetContext(ctx, q, &r, `SELECT `+reportColumns+` FROM bureau_reports WHERE id = $1 AND account_id = $2`, id, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return r, domain.NotFound("report")
	}
	if err != nil {
		return r, fmt.Errorf("db: get report: %w", err)
	}
	return r, nil
}

// ListReports loads a page of the account's credit reports, newest first.
func ListReports(ctx context.Context, q sqlx.QueryerContext, accountID string, page, pageSize int) ([]bureau.Report, int, error) {
	return listPage[bureau.Report](ctx, q, "reports", reportColumns, "bureau_reports", "account_id = $1", []any{accountID}, page, pageSize)
}
