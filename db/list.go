package db

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

// ListFilter holds the common list parameters of the spec.
type ListFilter struct {
	Page, PageSize    int
	Types             []string
	Status            string
	DateFrom, DateTo  *time.Time
	ExternalReference string
	Search            string
	SubaccountID      string
	// RefundsOnly keeps deposits that carry a refund block.
	RefundsOnly bool
}

func stringArray(s []string) pq.StringArray { return pq.StringArray(s) }

// where builds the SQL condition and arguments shared by the page and count queries.
func (f ListFilter) where(accountID string) (string, []any) {
	conds := []string{"account_id = $1"}
	args := []any{accountID}
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, strings.ReplaceAll(cond, "?", "$"+strconv.Itoa(len(args))))
	}
	if len(f.Types) > 0 {
		add("type = ANY(?)", stringArray(f.Types))
	}
	if f.RefundsOnly {
		conds = append(conds, "details ? 'refund'")
	}
	if f.Status != "" {
		add("status = ?", f.Status)
	}
	if f.DateFrom != nil {
		add("created_at >= ?", *f.DateFrom)
	}
	if f.DateTo != nil {
		add("created_at <= ?", *f.DateTo)
	}
	if f.ExternalReference != "" {
		add("external_reference = ?", f.ExternalReference)
	}
	if f.SubaccountID != "" {
		// A sub-account transfer is listed under both its sub-accounts.
		add("(subaccount_id = ? OR details->>'toSubaccountId' = ?)", f.SubaccountID)
	}
	if f.Search != "" {
		like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(f.Search) + "%"
		add(`(id ILIKE ? OR description ILIKE ? OR external_reference ILIKE ? OR end_to_end_id ILIKE ?
			OR reference_id ILIKE ? OR details->>'pixKey' ILIKE ?)`, like)
	}
	return strings.Join(conds, " AND "), args
}

// ListTransactions returns one page of the account's transactions, newest
// first, and the total number matching f.
func ListTransactions(ctx context.Context, q sqlx.QueryerContext, accountID string, f ListFilter) ([]domain.Transaction, int, error) {
	where, args := f.where(accountID)
	var total int
	if err := sqlx.GetContext(ctx, q, &total, `SELECT count(*) FROM transactions WHERE `+where, args...); err != nil {
		return nil, 0, fmt.Errorf("db: count transactions: %w", err)
	}
	items := []domain.Transaction{}
	if total == 0 {
		return items, 0, nil
	}
	args = append(args, f.PageSize, (f.Page-1)*f.PageSize)
	err := sqlx.SelectContext(ctx, q, &items, `SELECT `+txColumns+` FROM transactions WHERE `+where+
		fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT $%d OFFSET $%d`, len(args)-1, len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("db: list transactions: %w", err)
	}
	return items, total, nil
}
