package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
)

// AddBalance moves money from the main account's withdrawable balance to a
// sub-account.
func (s *Subaccounts) AddBalance(ctx context.Context, acct domain.Account, key domain.APIKey, m subaccount.Move) (domain.Transaction, error) {
	return s.move(ctx, acct, key, subaccount.TypeAddBalance, m)
}

// RemoveBalance moves money from a sub-account's spendable balance back to
// the main account.
func (s *Subaccounts) RemoveBalance(ctx context.Context, acct domain.Account, key domain.APIKey, m subaccount.Move) (domain.Transaction, error) {
	return s.move(ctx, acct, key, subaccount.TypeRemoveBalance, m)
}

// Transfer moves money between two sub-accounts of the account.
func (s *Subaccounts) Transfer(ctx context.Context, acct domain.Account, key domain.APIKey, m subaccount.Move) (domain.Transaction, error) {
	return s.move(ctx, acct, key, subaccount.TypeTransfer, m)
}

// move makes one move in one statement that commits on its own
// (db.MoveSubaccount, or with the others of its batch: db.SubaccountGroup):
// an earlier move with the same externalReference answers first (its
// limits were checked then); otherwise the sub-account
// rows are locked in id order (concurrent moves serialise per sub-account
// and cannot deadlock), their status, lock mode and limits are checked
// under those locks, and the record and posting are written (the posting
// locks the ledger rows in id order, as every posting does). The locks are
// held for the statement's execution only: the moves of one sub-account
// follow each other at the database's pace, not at the round trips'.
func (s *Subaccounts) move(ctx context.Context, acct domain.Account, key domain.APIKey, typ string, m subaccount.Move) (domain.Transaction, error) {
	if err := acct.Require(domain.FeatureSubaccounts); err != nil {
		return domain.Transaction{}, err
	}
	same := func(t domain.Transaction) bool { return sameSubMove(typ, m, t) }
	now := s.now()
	stamp := domain.NewTime(now)
	rec := domain.Transaction{ID: domain.NewID(""), AccountID: acct.ID, APIKeyID: &key.ID, Type: typ,
		Status: domain.StatusCompleted, Amount: m.Amount, NetAmount: m.Amount, Description: m.Description,
		ExternalReference: &m.ExternalReference, CompletedAt: &stamp, CreatedAt: stamp}
	var from, to string // ledger accounts
	var ids, fields, out []string
	var ops []subaccount.Op
	switch typ {
	case subaccount.TypeAddBalance:
		ids, fields, ops = []string{m.To}, []string{"id"}, []subaccount.Op{subaccount.OpAddBalance}
		from, to = acct.ID, m.To
		rec.SubaccountID = &m.To
	case subaccount.TypeRemoveBalance:
		ids, fields, ops = []string{m.From}, []string{"id"}, []subaccount.Op{subaccount.OpRemoveBalance}
		from, to = m.From, acct.ID
		rec.SubaccountID = &m.From
	default:
		ids, fields = []string{m.From, m.To}, []string{"fromSubaccountId", "toSubaccountId"}
		ops = []subaccount.Op{subaccount.OpTransferOut, subaccount.OpTransferIn}
		from, to = m.From, m.To
		rec.SubaccountID = &m.From
		rec.Details = domain.SomeJSON(domain.Details{ToSubaccountID: m.To})
	}
	allowed := make([][]string, len(ops))
	for i, op := range ops {
		allowed[i] = subaccount.ModesAllowing(op)
		if op.Out() {
			out = append(out, ids[i])
		}
	}
	move := db.PostedMove{Records: []domain.Transaction{rec}, Posting: activities.SubaccountMovePosting(rec, from, to)}
	res, err := s.moveOne(ctx, db.SubaccountMove{AccountID: acct.ID, Fields: fields, IDs: ids, Out: out,
		Ref: m.ExternalReference, Type: typ, Window: subaccount.WindowAt(now), Allowed: allowed, Amount: m.Amount, Move: move})
	look, refused, outcome := res.Look, res.Refused, res.Outcome
	switch {
	case err != nil:
		return domain.Transaction{}, err
	case look.Earlier != "":
		err = errReplay
	case refused:
		// The database refused under the locks; the rules say why.
		if err := refusal(look, ops, m.Amount); err != nil {
			return domain.Transaction{}, err
		}
		return domain.Transaction{}, fmt.Errorf("sub-account move refused by the database's checks, passed by the rules: %+v", look)
	default:
		err = outcome.Err
	}
	if err != nil {
		// The same reference committed by an earlier or concurrent attempt
		// (found by the reads, or by the unique index): answer that move,
		// or a 400 when it moved another amount or sub-account.
		if errors.Is(err, errReplay) || errors.Is(err, domain.ErrInvalid) {
			if t, found, ferr := earlierMove(ctx, s.DB, acct.ID, "", "", &m.ExternalReference, typ, same); found || ferr != nil {
				return t, ferr
			}
		}
		return domain.Transaction{}, err
	}
	return rec, nil
}

