package service

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/money"
)

// HoldDisputed is the MED hook: it moves up to amount from the sub-account's
// available balance to its locked balance (lockedPadrao), once per key
// (the dispute), and returns what it moved (what is left of the disputed
// money when less than amount remains). The MED product blocks through the
// same activities.HoldDisputed inside its dispute's own transaction (record,
// posting and event commit together); this is its one-transaction form.
func (s *Subaccounts) HoldDisputed(ctx context.Context, accountID, subID, key string, amount money.Cents) (money.Cents, error) {
	var moved money.Cents
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		var err error
		moved, err = activities.HoldDisputed(ctx, tx, activities.DisputeHold{AccountID: accountID, Wallet: subID, Key: key, Amount: amount})
		return err
	})
	return moved, err
}

// ReleaseDisputed moves amount back from locked to available (a MED decided
// in the receiver's favour), once per key.
func (s *Subaccounts) ReleaseDisputed(ctx context.Context, accountID, subID, key string, amount money.Cents) error {
	return db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		return activities.ReleaseDisputed(ctx, tx, activities.DisputeHold{AccountID: accountID, Wallet: subID, Key: key, Amount: amount})
	})
}
