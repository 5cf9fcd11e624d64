package activities

import (
	"context"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
)

// The postings of money leaving an account. Each key is derived from the
// resource and the step, so that whichever of the API or a retried activity
// writes it, it is written once.

// reservePosting moves debit from available to pending of the record's
// wallet (the account, or its sub-account) when a PIX out is requested.
func reservePosting(key string, t domain.Transaction, kind string, debit money.Cents) db.Posting {
	return db.Posting{Key: key, AccountID: t.AccountID, TransactionID: t.ID, Kind: kind, Description: "reserve",
		Entries: []db.Entry{
			{Account: domain.AvailableLedger(t.Wallet()), Amount: -debit},
			{Account: domain.PendingLedger(t.Wallet()), Amount: debit},
		}}
}

// releasePosting returns a reserve to available, exactly, when the
// operation fails.
func releasePosting(key string, t domain.Transaction, kind string, debit money.Cents) db.Posting {
	return db.Posting{Key: key, AccountID: t.AccountID, TransactionID: t.ID, Kind: kind, Description: "reserve returned",
		Entries: []db.Entry{
			{Account: domain.PendingLedger(t.Wallet()), Amount: -debit},
			{Account: domain.AvailableLedger(t.Wallet()), Amount: debit},
		}}
}

// refundPosting reserves (sign −1) or returns (sign +1) a refund's debit:
// the merchant's kept net and the PIX out fee, and the split partner's
// share. The parts that repay the deposit's own money carry the deposit's
// lock date, so they consume (or restore) exactly the locked money the
// deposit added: a refund within 24 h neither frees nor freezes other money.
func refundPosting(key string, d domain.Transaction, sign money.Cents) db.Posting {
	r := d.Details.V.Refund
	var lock *time.Time
	if d.CompletedAt != nil {
		t := d.CompletedAt.Add(domain.ReceivedLock)
		lock = &t
	}
	desc := "refund reserve"
	if sign > 0 {
		desc = "refund reserve returned"
	}
	entries := []db.Entry{
		{Account: domain.AvailableLedger(d.Wallet()), Amount: sign * r.DepositNet, LockedUntil: lock},
		{Account: domain.AvailableLedger(d.Wallet()), Amount: sign * r.TransferFee},
		{Account: domain.PendingLedger(d.Wallet()), Amount: -sign * r.DebitNet},
	}
	if r.SplitAmount > 0 { // the partner's split, locked like the merchant's share
		entries = append(entries,
			db.Entry{Account: domain.AvailableLedger(r.SplitAccountID), Amount: sign * r.SplitAmount, LockedUntil: lock},
			db.Entry{Account: domain.PendingLedger(r.SplitAccountID), Amount: -sign * r.SplitAmount})
	}
	return db.Posting{Key: key, AccountID: d.AccountID, TransactionID: r.StatementID, Kind: domain.TypeRefund, Description: desc, Entries: entries}
}

// PIX automatic.

// pixAutomaticPosting credits a paid PIX automatic instruction like a PIX
// received: gross from PIX clearing, the fee to revenue, the net to the
// merchant locked until unlock.
func pixAutomaticPosting(t domain.Transaction, e2e string, unlock time.Time) db.Posting {
	return db.Posting{Key: "pix-automatic:" + t.ID + ":settle", AccountID: t.AccountID, TransactionID: t.ID, Kind: domain.TypePixAutomatic,
		Description: "PIX automatic received " + e2e, Entries: []db.Entry{
			{Account: domain.LedgerPixClearing, Amount: -t.Amount},
			{Account: domain.AvailableLedger(t.AccountID), Amount: t.NetAmount, LockedUntil: &unlock},
			{Account: domain.LedgerFees, Amount: t.FeeAmount},
		}}
}

// Billings (docs/ledger.md "Billings").

// billingPaidPosting books a paid boleto or card billing: the gross from
// billing clearing, the method's fee and the notification fee to revenue,
// the net to the merchant locked until the credit date.
func billingPaidPosting(b billing.Billing, lineID string, creditAt time.Time) db.Posting {
	return db.Posting{Key: "billing:" + b.ID + ":paid", AccountID: b.AccountID, TransactionID: lineID, Kind: billing.TypeBilling,
		Description: "billing " + b.Method + " paid", Entries: []db.Entry{
			{Account: billing.LedgerBillingClearing, Amount: -b.Amount},
			{Account: domain.AvailableLedger(b.AccountID), Amount: b.NetAmount, LockedUntil: &creditAt},
			{Account: domain.LedgerFees, Amount: b.FeesTotal()},
		}}
}

