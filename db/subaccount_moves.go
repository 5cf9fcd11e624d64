package db

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
)

// MoveLook is what a sub-account move reads before it writes
// (subaccount_move_look, inside MoveSubaccount): an earlier move with its externalReference, or the
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

// lookOf reads subaccount_move_look's rows: the earlier move, or each
// sub-account asked for in order (a missing one is a 404 naming field).
func lookOf(rows []moveLookRow, accountID string, fields, ids []string) (MoveLook, error) {
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

// moveRow is one row of subaccount_move: a look's row, or (ID nil) the
// outcome row.
type moveRow struct {
	moveLookRow
	Refused *bool `db:"refused"`
	batchRow
}

// MoveSubaccount is a whole sub-account move in one statement that commits
// on its own (subaccount_move): subaccount_move_look's reads, the move's
// checks under the sub-accounts' locks (allowed holds, by sub-account, the
// lock modes its op goes through: subaccount.ModesAllowing), and, when they
// pass, move's record and posting, so the locks are held for the
// statement's execution only. It returns what it read, whether the checks
// refused the move (nothing written: the caller words the refusal with the
// same rules from look), and otherwise the move's outcome as InsertPosted
// answers it.
func MoveSubaccount(ctx context.Context, d *sqlx.DB, accountID string, fields, ids, out []string, ref, typ string,
	w subaccount.Window, allowed [][]string, amount money.Cents, move PostedMove) (look MoveLook, refused bool, outcome PostedOutcome, err error) {
	member, accounts, err := memberOf(&move)
	if err != nil {
		return look, false, outcome, err
	}
	rawMember, err := json.Marshal(member)
	if err != nil {
		return look, false, outcome, fmt.Errorf("db: sub-account move: %w", err)
	}
	rawAllowed, err := json.Marshal(allowed)
	if err != nil {
		return look, false, outcome, fmt.Errorf("db: sub-account move: %w", err)
	}
	var rows []moveRow
	if err := hotSelect(ctx, d, &rows, `SELECT * FROM subaccount_move($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
		accountID, stringArray(ids), stringArray(out), ref, typ, stringArray(SubaccountDebitTypes), stringArray(reservedStatuses),
		w.DayStart, w.DayEnd, w.MonthStart, w.MonthEnd, string(rawAllowed), subaccount.StatusDisabled, int64(amount),
		string(rawMember)); err != nil {
		return look, false, outcome, fmt.Errorf("db: sub-account move: %w", err)
	}
	looks := make([]moveLookRow, 0, len(rows))
	var last *moveRow
	for i := range rows {
		if rows[i].ID == nil && rows[i].Earlier == nil {
			last = &rows[i]
			continue
		}
		looks = append(looks, rows[i].moveLookRow)
	}
	look, lookErr := lookOf(looks, accountID, fields, ids)
	if look.Earlier != "" {
		return look, false, outcome, nil
	}
	if last == nil || last.Refused == nil {
		return look, false, outcome, fmt.Errorf("db: sub-account move: no outcome among %d rows", len(rows))
	}
	if *last.Refused {
		return look, true, outcome, lookErr
	}
	return look, false, outcomeOf(move, accounts, last.batchRow), nil
}
