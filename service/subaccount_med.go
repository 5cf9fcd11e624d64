package service

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/subaccount"
)

// HoldDisputed is the MED hook: it moves up to amount from the sub-account's
// available balance to its locked balance (lockedPadrao), once per key
// (the dispute), and returns what it moved (what is left of the disputed
// money when less than amount remains). The MED issue calls it.
func (s *Subaccounts) HoldDisputed(ctx context.Context, accountID, subID, key string, amount money.Cents) (money.Cents, error) {
	var moved money.Cents
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if _, err := db.LockSubaccounts(ctx, tx, accountID, []string{"subaccountId"}, subID); err != nil {
			return err
		}
		if err := db.LockLedgerAccounts(ctx, tx, domain.AvailableLedger(subID), subaccount.LockedLedger(subID)); err != nil {
			return err
		}
		b, err := db.SubaccountBalance(ctx, tx, subID)
		if err != nil {
			return err
		}
		moved = min(amount, b.AvailablePadrao)
		if moved <= 0 {
			moved = 0
			return nil
		}
		posted, err := db.Post(ctx, tx, db.Posting{Key: "med-hold:" + key, AccountID: accountID, Kind: "MED_HOLD",
			Description: "MED: disputed value blocked", Entries: []db.Entry{
				{Account: domain.AvailableLedger(subID), Amount: -moved},
				{Account: subaccount.LockedLedger(subID), Amount: moved},
			}})
		if !posted {
			moved = 0
		}
		return err
	})
	return moved, err
}

// ReleaseDisputed moves amount back from locked to available (a MED decided
// in the receiver's favour), once per key.
func (s *Subaccounts) ReleaseDisputed(ctx context.Context, accountID, subID, key string, amount money.Cents) error {
	return db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		_, err := db.Post(ctx, tx, db.Posting{Key: "med-release:" + key, AccountID: accountID, Kind: "MED_RELEASE",
			Description: "MED: blocked value released", Entries: []db.Entry{
				{Account: subaccount.LockedLedger(subID), Amount: -amount},
				{Account: domain.AvailableLedger(subID), Amount: amount},
			}})
		return err
	})
}