// billingNotificationPosting charges a paid PIX billing's notification fee
// (its charge booked the PIX fee), tagged with the charge's lock date so
// that it consumes the locked money the charge added.
func billingNotificationPosting(b billing.Billing, chargeID string, lock time.Time) db.Posting {
	return db.Posting{Key: "billing:" + b.ID + ":notification", AccountID: b.AccountID, TransactionID: chargeID, Kind: domain.TypePixIn,
		Description: "billing notification fee", Entries: []db.Entry{
			{Account: domain.AvailableLedger(b.AccountID), Amount: -b.NotificationFee, LockedUntil: &lock},
			{Account: domain.LedgerFees, Amount: b.NotificationFee},
		}}
}

// billingRefundPosting returns amount to the payer through the method's
// clearing: the merchant gives back its share and the platform its fees in
// proportion (domain.Billing.RefundSplit). The merchant's part carries the
// billing's credit date, so refunding money still locked consumes exactly
// that locked money.
func billingRefundPosting(b billing.Billing, refundID, lineID string, amount, merchant, fees money.Cents, creditAt time.Time) db.Posting {
	return db.Posting{Key: "billing:" + b.ID + ":refund:" + refundID, AccountID: b.AccountID, TransactionID: lineID,
		Kind: billing.TypeBillingRefund, Description: "billing refund", Entries: []db.Entry{
			{Account: domain.AvailableLedger(b.AccountID), Amount: -merchant, LockedUntil: &creditAt},
			{Account: domain.LedgerFees, Amount: -fees},
			{Account: b.BillingClearing(), Amount: amount},
		}}
}

// billingRefundReturnPosting is the compensation of a refund the processor
// refused: the exact reverse of its billingRefundPosting (the same parts,
// the merchant's with the same lock date), under a key of its own.
func billingRefundReturnPosting(b billing.Billing, refundID, lineID string, amount, merchant, fees money.Cents, creditAt time.Time) db.Posting {
	return db.Posting{Key: "billing:" + b.ID + ":refund:" + refundID + ":failed", AccountID: b.AccountID, TransactionID: lineID,
		Kind: billing.TypeBillingRefund, Description: "billing refund refused: returned", Entries: []db.Entry{
			{Account: b.BillingClearing(), Amount: -amount},
			{Account: domain.LedgerFees, Amount: fees},
			{Account: domain.AvailableLedger(b.AccountID), Amount: merchant, LockedUntil: &creditAt},
		}}
}

// Credit bureau.

// bureauFeePosting debits a credit bureau fee (a dunning's or a report's)
// from the account's withdrawable money to the platform's fee revenue;
// bureauFeeReturnPosting gives a denied dunning's fee back.
func bureauFeePosting(key, accountID, resourceID string, fee money.Cents) db.Posting {
	return db.Posting{Key: key, AccountID: accountID, TransactionID: resourceID, Kind: BureauFeeKind, Description: "credit bureau fee",
		Entries: []db.Entry{
			{Account: domain.AvailableLedger(accountID), Amount: -fee},
			{Account: domain.LedgerFees, Amount: fee},
		},
		Withdraw: &db.Withdrawal{AccountID: accountID, Amount: fee}}
}

func bureauFeeReturnPosting(key, accountID, resourceID string, fee money.Cents) db.Posting {
	return db.Posting{Key: key, AccountID: accountID, TransactionID: resourceID, Kind: BureauFeeKind, Description: "credit bureau fee returned",
		Entries: []db.Entry{
			{Account: domain.LedgerFees, Amount: -fee},
			{Account: domain.AvailableLedger(accountID), Amount: fee},
		}}
}

// insertWithdrawal writes a debit record paid from withdrawable money (a
// recharge, a crypto withdrawal) and reserves its amount under key: a
// record already there is a retry and posts nothing.
func insertWithdrawal(ctx context.Context, tx *sqlx.Tx, t domain.Transaction, key string) error {
	inserted, err := db.InsertTransaction(ctx, tx, t)
	if err != nil || !inserted {
		return err
	}
	p := reservePosting(key, t, t.Type, t.Amount)
	p.Withdraw = &db.Withdrawal{AccountID: t.Wallet(), Amount: t.Amount}
	_, err = db.Post(ctx, tx, p)
	return err
}

// ensureWithdrawal is a withdrawal workflow's guard: it writes the record
// with insert if the create's transaction did not (histories from before
// creates committed first), and short of money stores it FAILED with
// nothing debited. It returns the stored status.
func (b *Base) ensureWithdrawal(ctx context.Context, t domain.Transaction, insert func(context.Context, *sqlx.Tx, domain.Transaction) error) (string, error) {
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
