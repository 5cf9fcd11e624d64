package service

import (
	"context"
	"crypto/sha256"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

// Subaccounts manages sub-accounts and moves money between them and the
// main account. Moves are synchronous: one database transaction each, with
// no outside party and nothing to wait for, so no workflow
// (docs/architecture.md).
type Subaccounts struct {
	DB *sqlx.DB
	// Now is the clock of the moves' records and of the limit periods; nil
	// is time.Now. Tests replace it to cross a day in America/Sao_Paulo.
	Now func() time.Time
	// Moves, when set, commits a move with the others this process makes
	// at the same time (group commit); db.MoveSubaccount alone otherwise.
	Moves *db.SubaccountGroup
}

func (s *Subaccounts) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Create registers a sub-account, opens its ledger accounts and, when both
// portalEmail and portalPassword are given, its portal.
func (s *Subaccounts) Create(ctx context.Context, acct domain.Account, in subaccount.NewSubaccount) (subaccount.View, error) {
	if err := acct.Require(domain.FeatureSubaccounts); err != nil {
		return subaccount.View{}, err
	}
	id := newID("sub_", acct.ID, "subaccount", in.IdempotencyKey)
	// A retry answers with the sub-account its first attempt made, before
	// the checks a new one needs (its externalReference is taken now).
	if in.IdempotencyKey != "" {
		if sa, b, err := s.Get(ctx, acct, id); !errors.Is(err, domain.ErrNotFound) {
			if err == nil {
				err = ownsKey(ctx, sa.CreatedAt.Time)
			}
			return sa.View(b), err
		}
	}
	now := domain.NewTime(s.now())
	sa := subaccount.Subaccount{ID: id, AccountID: acct.ID, Name: in.Name,
		ExternalReference: in.ExternalReference, PersonType: in.PersonType, CPF: in.CPF, BirthDate: in.BirthDate,
		PostalCode: in.PostalCode, CNPJ: in.CNPJ, CompanyName: in.CompanyName, Site: in.Site,
		Status: subaccount.StatusActive, LockMode: subaccount.LockNone, Pricing: domain.SomeJSON(domain.Fees{}),
		PortalState: subaccount.PortalNone, CreatedAt: now, UpdatedAt: now}
	var file []byte
	if in.Document != nil {
		info := in.Document.Info
		sum := sha256.Sum256(in.Document.Bytes)
		info.SHA256 = hexOf(sum[:])
		sa.Document, file = domain.SomeJSON(info), in.Document.Bytes
	}
	if in.PortalEmail != nil {
		hash, err := subaccount.HashPassword(*in.PortalPassword)
		if err != nil {
			return subaccount.View{}, err
		}
		sa.PortalState, sa.PortalEmail, sa.PortalPasswordHash = subaccount.PortalActive, in.PortalEmail, &hash
	}
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error { return db.InsertSubaccount(ctx, tx, sa, file) })
	if err != nil {
		return subaccount.View{}, err
	}
	return sa.View(subaccount.Balance{}), nil
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}

// Get loads a sub-account by id or externalReference with its balance.
func (s *Subaccounts) Get(ctx context.Context, acct domain.Account, idOrRef string) (subaccount.Subaccount, subaccount.Balance, error) {
	if err := acct.Require(domain.FeatureSubaccounts); err != nil {
		return subaccount.Subaccount{}, subaccount.Balance{}, err
	}
	sa, err := db.GetSubaccount(ctx, s.DB, acct.ID, idOrRef)
	if err != nil {
		return sa, subaccount.Balance{}, err
	}
	b, err := db.SubaccountBalance(ctx, s.DB, sa.ID)
	return sa, b, err
}

// Pricing previews what PIX on the sub-account costs.
func (s *Subaccounts) Pricing(ctx context.Context, acct domain.Account, idOrRef string) (subaccount.Preview, error) {
	sa, _, err := s.Get(ctx, acct, idOrRef)
	if err != nil {
		return subaccount.Preview{}, err
	}
	return subaccount.PreviewOf(sa.ID, acct.Fees, sa.Pricing.V), nil
}

// List returns a page of the account's sub-accounts with their balances.
func (s *Subaccounts) List(ctx context.Context, acct domain.Account, status string, page, pageSize int) ([]subaccount.View, int, error) {
	if err := acct.Require(domain.FeatureSubaccounts); err != nil {
		return nil, 0, err
	}
	rows, total, err := db.ListSubaccounts(ctx, s.DB, acct.ID, status, page, pageSize)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	bs, err := db.SubaccountBalances(ctx, s.DB, ids...)
	if err != nil {
		return nil, 0, err
	}
	views := make([]subaccount.View, len(rows))
	for i, r := range rows {
		views[i] = r.View(bs[r.ID])
	}
	return views, total, nil
}

