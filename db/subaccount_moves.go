package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
)

// MoveLook is what a sub-account move reads before it writes
// (LookSubaccountMove): an earlier move with its externalReference, or the
// sub-accounts it names, locked, each with what its debits take.
type MoveLook struct {
	// Earlier is the id of the move of the same type and externalReference
	// found (before or after the locks); when set, nothing else is.
	Earlier string
	// Subs are the sub-accounts in the order asked, with the fields the
	// move's rules read (id, status, lock mode, limits).
	Subs []subaccount.Subaccount
	// SpentDay and SpentMonth are, by sub-account, what its reserved
	// debits take in the day and month of the window (db.SpentBetween's
	// sums); zero for a sub-account not debited or without that limit.
	SpentDay, SpentMonth []money.Cents
}

// moveLookRow is one row of subaccount_move_look.
type moveLookRow struct {
	Earlier    *string      `db:"earlier"`
	ID         *string      `db:"id"`
	Status     *string      `db:"status"`
	LockMode   *string      `db:"lock_mode"`
	Daily      *money.Cents `db:"limit_daily"`
	Monthly    *money.Cents `db:"limit_monthly"`
	PerTx      *money.Cents `db:"limit_per_transaction"`
	SpentDay   *money.Cents `db:"spent_day"`
	SpentMonth *money.Cents `db:"spent_month"`
}

// LookSubaccountMove is a sub-account move's reads in one round trip, run
// in the move's transaction tx (subaccount_move_look): an earlier move of
// type typ with externalReference ref answers first; otherwise the
// account's live sub-accounts ids are locked FOR UPDATE in id order, ref
// is looked for again (a concurrent attempt that held the locks has ended)
// and each sub-account is read, with what its reserved debits take in w's
// day and month when it is in out (debited) and has that limit. The locks
// are held until tx ends, so the caller's checks and its write are atomic
// with them. A sub-account missing is a 404 naming its field.
func LookSubaccountMove(ctx context.Context, tx *sqlx.Tx, accountID string, fields, ids, out []string,
	ref, typ string, w subaccount.Window) (MoveLook, error) {
	var rows []moveLookRow
	if err := hotSelect(ctx, tx, &rows, `SELECT * FROM subaccount_move_look($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		accountID, stringArray(ids), stringArray(out), ref, typ, stringArray(SubaccountDebitTypes), stringArray(reservedStatuses),
		w.DayStart, w.DayEnd, w.MonthStart, w.MonthEnd); err != nil {
		return MoveLook{}, fmt.Errorf("db: look sub-account move: %w", err)
	}
	if len(rows) == 1 && rows[0].Earlier != nil {
		return MoveLook{Earlier: *rows[0].Earlier}, nil
	}
	look := MoveLook{Subs: make([]subaccount.Subaccount, len(ids)), SpentDay: make([]money.Cents, len(ids)),
		SpentMonth: make([]money.Cents, len(ids))}
	for i, id := range ids {
		found := false
		for _, r := range rows {
			if r.ID == nil || *r.ID != id {
				continue
			}
			found = true
			look.Subs[i] = subaccount.Subaccount{ID: id, AccountID: accountID, Status: deref(r.Status), LockMode: deref(r.LockMode),
				LimitDaily: r.Daily, LimitMonthly: r.Monthly, LimitPerTransaction: r.PerTx}
			if r.SpentDay != nil {
				look.SpentDay[i] = *r.SpentDay
			}
			if r.SpentMonth != nil {
				look.SpentMonth[i] = *r.SpentMonth
			}
		}
		if !found {
			return MoveLook{}, &domain.Error{Kind: domain.ErrNotFound, Message: fields[i] + ": sub-account not found"}
		}
	}
	return look, nil
}
