package db

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

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

// SubaccountMove is one sub-account move as subaccount_move takes it.
type SubaccountMove struct {
	AccountID string
	// Fields name IDs in a 404 (the request's fields); Out are the IDs the
	// move debits.
	Fields, IDs, Out []string
	// Ref is the move's externalReference, Type its transaction type.
	Ref, Type string
	// Window is the day and month (America/Sao_Paulo) the move's limits
	// count in.
	Window subaccount.Window
	// Allowed holds, by sub-account, the lock modes its op goes through
	// (subaccount.ModesAllowing).
	Allowed [][]string
	Amount  money.Cents
	// Move is the record and posting written when the checks pass.
	Move PostedMove
}

// SubaccountOutcome is what a sub-account move did: what it read, whether
// the checks refused it (nothing written: the caller words the refusal
// with the same rules from Look), and otherwise the move's outcome as
// InsertPosted answers it. Err is a sub-account that is not the account's
// (a 404 naming its field) or an answer that cannot be read.
type SubaccountOutcome struct {
	Look    MoveLook
	Refused bool
	Outcome PostedOutcome
	Err     error
}

// MoveSubaccount is a whole sub-account move in one statement that commits
// on its own (subaccount_move, as a batch of one): subaccount_move_look's
// reads, the move's checks under the sub-accounts' locks, and, when they
// pass, its record and posting, so the locks are held for the statement's
// execution only. SubaccountGroup gathers many.
func MoveSubaccount(ctx context.Context, d *sqlx.DB, m SubaccountMove) (SubaccountOutcome, error) {
	out, err := moveSubaccounts(ctx, d, d, []SubaccountMove{m})
	if err != nil {
		return SubaccountOutcome{}, err
	}
	return out[0], out[0].Err
}

// subMoveMember is one member of subaccount_move_batch.
type subMoveMember struct {
	AccountID string      `json:"account_id"`
	IDs       []string    `json:"ids"`
	Out       []string    `json:"out"`
	Ref       string      `json:"ref"`
	Type      string      `json:"type"`
	Allowed   [][]string  `json:"allowed"`
	Amount    int64       `json:"amount"`
	DayFrom   time.Time   `json:"day_from"`
	DayTo     time.Time   `json:"day_to"`
	MonthFrom time.Time   `json:"month_from"`
	MonthTo   time.Time   `json:"month_to"`
	Member    batchMember `json:"member"`
}

// moveSubaccounts writes moves on q (d, or a lane's connection to it) in
// one statement and one commit, each judged alone in order: a batch no
// rule can refuse through subaccount_move_batch_fast (typed arrays, judged
// whole), any other, or one it hands back having written nothing, through
// subaccount_move_batch. The error returned is the statement's (nothing of
// the batch committed, or, when the connection broke at the commit,
// unknown: each request's retry finds its move by its externalReference).
func moveSubaccounts(ctx context.Context, d *sqlx.DB, q sqlx.QueryerContext, moves []SubaccountMove) ([]SubaccountOutcome, error) {
	for i := range moves {
		if err := moves[i].Move.prepare(); err != nil {
			return nil, err
		}
	}
	if len(moves) > 1 {
		out, err := moveSubaccountsFast(ctx, d, q, moves)
		if !errors.Is(err, errDeclined) {
			return out, err
		}
	}
	members := make([]subMoveMember, len(moves))
	accounts := make([][]string, len(moves))
	for i := range moves {
		m := &moves[i]
		member, accts := *m.Move.jsonb, m.Move.accounts
		debited := m.Out
		if debited == nil {
			debited = []string{} // a JSON array, not null
		}
		members[i] = subMoveMember{AccountID: m.AccountID, IDs: m.IDs, Out: debited, Ref: m.Ref, Type: m.Type, Allowed: m.Allowed,
			Amount: int64(m.Amount), DayFrom: m.Window.DayStart, DayTo: m.Window.DayEnd, MonthFrom: m.Window.MonthStart,
			MonthTo: m.Window.MonthEnd, Member: member}
		accounts[i] = accts
	}
	raw, err := json.Marshal(members)
	if err != nil {
		return nil, fmt.Errorf("db: sub-account moves: %w", err)
	}
	var rows []moveRow // each with its member's index (batchRow.Member)
	if err := hotSelect(ctx, q, &rows, subaccountBatchSQL, string(raw), stringArray(SubaccountDebitTypes),
		stringArray(reservedStatuses), subaccount.StatusDisabled); err != nil {
		return nil, fmt.Errorf("db: sub-account moves: %w", err)
	}
	byMember := make([][]moveRow, len(moves))
	for _, r := range rows {
		if r.Member < 0 || r.Member >= len(moves) {
			return nil, fmt.Errorf("db: sub-account moves: an answer for member %d of %d", r.Member, len(moves))
		}
		byMember[r.Member] = append(byMember[r.Member], r)
	}
	out := make([]SubaccountOutcome, len(moves))
	for i := range moves {
		out[i] = subOutcomeOf(moves[i], accounts[i], byMember[i])
	}
	return out, nil
}

