package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

type accountRow struct {
	domain.Account
	FeaturesJ domain.JSONB[domain.Features] `db:"features"`
	FeesJ     domain.JSONB[domain.Fees]     `db:"fees"`
}

func (r accountRow) account() domain.Account {
	a := r.Account
	a.Features, a.Fees = r.FeaturesJ.V, r.FeesJ.V
	return a
}

const accountColumns = `id, name, email, document, status, verified, features, fees, security_review_threshold, pix_key, created_at`

// CreateAccount inserts a with its ledger accounts; a taken e-mail is a 400.
func CreateAccount(ctx context.Context, d *sqlx.DB, a domain.Account) (domain.Account, error) {
	var out domain.Account
	err := InTx(ctx, d, func(tx *sqlx.Tx) error {
		var err error
		out, err = InsertAccount(ctx, tx, a)
		return err
	})
	return out, err
}

// InsertAccount inserts a with its ledger accounts inside tx; a taken
// e-mail is a 400.
func InsertAccount(ctx context.Context, tx *sqlx.Tx, a domain.Account) (domain.Account, error) {
	var row accountRow
	err := tx.QueryRowxContext(ctx, `
			INSERT INTO accounts (id, name, email, document, status, verified, features, fees, security_review_threshold, pix_key)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING `+accountColumns,
		a.ID, a.Name, a.Email, a.Document, a.Status, a.Verified, domain.SomeJSON(a.Features), domain.SomeJSON(a.Fees),
		a.SecurityReviewThreshold, a.PixKey).StructScan(&row)
	if isUniqueViolation(err) {
		return domain.Account{}, domain.Invalid("email", "is already used by another account")
	}
	if err != nil {
		return domain.Account{}, fmt.Errorf("db: insert account: %w", err)
	}
	return row.account(), CreateLedgerAccounts(ctx, tx, a.ID)
}

// GetAccount loads an account by id.
func GetAccount(ctx context.Context, q sqlx.QueryerContext, id string) (domain.Account, error) {
	var row accountRow
	err := sqlx.GetContext(ctx, q, &row, `SELECT `+accountColumns+` FROM accounts WHERE id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Account{}, domain.NotFound("account")
	}
	if err != nil {
		return domain.Account{}, fmt.Errorf("db: get account: %w", err)
	}
	return row.account(), nil
}

// GetAccountByEmail loads an account by its e-mail, case-insensitively.
func GetAccountByEmail(ctx context.Context, q sqlx.QueryerContext, email string) (domain.Account, error) {
	var row accountRow
	err := hotGet(ctx, q, &row, `SELECT `+accountColumns+` FROM accounts WHERE lower(email) = lower($1)`, strings.TrimSpace(email))
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Account{}, domain.NotFound("account")
	}
	if err != nil {
		return domain.Account{}, fmt.Errorf("db: get account by email: %w", err)
	}
	return row.account(), nil
}

// AccountPatch holds the operator's changes; nil fields stay as they are.
type AccountPatch struct {
	Verified                *bool
	Features                *domain.Features
	Fees                    *domain.Fees
	SecurityReviewThreshold *money.Cents
}

// UpdateAccount applies p and returns the account.
func UpdateAccount(ctx context.Context, d *sqlx.DB, id string, p AccountPatch) (domain.Account, error) {
	var feat, fees any
	if p.Features != nil {
		feat = domain.SomeJSON(*p.Features)
	}
	if p.Fees != nil {
		fees = domain.SomeJSON(*p.Fees)
	}
	res, err := d.ExecContext(ctx, `
		UPDATE accounts SET verified = COALESCE($2, verified), features = COALESCE($3, features),
		       fees = COALESCE($4, fees), security_review_threshold = COALESCE($5, security_review_threshold)
		WHERE id = $1`, id, p.Verified, feat, fees, p.SecurityReviewThreshold)
	if err != nil {
		return domain.Account{}, fmt.Errorf("db: update account: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.Account{}, domain.NotFound("account")
	}
	AuthChanged()
	return GetAccount(ctx, d, id)
}

// ListAccounts is one page of the accounts, newest first; search ("" for
// all) matches the id exactly, or the name, e-mail or document in part.
func ListAccounts(ctx context.Context, q sqlx.QueryerContext, search string, page, pageSize int) ([]domain.Account, int, error) {
	where := `($1 = '' OR id = $1 OR name ILIKE '%' || $2 || '%' OR email ILIKE '%' || $2 || '%' OR document ILIKE '%' || $2 || '%')`
	rows, total, err := listPage[accountRow](ctx, q, "accounts", accountColumns, "accounts", where,
		[]any{search, likeEscape(search)}, page, pageSize)
	out := make([]domain.Account, len(rows))
	for i, r := range rows {
		out[i] = r.account()
	}
	return out, total, err
}

// CountAccounts tells whether the database holds any account (dev seeding).
func CountAccounts(ctx context.Context, d *sqlx.DB) (int, error) {
	var n int
	err := d.GetContext(ctx, &n, `SELECT count(*) FROM accounts`)
	return n, err
}
