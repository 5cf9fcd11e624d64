package activities

import (
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
)

// Every ledger posting is built here, one constructor per posting shape,
// named for the product and the step whose money it moves
// (<product><Step>Posting). A constructor derives the posting's key from
// the resource and the step (<product>:<id>:<step>), so that whichever of
// the API or a retried activity writes it, db.Post writes it once; and it
// names every leg. Steps and use cases call these and build no db.Posting
// of their own. docs/ledger.md ("Postings") has one row per shape; the
// table test (postings_test.go) pins each constructor's key and legs, as
// keys already posted must never change.

// Withdrawals: money leaving an account (a PIX out, a recharge, a crypto
// withdrawal) is reserved from available to pending, then leaves or
// returns.

// reservePosting moves debit from available to pending of the record's
// wallet (the account, or its sub-account) when a PIX out is requested.
func reservePosting(key string, t domain.Transaction, kind string, debit money.Cents) db.Posting {
	return db.Posting{Key: key, AccountID: t.AccountID, TransactionID: t.ID, Kind: kind, Description: "reserve",
		Entries: []db.Entry{
			{Account: domain.AvailableLedger(t.Wallet()), Amount: -debit},
			{Account: domain.PendingLedger(t.Wallet()), Amount: debit},
		}}
}

// withdrawalReservePosting is reservePosting paid from withdrawable money
// only (db.Posting.Withdraw: the ledger refuses more under its locks).
func withdrawalReservePosting(key string, t domain.Transaction, kind string, debit money.Cents) db.Posting {
	p := reservePosting(key, t, kind, debit)
	p.Withdraw = &db.Withdrawal{AccountID: t.Wallet(), Amount: debit}
	return p
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

// PIX out.

// transferReservePosting reserves a PIX out's debit (amount, plus the fee
// when the sender covers it) from withdrawable money.
func transferReservePosting(t domain.Transaction) db.Posting {
	return withdrawalReservePosting("transfer:"+t.ID+":reserve", t, domain.TypePixOut, t.Details.V.Debit)
}

// transferSettlePosting books a settled PIX out: the reserve leaves, what
// the recipient gets through PIX clearing, the fee to revenue.
func transferSettlePosting(t domain.Transaction, e2e string) db.Posting {
	debit := t.Details.V.Debit
	return db.Posting{Key: "transfer:" + t.ID + ":settle", AccountID: t.AccountID, TransactionID: t.ID,
		Kind: domain.TypePixOut, Description: "PIX sent " + e2e,
		Entries: []db.Entry{
			{Account: domain.PendingLedger(t.Wallet()), Amount: -debit},
			{Account: domain.LedgerPixClearing, Amount: t.NetAmount},
			{Account: domain.LedgerFees, Amount: debit - t.NetAmount},
		}}
}

// transferReleasePosting returns a failed or rejected PIX out's reserve.
func transferReleasePosting(t domain.Transaction) db.Posting {
	return releasePosting("transfer:"+t.ID+":release", t, domain.TypePixOut, t.Details.V.Debit)
}

// PIX charges.

// chargeSettlePosting books a paid charge (desc says so): the gross from
// PIX clearing, the split to the partner and the rest of the net to the
// charge's wallet, both locked until unlock, the fee to revenue.
func chargeSettlePosting(t domain.Transaction, desc string, unlock time.Time) db.Posting {
	merchantNet := t.NetAmount
	entries := []db.Entry{{Account: domain.LedgerPixClearing, Amount: -t.Amount}}
	if split := t.Details.V.Split; split != nil && split.Amount > 0 {
		merchantNet -= split.Amount
		entries = append(entries, db.Entry{Account: domain.AvailableLedger(split.AccountID), Amount: split.Amount, LockedUntil: &unlock})
	}
	entries = append(entries,
		// The net goes to the charge's sub-account when it has one.
		db.Entry{Account: domain.AvailableLedger(t.Wallet()), Amount: merchantNet, LockedUntil: &unlock},
		db.Entry{Account: domain.LedgerFees, Amount: t.FeeAmount})
	return db.Posting{Key: "charge:" + t.ID + ":settle", AccountID: t.AccountID, TransactionID: t.ID,
		Kind: domain.TypePixIn, Description: desc, Entries: entries}
}

// PIX refunds of a deposit d (its refund block).

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

// refundReservePosting reserves a requested refund's debit (refundPosting).
func refundReservePosting(d domain.Transaction) db.Posting {
	return refundPosting("refund:"+d.ID+":reserve", d, -1)
}

// refundReleasePosting returns a failed refund's reserve exactly.
func refundReleasePosting(d domain.Transaction) db.Posting {
	return refundPosting("refund:"+d.ID+":release", d, +1)
}

// refundSettlePosting books a concluded refund: the reserves leave, the
// payer gets the gross back through PIX clearing, the PIX out fee to
// revenue, and the platform absorbs the original fee.
func refundSettlePosting(d domain.Transaction) db.Posting {
	r := d.Details.V.Refund
	return db.Posting{Key: "refund:" + d.ID + ":settle", AccountID: d.AccountID, TransactionID: r.StatementID,
		Kind: domain.TypeRefund, Description: "PIX refund of " + *d.EndToEndID,
		Entries: []db.Entry{
			{Account: domain.PendingLedger(d.Wallet()), Amount: -r.DebitNet},
			{Account: domain.PendingLedger(r.SplitAccountID), Amount: -r.SplitAmount}, // zero without a split
			{Account: domain.LedgerFees, Amount: r.TransferFee},
			{Account: domain.LedgerPixClearing, Amount: d.Amount},
			{Account: domain.LedgerRefundCosts, Amount: -(d.Amount - r.DepositNet - r.SplitAmount)},
		}}
}

// Mobile recharges.

// rechargeKey is the posting key of a recharge's step: reserve, complete,
// or release (a cancellation and a failure share it: only one of them can
// happen, and the reserve returns once).
func rechargeKey(id, step string) string { return "recharge:" + id + ":" + step }

// rechargeReservePosting reserves a recharge's amount from withdrawable
// money.
func rechargeReservePosting(t domain.Transaction) db.Posting {
	return withdrawalReservePosting(rechargeKey(t.ID, "reserve"), t, t.Type, t.Amount)
}

// rechargeCompletePosting pays a delivered recharge's reserve to the
// operator through the recharge clearing account.
func rechargeCompletePosting(t domain.Transaction) db.Posting {
	r := t.Details.V.Recharge
	return db.Posting{Key: rechargeKey(t.ID, "complete"), AccountID: t.AccountID, TransactionID: t.ID,
		Kind: domain.TypeMobileRecharge, Description: "mobile recharge " + r.Operator + " " + r.Phone,
		Entries: []db.Entry{
			{Account: domain.PendingLedger(t.Wallet()), Amount: -t.Amount},
			{Account: domain.LedgerRechargeClearing, Amount: t.Amount},
		}}
}

// rechargeReleasePosting returns a cancelled or failed recharge's reserve.
func rechargeReleasePosting(t domain.Transaction) db.Posting {
	return releasePosting(rechargeKey(t.ID, "release"), t, domain.TypeMobileRecharge, t.Amount)
}

// Crypto deposits and withdrawals.

func cryptoKey(id, step string) string { return "crypto:" + id + ":" + step }

// cryptoCreditPosting credits a confirmed deposit's BRL net from the
// crypto clearing account to the wallet's available money (not locked: it
// is not PIX).
func cryptoCreditPosting(t domain.Transaction) db.Posting {
	c := t.Details.V.Crypto
	return db.Posting{Key: cryptoKey(t.ID, "credit"), AccountID: t.AccountID, TransactionID: t.ID,
		Kind: domain.TypeCryptoIn, Description: "crypto deposit " + crypto.PayAmount(*c).String() + " " + c.PayCurrency,
		Entries: []db.Entry{
			{Account: crypto.LedgerCryptoClearing, Amount: -t.NetAmount},
			{Account: domain.AvailableLedger(t.Wallet()), Amount: t.NetAmount},
		}}
}

// cryptoReservePosting reserves a withdrawal's amount from withdrawable
// money.
func cryptoReservePosting(t domain.Transaction) db.Posting {
	return withdrawalReservePosting(cryptoKey(t.ID, "reserve"), t, t.Type, t.Amount)
}

// cryptoSettlePosting books a confirmed withdrawal: the reserve leaves
// through the crypto clearing account.
func cryptoSettlePosting(t domain.Transaction) db.Posting {
	c := t.Details.V.Crypto
	return db.Posting{Key: cryptoKey(t.ID, "settle"), AccountID: t.AccountID, TransactionID: t.ID,
		Kind: domain.TypeCryptoOut, Description: "crypto sent " + crypto.PayAmount(*c).String() + " " + c.PayCurrency,
		Entries: []db.Entry{
			{Account: domain.PendingLedger(t.Wallet()), Amount: -t.Amount},
			{Account: crypto.LedgerCryptoClearing, Amount: t.Amount},
		}}
}

// cryptoReleasePosting returns a failed withdrawal's reserve.
func cryptoReleasePosting(t domain.Transaction) db.Posting {
	return releasePosting(cryptoKey(t.ID, "release"), t, domain.TypeCryptoOut, t.Amount)
}

// PIX automatic.

// pixAutomaticSettlePosting credits a paid PIX automatic instruction like a
// PIX received: gross from PIX clearing, the fee to revenue, the net to the
// merchant locked until unlock.
func pixAutomaticSettlePosting(t domain.Transaction, e2e string, unlock time.Time) db.Posting {
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

// dunningFeePosting debits a dunning's fee when it is made.
func dunningFeePosting(d bureau.Dunning) db.Posting {
	return bureauFeePosting("dunning:"+d.ID+":fee", d.AccountID, d.ID, d.Fee)
}

// dunningFeeReturnPosting gives a denied dunning's fee back.
func dunningFeeReturnPosting(d bureau.Dunning) db.Posting {
	return bureauFeeReturnPosting("dunning:"+d.ID+":fee-returned", d.AccountID, d.ID, d.Fee)
}

// reportFeePosting debits a credit report's fee.
func reportFeePosting(r bureau.Report) db.Posting {
	return bureauFeePosting("report:"+r.ID+":fee", r.AccountID, r.ID, r.Fee)
}

// MED disputes (docs/ledger.md "MED disputes").

// medHoldKey is the key of a MED block's posting: the release reads what
// it took under it (db.LockedPosted).
func medHoldKey(key string) string { return "med-hold:" + key }

// medHoldPosting blocks moved of h's wallet's available money in its
// locked account; the part of it that is the deposit's own locked money
// (h.Own) carries the deposit's lock date.
func medHoldPosting(h DisputeHold, moved money.Cents) db.Posting {
	own := min(h.Own, moved)
	return db.Posting{Key: medHoldKey(h.Key), AccountID: h.AccountID, TransactionID: h.TransactionID,
		Kind: "MED_HOLD", Description: "MED: disputed value blocked", Entries: []db.Entry{
			{Account: domain.AvailableLedger(h.Wallet), Amount: -own, LockedUntil: h.LockedUntil},
			{Account: domain.AvailableLedger(h.Wallet), Amount: -(moved - own)},
			{Account: subaccount.LockedLedger(h.Wallet), Amount: moved},
		}}
}

// medReleasePosting moves a hold back from locked to available, the
// deposit's own part with its lock date again.
func medReleasePosting(h DisputeHold) db.Posting {
	own := min(h.Own, h.Amount)
	return db.Posting{Key: "med-release:" + h.Key, AccountID: h.AccountID, TransactionID: h.TransactionID,
		Kind: "MED_RELEASE", Description: "MED: blocked value released", Entries: []db.Entry{
			{Account: subaccount.LockedLedger(h.Wallet), Amount: -h.Amount},
			{Account: domain.AvailableLedger(h.Wallet), Amount: own, LockedUntil: h.LockedUntil},
			{Account: domain.AvailableLedger(h.Wallet), Amount: h.Amount - own},
		}}
}

// medReturnPosting returns an accepted dispute's block to the payer
// through PIX clearing, topped up with topUp of the wallet's available
// money.
func medReturnPosting(m domain.Transaction, topUp money.Cents) db.Posting {
	w, blocked := m.Wallet(), m.Details.V.Med.Blocked
	return db.Posting{Key: "med-return:" + m.ID, AccountID: m.AccountID, TransactionID: m.ID,
		Kind: "MED_RETURN", Description: "MED: disputed value returned to the payer", Entries: []db.Entry{
			{Account: subaccount.LockedLedger(w), Amount: -blocked},
			{Account: domain.AvailableLedger(w), Amount: -topUp},
			{Account: domain.LedgerPixClearing, Amount: blocked + topUp},
		}}
}

// The synchronous products' postings, for their use cases (package
// service): no activity posts them, but their shapes live with the others.

// InternalTransferPosting moves an internal transfer's amount from the
// sender's withdrawable money to the receiver's available money (not
// locked: it is not PIX), under the pair's key. out is the sender's OUT
// record, which names the pair and the receiver.
func InternalTransferPosting(out domain.Transaction) db.Posting {
	d := out.Details.V
	return db.Posting{Key: "internal:" + d.PairID, AccountID: out.AccountID, TransactionID: out.ID,
		Kind: domain.TypeInternalOut, Description: "internal transfer to " + d.RecipientEmail,
		Entries: []db.Entry{
			{Account: domain.AvailableLedger(out.AccountID), Amount: -out.Amount},
			{Account: domain.AvailableLedger(d.CounterpartyID), Amount: out.Amount},
		},
		Withdraw: &db.Withdrawal{AccountID: out.AccountID, Amount: out.Amount},
	}
}

// SubaccountMovePosting moves a sub-account move's amount (rec, its
// record: add-balance, remove-balance or transfer) from the available
// money of wallet from to wallet to, only if from may spend it.
func SubaccountMovePosting(rec domain.Transaction, from, to string) db.Posting {
	return db.Posting{Key: "subaccount:" + rec.ID, AccountID: rec.AccountID, TransactionID: rec.ID,
		Kind: rec.Type, Description: rec.Description, Entries: []db.Entry{
			{Account: domain.AvailableLedger(from), Amount: -rec.Amount},
			{Account: domain.AvailableLedger(to), Amount: rec.Amount},
		}, Withdraw: &db.Withdrawal{AccountID: from, Amount: rec.Amount}}
}

// AdjustmentKey is the key of an operator's adjustment of the account
// under idemKey; the adjustment's record id is derived from it.
func AdjustmentKey(accountID, idemKey string) string {
	return "adjustment:" + accountID + ":" + idemKey
}

// AdjustmentPosting books an operator's ADJUSTMENT t (under idemKey):
// available and withdrawable at once, against the platform's adjustments.
func AdjustmentPosting(t domain.Transaction, idemKey string) db.Posting {
	return db.Posting{Key: AdjustmentKey(t.AccountID, idemKey), AccountID: t.AccountID, TransactionID: t.ID,
		Kind: domain.TypeAdjustment, Description: t.Description,
		Entries: []db.Entry{
			{Account: domain.AvailableLedger(t.AccountID), Amount: t.Amount},
			{Account: domain.LedgerAdjustments, Amount: -t.Amount},
		},
	}
}
