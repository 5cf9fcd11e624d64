package service

import (
	"context"
	"slices"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

// Balance is the holder's sub-account balance, as GET
// /v1/subaccount/balance answers it.
func (s *Portal) Balance(ctx context.Context, h PortalHolder) (subaccount.Balance, error) {
	return db.SubaccountBalance(ctx, s.DB, h.Subaccount.ID)
}

// Statement is one page of the sub-account's records that f selects,
// newest first (a transfer between sub-accounts is in both).
func (s *Portal) Statement(ctx context.Context, h PortalHolder, f ListFilter) ([]domain.Transaction, int, error) {
	f.SubaccountID = h.Subaccount.ID
	return db.ListTransactions(ctx, s.DB, h.Account.ID, f)
}

// Record is one of the sub-account's records (of types, or of any type
// when none is named); another sub-account's, or the main account's own,
// is not found.
func (s *Portal) Record(ctx context.Context, h PortalHolder, id string, types ...string) (domain.Transaction, error) {
	t, err := db.AccountTransaction(ctx, s.DB, h.Account.ID, id)
	if err != nil {
		return t, err
	}
	if !ofSubaccount(t, h.Subaccount.ID) || (len(types) > 0 && !slices.Contains(types, t.Type)) {
		return domain.Transaction{}, domain.NotFound("record")
	}
	return t, nil
}

func ofSubaccount(t domain.Transaction, id string) bool {
	return (t.SubaccountID != nil && *t.SubaccountID == id) || (t.Details.Valid && t.Details.V.ToSubaccountID == id)
}

// CreateCharge makes a PIX charge into the holder's sub-account: an
// ordinary charge with its subaccountId and no API key (so every one of
// the account's endpoints and WebSocket connections hears of it).
func (s *Portal) CreateCharge(ctx context.Context, h PortalHolder, in domain.NewCharge) (CreatedCharge, error) {
	in.SubaccountID = h.Subaccount.ID
	return s.Charges.Create(ctx, h.Account, domain.APIKey{}, in)
}
