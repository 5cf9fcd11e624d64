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
	return listPage[domain.Transaction](ctx, q, "transactions", txColumns, "transactions", where, args, f.Page, f.PageSize)
}

// listPage is the one list query: the number of rows of table matching
// where, and one page of them (from 1), newest first (created_at, then id,
// so that rows of the same instant keep one order from page to page). The
// spec orders no list otherwise. where refers to args as $1, $2, …; what
// names the list in errors.
func listPage[T any](ctx context.Context, q sqlx.QueryerContext, what, columns, table, where string, args []any, page, pageSize int) ([]T, int, error) {
	var total int
	if err := sqlx.GetContext(ctx, q, &total, `SELECT count(*) FROM `+table+` WHERE `+where, args...); err != nil {
		return nil, 0, fmt.Errorf("db: count %s: %w", what, err)
	}
	items := []T{}
	offset := (page - 1) * pageSize
	if offset >= total { // nothing on this page: spare the query
		return items, total, nil
	}
	n := len(args)
	args = append(args[:n:n], pageSize, offset)
	err := sqlx.SelectContext(ctx, q, &items, fmt.Sprintf(`SELECT %s FROM %s WHERE %s ORDER BY created_at DESC, id DESC LIMIT $%d OFFSET $%d`,
		columns, table, where, n+1, n+2), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("db: list %s: %w", what, err)
	}
	return items, total, nil
}
