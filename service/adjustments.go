package service

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Adjust books an operator's ADJUSTMENT: available and withdrawable at once.
// idemKey (optional) makes a repeated request post once; a negative amount
// larger than the balance is refused with nothing posted.
func Adjust(ctx context.Context, d *sqlx.DB, accountID string, amount money.Cents, description, idemKey string) (domain.Transaction, error) {
	if idemKey == "" {
		idemKey = domain.NewID("")
	}
	t := domain.Transaction{
		ID: domain.DerivedID("", activities.AdjustmentKey(accountID, idemKey)), AccountID: accountID, Type: domain.TypeAdjustment,
		Status: domain.StatusCompleted, Amount: amount, NetAmount: amount, Description: description,
		CompletedAt: domain.TimePtr(time.Now()), CreatedAt: domain.NewTime(time.Now()),
	}
	err := db.InTx(ctx, d, func(tx *sqlx.Tx) error {
		posted, err := db.Post(ctx, tx, activities.AdjustmentPosting(t, idemKey))
		if err != nil || !posted {
			return err
		}
		_, err = db.InsertTransaction(ctx, tx, t)
		return err
	})
	if err != nil {
		return t, err
	}
	return db.GetTransaction(ctx, d, accountID, t.ID, domain.TypeAdjustment)
}
