package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

const billingColumns = `id, account_id, api_key_id, method, status, amount, fee_amount, notification_fee_amount, net_amount,
	refunded_amount, installment_count, description, due_date, paid_at, estimated_credit_date, external_id,
	external_reference, account_transaction_id, customer_id, subscription_id, charge_id, page_token, customer, details,
	created_at, updated_at`

// insertBillingSQL writes a new billing; an id that exists writes nothing.
const insertBillingSQL = `INSERT INTO billings (id, account_id, api_key_id, method, status, amount, fee_amount,
	notification_fee_amount, net_amount, installment_count, description, due_date, external_id, external_reference,
	customer_id, subscription_id, charge_id, page_token, customer, details, created_at, updated_at)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $21)
	ON CONFLICT (id) DO NOTHING`

// InsertBilling stores a new billing and reports whether it was new (false:
// an earlier attempt stored it). With intent, the billing's workflow intent
// (workflow_launches, see InsertLaunch) is written in the same statement:
// run on a *sqlx.DB, one round trip commits both, with no BEGIN and no
// COMMIT (as FirstRecords does for a charge).
func InsertBilling(ctx context.Context, q sqlx.QueryerContext, b billing.Billing, intent *Intent) (bool, error) {
	query, args := insertBillingOnlySQL, billingArgs(b)
	if intent != nil {
		query = insertBillingIntentSQL
		args = append(args, intent.Kind, intent.Grace.Seconds())
	}
	var n int
	if err := hotGet(ctx, q, &n, query, args...); err != nil {
		return false, fmt.Errorf("db: insert billing: %w", err)
	}
	return n == 1, nil
}

// billingArgs are insertBillingSQL's parameters (empty details when unset).
func billingArgs(b billing.Billing) []any {
	if !b.Details.Valid {
		b.Details = domain.SomeJSON(billing.BillingDetails{})
	}
	return []any{b.ID, b.AccountID, b.APIKeyID, b.Method, b.Status, b.Amount, b.FeeAmount,
		b.NotificationFee, b.NetAmount, b.InstallmentCount, b.Description, b.DueDate.Format(time.DateOnly), b.ExternalID,
		b.ExternalReference, b.CustomerID, b.SubscriptionID, b.ChargeID, b.PageToken, b.Customer, b.Details, b.CreatedAt}
}

// BillingRow is a PIX billing's row written beside its charge
// (FirstRecordsWithOwner): the billing commits with the charge that pays it.
func BillingRow(b billing.Billing) OwnerRow {
	return OwnerRow{SQL: billingBesideSQL, Args: billingArgs(b)}
}

// The billing's insert alone, with its workflow intent, and beside a charge.
var (
	billingBesideSQL       = besideSQL(insertBillingSQL)
	insertBillingOnlySQL   = `WITH b AS (` + insertBillingSQL + ` RETURNING id) SELECT count(*) FROM b`
	insertBillingIntentSQL = `WITH b AS (` + insertBillingSQL + ` RETURNING id),
		l AS (INSERT INTO workflow_launches (kind, resource_id, due_at)
		      SELECT $22, b.id, now() + make_interval(secs => $23) FROM b ON CONFLICT DO NOTHING)
		SELECT count(*) FROM b`
)

// GetBilling loads one of the account's billings by its id or its
// externalId (the processor's id). Another account's id is not found.
func GetBilling(ctx context.Context, q sqlx.QueryerContext, accountID, idOrExternal string) (billing.Billing, error) {
	var b billing.Billing
	// Two index lookups, not one OR (see GetTransaction).
	err := hotGet(ctx, q, &b, `SELECT `+billingColumns+` FROM (
			(SELECT `+billingColumns+` FROM billings WHERE id = $2 AND account_id = $1)
			UNION ALL
			(SELECT `+billingColumns+` FROM billings WHERE account_id = $1 AND external_id = $2)
		) b ORDER BY (id = $2) DESC LIMIT 1`, accountID, idOrExternal)
	return b, billingErr(err)
}

// BillingByID loads a billing by id, whatever its account (workflows,
// the Inbox and the sweeper name it by id).
func BillingByID(ctx context.Context, q sqlx.QueryerContext, id string) (billing.Billing, error) {
	var b billing.Billing
	err := hotGet(ctx, q, &b, `SELECT `+billingColumns+` FROM billings WHERE id = $1`, id)
	return b, billingErr(err)
}

// BillingByPageToken loads the billing whose public slip or invoice page
// token is token.
func BillingByPageToken(ctx context.Context, q sqlx.QueryerContext, token string) (billing.Billing, error) {
	var b billing.Billing
	err := sqlx.GetContext(ctx, q, &b, `SELECT `+billingColumns+` FROM billings WHERE page_token = $1`, token)
	return b, billingErr(err)
}

