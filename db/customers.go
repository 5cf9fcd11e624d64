package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
)

const customerColumns = `id, account_id, name, email, document, type, status, phone, whatsapp, city, state,
	transactions, volume, created_at, updated_at`

// errDocumentTaken is the 400 of a document another live customer of the
// account already has.
var errDocumentTaken = domain.Invalid("document", "is already registered for another customer of this account")

// InsertCustomer stores a new customer; a document already registered for
// a live customer of the account is a 400 naming document.
func InsertCustomer(ctx context.Context, q sqlx.QueryerContext, c store.Customer) (store.Customer, error) {
	c = c.WithDefaults()
	var out store.Customer
	err := sqlx.GetContext(ctx, q, &out, `
		INSERT INTO customers (id, account_id, name, email, document, type, status, phone, whatsapp, city, state)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING `+customerColumns,
		c.ID, c.AccountID, c.Name, c.Email, c.Document, c.Type, c.Status, c.Phone, c.Whatsapp, c.City, c.State)
	if isUniqueViolation(err) {
		return out, errDocumentTaken
	}
	if err != nil {
		return out, fmt.Errorf("db: insert customer: %w", err)
	}
	return out, nil
}

// FindOrCreateCustomer is the account's live customer with c's document,
// made from c (WithDefaults; a fresh id when c has none) when there is
// none yet: the minimal record a payer's `{name, taxId, email?, phone?}`
// makes. Safe under concurrency: two callers with the same document get
// the same customer. An existing customer is returned as stored (a payer's
// data does not overwrite the merchant's).
func FindOrCreateCustomer(ctx context.Context, q sqlx.QueryerContext, c store.Customer) (store.Customer, error) {
	c = c.WithDefaults()
	if c.ID == "" {
		c.ID = domain.NewID("cus_")
	}
	// A returning customer (the common case: every billing of a store's
	// customers) is one prepared read, no write.
	out, err := customerByDocument(ctx, q, c.AccountID, c.Document)
	if !errors.Is(err, sql.ErrNoRows) {
		return out, err
	}
	// DO NOTHING waits for a concurrent insert of the same document to
	// end; the SELECT below, a new statement, then sees it committed.
	err = hotGet(ctx, q, &out, `
		INSERT INTO customers (id, account_id, name, email, document, type, status, phone, whatsapp, city, state)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT DO NOTHING RETURNING `+customerColumns,
		c.ID, c.AccountID, c.Name, c.Email, c.Document, c.Type, c.Status, c.Phone, c.Whatsapp, c.City, c.State)
	if err == nil {
		return out, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return out, fmt.Errorf("db: find or create customer: %w", err)
	}
	out, err = customerByDocument(ctx, q, c.AccountID, c.Document)
	if errors.Is(err, sql.ErrNoRows) {
		err = fmt.Errorf("db: find customer by document: %w", err)
	}
	return out, err
}

// customerByDocument reads the account's live customer with document
// (sql.ErrNoRows when there is none).
func customerByDocument(ctx context.Context, q sqlx.QueryerContext, accountID, document string) (store.Customer, error) {
	var out store.Customer
	err := hotGet(ctx, q, &out, `SELECT `+customerColumns+` FROM customers
		WHERE account_id = $1 AND document = $2 AND deleted_at IS NULL`, accountID, document)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		err = fmt.Errorf("db: find customer by document: %w", err)
	}
	return out, err
}