// start makes the group's gatherer and its lanes' connections.
func (g *SubaccountGroup) start() {
	run := g.run
	if run == nil {
		g.conns = newLaneConns(g.DB, cmp.Or(g.Lanes, DefaultLanes))
		run = func(ctx context.Context, moves []SubaccountMove) (out []SubaccountOutcome, err error) {
			err = g.conns.with(ctx, func(c *laneConn) error {
				out, err = moveSubaccounts(ctx, g.DB, c, moves)
				return err
			})
			return out, err
		}
	}
	g.g = &gatherer[SubaccountMove, SubaccountOutcome]{maxBatch: g.MaxBatch, lanes: g.Lanes, sent: g.Sent, run: run,
		queued: g.queued, failed: func(err error) SubaccountOutcome { return SubaccountOutcome{Err: err} }}
}

// subaccountBatchSQL calls subaccount_move_batch.
const subaccountBatchSQL = `SELECT * FROM subaccount_move_batch($1, $2, $3, $4)`

// subOutcomeOf reads one member's rows: the earlier move, or the
// sub-accounts it read and its outcome row (ID nil).
func subOutcomeOf(m SubaccountMove, accounts []string, rows []moveRow) SubaccountOutcome {
	looks := make([]moveLookRow, 0, len(rows))
	var last *moveRow
	for i := range rows {
		if rows[i].ID == nil && rows[i].Earlier == nil {
			last = &rows[i]
			continue
		}
		looks = append(looks, rows[i].moveLookRow)
	}
	look, lookErr := lookOf(looks, m.AccountID, m.Fields, m.IDs)
	if look.Earlier != "" {
		return SubaccountOutcome{Look: look}
	}
	if last == nil || last.Refused == nil {
		return SubaccountOutcome{Look: look, Err: fmt.Errorf("db: sub-account move: no outcome among %d rows", len(rows))}
	}
	if *last.Refused {
		return SubaccountOutcome{Look: look, Refused: true, Err: lookErr}
	}
	return SubaccountOutcome{Look: look, Outcome: outcomeOf(m.Move, accounts, last.batchRow)}
}

// SubaccountGroup gathers the sub-account moves that requests of one
// process make at the same time into one statement and one commit
// (subaccount_move_batch_fast, or subaccount_move_batch: moveSubaccounts),
// each still judged alone: the sub-accounts' locks, which serialise every
// move of a sub-account, are taken once per batch instead of once per
// move. Like GroupCommit, it adds no wait.
type SubaccountGroup struct {
	DB *sqlx.DB
	// MaxBatch bounds a batch (DefaultMaxBatch when 0).
	MaxBatch int
	// Lanes is how many batches may be in flight at once (DefaultLanes
	// when 0).
	Lanes int
	// Sent, when set, learns each batch's size and how long it took.
	Sent func(size int, took time.Duration)

	run    func(context.Context, []SubaccountMove) ([]SubaccountOutcome, error)
	queued func()
	// conns are the lane's own connection (lane_conn.go).
	conns *laneConns
	once  sync.Once
	g     *gatherer[SubaccountMove, SubaccountOutcome]
}

// Warm opens the lane's connection and has PostgreSQL compile the batch
// function on it with an empty batch, which writes nothing (see
// laneConns.warm): for a process's start, before its first move.
func (g *SubaccountGroup) Warm(ctx context.Context) error {
	g.once.Do(g.start)
	return g.conns.warm(ctx, func(c *laneConn) error {
		var fast []fastRow
		if err := hotSelect(ctx, c, &fast, subFastSQL, emptySubFastArgs()...); err != nil {
			return fmt.Errorf("db: warm the sub-account group: %w", err)
		}
		var rows []moveRow
		if err := hotSelect(ctx, c, &rows, subaccountBatchSQL, "[]", stringArray(SubaccountDebitTypes),
			stringArray(reservedStatuses), subaccount.StatusDisabled); err != nil {
			return fmt.Errorf("db: warm the sub-account group: %w", err)
		}
		return nil
	})
}

// Move is MoveSubaccount through the group: the same reads, checks, writes
// and answer, committed with the other moves of its batch.
func (g *SubaccountGroup) Move(ctx context.Context, m SubaccountMove) (SubaccountOutcome, error) {
	g.once.Do(g.start)
	if err := m.Move.prepare(); err != nil {
		return SubaccountOutcome{}, err // this move only: the batch never sees it
	}
	out, err := g.g.do(ctx, m)
	if err != nil {
		return SubaccountOutcome{}, err
	}
	return out, out.Err
}
