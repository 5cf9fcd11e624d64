package activities

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// insertWithdrawal writes a debit record paid from withdrawable money (a
// recharge, a crypto withdrawal) and posts reserve, its product's reserve
// of its amount (withdrawalReservePosting): a record already there is a
// retry and posts nothing.
func insertWithdrawal(ctx context.Context, tx *sqlx.Tx, t domain.Transaction, reserve db.Posting) error {
	inserted, err := db.InsertTransaction(ctx, tx, t)
	if err != nil || !inserted {
		return err
	}
	_, err = db.Post(ctx, tx, reserve)
	return err
}

// ensureWithdrawal is a withdrawal workflow's guard: it writes the record
// with insert if the create's transaction did not (histories from before
// creates committed first), and short of money stores it FAILED with
// nothing debited. It returns the stored status.
func (b *Base) ensureWithdrawal(ctx context.Context, t domain.Transaction, insert func(context.Context, *sqlx.Tx, domain.Transaction) error) (string, error) {
	if status, found, err := b.storedStatus(ctx, t); found || err != nil {
		return status, err
	}
	err := db.InTx(ctx, b.DB, func(tx *sqlx.Tx) error { return insert(ctx, tx, t) })
	if errors.Is(err, domain.ErrInsufficientBalance) {
		t.Status = domain.StatusFailed
		err = db.InTx(ctx, b.DB, func(tx *sqlx.Tx) error { _, err := db.InsertTransaction(ctx, tx, t); return err })
	}
	if err != nil {
		return "", err
	}
	stored, err := db.TransactionByID(ctx, b.DB, t.ID, t.Type)
	return stored.Status, err
}

// storedStatus is the status of t's stored record, if it is stored: a
// guard answers with it first, since a workflow's input is the record's
// references only (domain.Transaction.Referenced) and only an older
// history's input, which carries the whole record, may write one.
func (b *Base) storedStatus(ctx context.Context, t domain.Transaction) (string, bool, error) {
	stored, err := db.TransactionByID(ctx, b.DB, t.ID, t.Type)
	if errors.Is(err, domain.ErrNotFound) {
		return "", false, nil
	}
	return stored.Status, err == nil, err
}