// LockBilling loads a billing under its row lock.
func LockBilling(ctx context.Context, tx *sqlx.Tx, id string) (billing.Billing, error) {
	var b billing.Billing
	err := hotGet(ctx, tx, &b, `SELECT `+billingColumns+` FROM billings WHERE id = $1 FOR UPDATE`, id)
	return b, billingErr(err)
}

// UpdateBilling stores a billing's changes (what a transition or a refund
// moves) and returns it as stored.
func UpdateBilling(ctx context.Context, tx *sqlx.Tx, b billing.Billing) (billing.Billing, error) {
	var credit any
	if b.EstimatedCreditDate != nil {
		credit = b.EstimatedCreditDate.Format(time.DateOnly)
	}
	var out billing.Billing
	err := hotGet(ctx, tx, &out, `UPDATE billings SET status = $2, refunded_amount = $3, paid_at = $4, estimated_credit_date = $5,
		external_id = $6, account_transaction_id = $7, customer_id = $8, charge_id = $9, details = $10, updated_at = now()
		WHERE id = $1 RETURNING `+billingColumns,
		b.ID, b.Status, b.RefundedAmount, b.PaidAt, credit, b.ExternalID, b.AccountTransactionID, b.CustomerID, b.ChargeID, b.Details)
	if err != nil {
		return out, fmt.Errorf("db: update billing: %w", err)
	}
	return out, nil
}

// BillingFilter is a billing list's query (spec "Billings" list).
type BillingFilter struct {
	Page, PageSize    int
	Status, Method    string
	CustomerID        string
	ExternalReference string
	DateFrom, DateTo  *time.Time
}

// ListBillings returns one page of the account's billings, newest first,
// and the number matching f.
func ListBillings(ctx context.Context, q sqlx.QueryerContext, accountID string, f BillingFilter) ([]billing.Billing, int, error) {
	conds, args := []string{"account_id = $1"}, []any{accountID}
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, strings.ReplaceAll(cond, "?", fmt.Sprintf("$%d", len(args))))
	}
	if f.Status != "" {
		add("status = ?", f.Status)
	}
	if f.Method != "" {
		add("method = ?", f.Method)
	}
	if f.CustomerID != "" {
		add("customer_id = ?", f.CustomerID)
	}
	if f.ExternalReference != "" {
		add("external_reference = ?", f.ExternalReference)
	}
	if f.DateFrom != nil {
		add("created_at >= ?", *f.DateFrom)
	}
	if f.DateTo != nil {
		add("created_at <= ?", *f.DateTo)
	}
	return listPage[billing.Billing](ctx, q, "billings", billingColumns, "billings", strings.Join(conds, " AND "), args, f.Page, f.PageSize)
}

func billingErr(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return domain.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("db: billing: %w", err)
	}
	return nil
}

// CardTokenRow is a stored card token: the processor's vault token and
// what may be shown of the card (never its number).
type CardTokenRow struct {
	ID             string    `db:"id"`
	AccountID      string    `db:"account_id"`
	CustomerID     *string   `db:"customer_id"`
	ProcessorToken string    `db:"processor_token"`
	Brand          string    `db:"brand"`
	Last4          string    `db:"last4"`
	ExpiryMonth    int       `db:"expiry_month"`
	ExpiryYear     int       `db:"expiry_year"`
	CreatedAt      time.Time `db:"created_at"`
}

// InsertCardToken stores a token; an id that exists writes nothing and the
// stored one is returned.
func InsertCardToken(ctx context.Context, q sqlx.QueryerContext, t CardTokenRow) (CardTokenRow, error) {
	var out CardTokenRow
	err := sqlx.GetContext(ctx, q, &out, `WITH ins AS (
		INSERT INTO card_tokens (id, account_id, customer_id, processor_token, brand, last4, expiry_month, expiry_year)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING *)
		SELECT id, account_id, customer_id, processor_token, brand, last4, expiry_month, expiry_year, created_at FROM ins
		UNION ALL SELECT id, account_id, customer_id, processor_token, brand, last4, expiry_month, expiry_year, created_at
		FROM card_tokens WHERE id = $1 LIMIT 1`,
		t.ID, t.AccountID, t.CustomerID, t.ProcessorToken, t.Brand, t.Last4, t.ExpiryMonth, t.ExpiryYear)
	if err != nil {
		return out, fmt.Errorf("db: insert card token: %w", err)
	}
	return out, nil
}

// GetCardToken loads one of the account's card tokens (another account's
// is not found).
func GetCardToken(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (CardTokenRow, error) {
	var t CardTokenRow
	err := sqlx.GetContext(ctx, q, &t, `SELECT id, account_id, customer_id, processor_token, brand, last4, expiry_month, expiry_year, created_at
		FROM card_tokens WHERE account_id = $1 AND id = $2`, accountID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.ErrNotFound
	}
	return t, err
}
