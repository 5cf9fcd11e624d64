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
	// The stored record answers first: only an older history's input, which
	// carries the whole record, can still have one to write.
	stored, err := db.TransactionByID(ctx, b.DB, t.ID, t.Type)
	if err == nil {
		return stored.Status, nil
	}
	if !errors.Is(err, domain.ErrNotFound) {
		return "", err
	}
	err = db.InTx(ctx, b.DB, func(tx *sqlx.Tx) error { return insert(ctx, tx, t) })
	if errors.Is(err, domain.ErrInsufficientBalance) {
		t.Status = domain.StatusFailed
		err = db.InTx(ctx, b.DB, func(tx *sqlx.Tx) error { _, err := db.InsertTransaction(ctx, tx, t); return err })
	}
	if err != nil {
		return "", err
	}
	stored, err = db.TransactionByID(ctx, b.DB, t.ID, t.Type)
	return stored.Status, err
}