// change applies f to the sub-account under its row lock and saves it.
func (s *Subaccounts) change(ctx context.Context, acct domain.Account, id string, f func(*subaccount.Subaccount) error) (subaccount.View, error) {
	if err := acct.Require(domain.FeatureSubaccounts); err != nil {
		return subaccount.View{}, err
	}
	var sa subaccount.Subaccount
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		got, err := db.LockSubaccounts(ctx, tx, acct.ID, []string{"id"}, id)
		if err != nil {
			return err
		}
		sa = got[0]
		if err := f(&sa); err != nil {
			return err
		}
		return db.SaveSubaccount(ctx, tx, sa)
	})
	if err != nil {
		return subaccount.View{}, err
	}
	b, err := db.SubaccountBalance(ctx, s.DB, sa.ID)
	return sa.View(b), err
}

// resolve turns an id-or-reference into the sub-account's id.
func (s *Subaccounts) resolve(ctx context.Context, acct domain.Account, idOrRef string) (string, error) {
	if err := acct.Require(domain.FeatureSubaccounts); err != nil {
		return "", err
	}
	sa, err := db.GetSubaccount(ctx, s.DB, acct.ID, idOrRef)
	return sa.ID, err
}

// Update renames the sub-account and/or sets its status.
func (s *Subaccounts) Update(ctx context.Context, acct domain.Account, u subaccount.Update) (subaccount.View, error) {
	return s.change(ctx, acct, u.ID, func(sa *subaccount.Subaccount) error {
		if u.Name != nil {
			sa.Name = *u.Name
		}
		if u.Status != nil && *u.Status != sa.Status {
			// A disabled sub-account's portal sessions end, and stay
			// ended when it is enabled again.
			sa.Status = *u.Status
			sa.EndPortalSessions()
		}
		return nil
	})
}

// Lock sets the lock mode (docs/ledger.md has the table of what each blocks).
func (s *Subaccounts) Lock(ctx context.Context, acct domain.Account, l subaccount.Lock) (subaccount.View, error) {
	return s.change(ctx, acct, l.ID, func(sa *subaccount.Subaccount) error { sa.LockMode = l.Mode; return nil })
}

// Unlock sets the lock mode back to NONE.
func (s *Subaccounts) Unlock(ctx context.Context, acct domain.Account, id string) (subaccount.View, error) {
	return s.change(ctx, acct, id, func(sa *subaccount.Subaccount) error { sa.LockMode = subaccount.LockNone; return nil })
}

// SetLimits replaces the three debit limits (nil removes one).
func (s *Subaccounts) SetLimits(ctx context.Context, acct domain.Account, l subaccount.SetLimits) (subaccount.View, error) {
	return s.change(ctx, acct, l.ID, func(sa *subaccount.Subaccount) error {
		sa.LimitDaily, sa.LimitMonthly, sa.LimitPerTransaction = l.Daily, l.Monthly, l.PerTransaction
		return nil
	})
}

// SetPricing replaces the PIX surcharges added to the main account's fee.
func (s *Subaccounts) SetPricing(ctx context.Context, acct domain.Account, p subaccount.SetPricing) (subaccount.View, error) {
	return s.change(ctx, acct, p.ID, func(sa *subaccount.Subaccount) error {
		sa.Pricing = domain.SomeJSON(p.Surcharge)
		return nil
	})
}

// Delete removes a sub-account that holds nothing (available, pending and
// locked all zero); otherwise a 400.
func (s *Subaccounts) Delete(ctx context.Context, acct domain.Account, id string) error {
	if err := acct.Require(domain.FeatureSubaccounts); err != nil {
		return err
	}
	return db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		got, err := db.LockSubaccounts(ctx, tx, acct.ID, []string{"id"}, id)
		if err != nil {
			return err
		}
		// The ledger rows are locked too, so no credit lands between the check and the delete.
		if err := db.LockLedgerAccounts(ctx, tx, domain.AvailableLedger(id), domain.PendingLedger(id), subaccount.LockedLedger(id)); err != nil {
			return err
		}
		b, err := db.SubaccountBalance(ctx, tx, got[0].ID)
		if err != nil {
			return err
		}
		if !b.Zero() {
			return domain.Invalid("id", "names a sub-account that still holds money (available %s, pending %s, locked %s): empty it first",
				b.AvailablePadrao, b.PendingPadrao, b.LockedPadrao)
		}
		// A charge still payable would credit a deleted sub-account. The
		// row lock taken above makes this count complete: a charge insert
		// reads the row FOR SHARE (db.FirstRecords), so one that got it
		// first has committed and is counted, and one that waits for this
		// transaction will find the sub-account deleted and write nothing.
		if n, err := db.OpenCharges(ctx, tx, id); err != nil || n > 0 {
			if err != nil {
				return err
			}
			return domain.Invalid("id", "names a sub-account with %d charge(s) still payable: wait for them to be paid or expire", n)
		}
		return db.DeleteSubaccount(ctx, tx, id)
	})
}

// errReplay is how a move learns, inside its transaction, that the same
// externalReference committed first.
var errReplay = errors.New("move already made")