// moveOne writes the move through the group commit when there is one.
func (s *Subaccounts) moveOne(ctx context.Context, m db.SubaccountMove) (db.SubaccountOutcome, error) {
	if s.Moves != nil {
		return s.Moves.Move(ctx, m)
	}
	return db.MoveSubaccount(ctx, s.DB, m)
}

// refusal is why the rules refuse a move of amount over the sub-accounts
// look read under their locks, each with its op: its status and lock mode,
// then, for a debit, its limits (nil: they let it through).
func refusal(look db.MoveLook, ops []subaccount.Op, amount money.Cents) error {
	for i, sa := range look.Subs {
		if err := sa.Permit(ops[i]); err != nil {
			return err
		}
		if ops[i].Out() {
			if err := sa.Limits().Check(amount, look.SpentDay[i], look.SpentMonth[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameSubMove tells whether t, a move of kind typ found by m's
// externalReference, is the move m asks for: same amount and sub-accounts.
func sameSubMove(typ string, m subaccount.Move, t domain.Transaction) bool {
	if t.Amount != m.Amount {
		return false
	}
	switch typ {
	case subaccount.TypeAddBalance:
		return ptrEq(t.SubaccountID, m.To)
	case subaccount.TypeRemoveBalance:
		return ptrEq(t.SubaccountID, m.From)
	}
	return ptrEq(t.SubaccountID, m.From) && t.Details.V.ToSubaccountID == m.To
}

// CheckLimits refuses a debit of amount from sa that would pass one of its
// limits, counting the debits reserved (PENDING, PROCESSING or COMPLETED:
// db.SpentBetween) in the day and month (America/Sao_Paulo) that contain
// now. Call it holding the sub-account's row lock (db.LockSubaccounts), and
// reserve the debit before that lock is released: the lock serialises the
// sub-account's debits, so two concurrent debits cannot both pass a limit
// that only one fits.
func CheckLimits(ctx context.Context, tx *sqlx.Tx, sa subaccount.Subaccount, amount money.Cents, now time.Time) error {
	l := sa.Limits()
	if l.Daily == nil && l.Monthly == nil && l.PerTransaction == nil {
		return nil
	}
	w := subaccount.WindowAt(now)
	day, err := db.SpentBetween(ctx, tx, sa.ID, w.DayStart, w.DayEnd)
	if err != nil {
		return err
	}
	month, err := db.SpentBetween(ctx, tx, sa.ID, w.MonthStart, w.MonthEnd)
	if err != nil {
		return err
	}
	return l.Check(amount, day, month)
}

// pixSubaccount resolves the subaccountId of a PIX request: 403 unless the
// operator enabled sub-accounts with PIX, 404 unless it is the account's.
func pixSubaccount(ctx context.Context, q sqlx.QueryerContext, acct domain.Account, id string) (subaccount.Subaccount, error) {
	if !acct.Features.Enabled(domain.FeatureSubaccountPix) {
		return subaccount.Subaccount{}, domain.Forbidden("subaccountId needs sub-accounts with PIX enabled on the account")
	}
	return db.GetSubaccount(ctx, q, acct.ID, id)
}

// pixOutChecks are a sub-account PIX out's checks, under the sub-account's
// row lock (taken before the ledger locks, as every move does): its status
// and lock mode, and its limits. The caller reserves the PIX out in the same
// transaction, so the lock covers the check and the reserve: the next PIX
// out's check counts this one (scheduled runs go through Transfers.Create
// and take the same path).
func pixOutChecks(ctx context.Context, tx *sqlx.Tx, acct domain.Account, id string, amount money.Cents) error {
	return debitChecks(ctx, tx, acct, id, subaccount.OpPixOut, amount)
}

// debitChecks are the checks of every debit op of amount from sub-account
// id, under its row lock (taken here and held until the caller's
// transaction ends): its status and lock mode, then its limits.
func debitChecks(ctx context.Context, tx *sqlx.Tx, acct domain.Account, id string, op subaccount.Op, amount money.Cents) error {
	subs, err := db.LockSubaccounts(ctx, tx, acct.ID, []string{"subaccountId"}, id)
	if err != nil {
		return err
	}
	if err := subs[0].Permit(op); err != nil {
		return err
	}
	return CheckLimits(ctx, tx, subs[0], amount, time.Now())
}

// refundChecks are the checks of a refund that debits a sub-account: the
// refund of deposit d, debiting amount (the net it kept plus the PIX out
// fee) from d's wallet. A refund is a debit: the sub-account's status and
// lock mode (subaccount.OpRefund) and its limits apply, under its row lock,
// which the refund holds until its reserve commits (lock order: the deposit
// row, then the sub-account row, then the ledger rows). A deposit of the
// main account, or of a sub-account since deleted (it holds nothing; the
// reserve is refused for want of money), has nothing to check here.
func refundChecks(ctx context.Context, tx *sqlx.Tx, acct domain.Account, d domain.Transaction, amount money.Cents) error {
	if d.Wallet() == d.AccountID {
		return nil
	}
	if err := debitChecks(ctx, tx, acct, d.Wallet(), subaccount.OpRefund, amount); !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	return nil
}
