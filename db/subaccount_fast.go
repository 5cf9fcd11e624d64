package db

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain/subaccount"
)

// moveSubaccountsFast sends moves through subaccount_move_batch_fast on q
// (d or a lane's connection to it): the batch judged whole under the
// sub-accounts' locks, then written as ledger_post_batch_fast writes
// one. errDeclined when a move may not take that path, or when the
// function found that a member could be refused, was sent before or
// repeats a reference: it wrote nothing, and subaccount_move_batch
// answers each member alone.
func moveSubaccountsFast(ctx context.Context, d *sqlx.DB, q sqlx.QueryerContext, moves []SubaccountMove) ([]SubaccountOutcome, error) {
	posted := make([]PostedMove, len(moves))
	for i := range moves {
		posted[i] = moves[i].Move // prepared by moveSubaccounts
	}
	args, ok := fastArgs(posted)
	if !ok {
		return nil, errDeclined
	}
	lead, ok := subFastArgs(moves)
	if !ok {
		return nil, errDeclined
	}
	res, err := postFastWith(ctx, d, q, posted, subFastSQL, append(lead, args...))
	if err != nil {
		return nil, err
	}
	out := make([]SubaccountOutcome, len(moves))
	for i, r := range res {
		out[i] = SubaccountOutcome{Outcome: r}
	}
	return out, nil
}

// subFastArgs is subaccount_move_batch_fast's 13 leading arguments for
// moves: by member, its account, amount and window; by sub-account a member
// names, whether the member debits it and the lock modes its op goes
// through. False when a move names a sub-account without its modes.
func subFastArgs(moves []SubaccountMove) ([]any, bool) {
	var (
		account, sID, sAllowed             []string
		amount                             []int64
		dayFrom, dayTo, monthFrom, monthTo []time.Time
		sMember                            []int32
		sOut                               []bool
	)
	for i := range moves {
		m := &moves[i]
		if len(m.Allowed) != len(m.IDs) {
			return nil, false
		}
		account, amount = append(account, m.AccountID), append(amount, int64(m.Amount))
		w := m.Window
		dayFrom, dayTo = append(dayFrom, w.DayStart), append(dayTo, w.DayEnd)
		monthFrom, monthTo = append(monthFrom, w.MonthStart), append(monthTo, w.MonthEnd)
		for k, id := range m.IDs {
			sMember, sID = append(sMember, int32(i+1)), append(sID, id)
			sOut, sAllowed = append(sOut, slices.Contains(m.Out, id)), append(sAllowed, strings.Join(m.Allowed[k], ","))
		}
	}
	return []any{
		pq.Array(account), pq.Array(amount), pq.Array(dayFrom), pq.Array(dayTo), pq.Array(monthFrom), pq.Array(monthTo),
		pq.Array(sMember), pq.Array(sID), pq.Array(sOut), pq.Array(sAllowed),
		stringArray(SubaccountDebitTypes), stringArray(reservedStatuses), subaccount.StatusDisabled,
	}, true
}

// emptySubFastArgs is subFastArgs and fastArgs for a batch of no move,
// with which subaccount_move_batch_fast writes and answers nothing.
func emptySubFastArgs() []any {
	lead, _ := subFastArgs(nil)
	return append(lead, emptyFastArgs()...)
}

// subFastSQL calls subaccount_move_batch_fast with its 50 arguments.
const subFastSQL = `SELECT * FROM subaccount_move_batch_fast($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
	$14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36,
	$37, $38, $39, $40, $41, $42, $43, $44, $45, $46, $47, $48, $49, $50)`
