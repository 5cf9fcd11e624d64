package service

import (
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// The postings of money leaving an account. Each has a key derived from the
// resource and the step, so that whichever of the API or a retried activity
// writes it, it is written once.

// reservePosting moves debit from available to pending when a PIX out or a
// refund is requested.
func reservePosting(key, accountID, txID, kind string, debit money.Cents) db.Posting {
	return db.Posting{Key: key, AccountID: accountID, TransactionID: txID, Kind: kind, Description: "reserve",
		Entries: []db.Entry{
			{Account: domain.AvailableLedger(accountID), Amount: -debit},
			{Account: domain.PendingLedger(accountID), Amount: debit},
		}}
}

// releasePosting returns a reserve to available, exactly, when the
// operation fails.
func releasePosting(key, accountID, txID, kind string, debit money.Cents) db.Posting {
	return db.Posting{Key: key, AccountID: accountID, TransactionID: txID, Kind: kind, Description: "reserve returned",
		Entries: []db.Entry{
			{Account: domain.PendingLedger(accountID), Amount: -debit},
			{Account: domain.AvailableLedger(accountID), Amount: debit},
		}}
}

// NonZero drops zero entries (a zero fee, say): the ledger refuses them.
func NonZero(entries ...db.Entry) []db.Entry {
	out := make([]db.Entry, 0, len(entries))
	for _, e := range entries {
		if e.Amount != 0 {
			out = append(out, e)
		}
	}
	return out
}