// GetCustomer reads one of the account's live customers; another
// account's customer is not found.
func GetCustomer(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (store.Customer, error) {
	return getCustomer(ctx, q, accountID, id, "")
}

func getCustomer(ctx context.Context, q sqlx.QueryerContext, accountID, id, lock string) (store.Customer, error) {
	var c store.Customer
	err := sqlx.GetContext(ctx, q, &c, `SELECT `+customerColumns+` FROM customers
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL `+lock, id, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return c, domain.NotFound("customer")
	}
	if err != nil {
		return c, fmt.Errorf("db: get customer: %w", err)
	}
	return c, nil
}

// ListCustomers returns one page of the account's live customers that f
// selects, newest first, and how many there are.
func ListCustomers(ctx context.Context, q sqlx.QueryerContext, accountID string, f store.CustomerFilter) ([]store.Customer, int, error) {
	conds := []string{"account_id = $1", "deleted_at IS NULL"}
	args := []any{accountID}
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, strings.ReplaceAll(cond, "?", "$"+strconv.Itoa(len(args))))
	}
	if f.Status != "" {
		add("status = ?", f.Status)
	}
	if f.Type != "" {
		add("type = ?", f.Type)
	}
	if f.Search != "" {
		// A document searched with its punctuation ("529.982") matches
		// the bare characters stored, hence the second pattern.
		args = append(args, likePattern(f.Search), likePattern(document.Digits(f.Search)))
		n := len(args)
		conds = append(conds, fmt.Sprintf("(name ILIKE $%d OR email ILIKE $%d OR document ILIKE $%d OR document ILIKE $%d)", n-1, n-1, n-1, n))
	}
	return listPage[store.Customer](ctx, q, "customers", customerColumns, "customers", strings.Join(conds, " AND "), args, f.Page, f.PageSize)
}

// likePattern is s as a partial-match ILIKE pattern, its wildcards escaped.
func likePattern(s string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s) + "%"
}

// UpdateCustomer applies p to one of the account's live customers, under
// its row lock; a document another live customer has is a 400.
func UpdateCustomer(ctx context.Context, d *sqlx.DB, accountID, id string, p store.CustomerPatch) (store.Customer, error) {
	var out store.Customer
	err := InTx(ctx, d, func(tx *sqlx.Tx) error {
		c, err := getCustomer(ctx, tx, accountID, id, "FOR UPDATE")
		if err != nil {
			return err
		}
		if c, err = c.Apply(p); err != nil {
			return err
		}
		err = tx.GetContext(ctx, &out, `
			UPDATE customers SET name = $2, email = $3, document = $4, type = $5, status = $6, phone = $7,
				whatsapp = $8, city = $9, state = $10, updated_at = now()
			WHERE id = $1 RETURNING `+customerColumns,
			c.ID, c.Name, c.Email, c.Document, c.Type, c.Status, c.Phone, c.Whatsapp, c.City, c.State)
		if isUniqueViolation(err) {
			return errDocumentTaken
		}
		if err != nil {
			return fmt.Errorf("db: update customer: %w", err)
		}
		return nil
	})
	return out, err
}

// DeleteCustomer deletes one of the account's live customers. The row
// stays (the payments that name it keep their customer) and its document
// is free for a new customer.
func DeleteCustomer(ctx context.Context, q sqlx.ExecerContext, accountID, id string) error {
	res, err := q.ExecContext(ctx, `UPDATE customers SET deleted_at = now(), updated_at = now()
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID)
	if err != nil {
		return fmt.Errorf("db: delete customer: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.NotFound("customer")
	}
	return nil
}

// AddCustomerPayment counts one paid payment of amount for a customer
// (transactions + 1, volume + amount). Call it inside the transaction of
// the payment's paid transition, which runs once per payment: that is
// what makes the count exact (this function is not idempotent by itself).
// A deleted customer still counts its payments.
func AddCustomerPayment(ctx context.Context, q sqlx.ExecerContext, customerID string, amount money.Cents) error {
	if amount < 0 {
		return fmt.Errorf("db: customer payment of %s: negative", amount)
	}
	res, err := q.ExecContext(ctx, `UPDATE customers SET transactions = transactions + 1, volume = volume + $2,
		updated_at = now() WHERE id = $1`, customerID, amount)
	if err != nil {
		return fmt.Errorf("db: add customer payment: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.NotFound("customer")
	}
	return nil
}
