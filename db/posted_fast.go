package db

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

// fastMember is a move as ledger_post_batch_fast reads it, made with its
// jsonb member by prepare, on the request's goroutine.
type fastMember struct {
	// ok tells whether the fast path may take the move: no entry locked,
	// one amount per account, and its guard, if any, one of its accounts.
	ok   bool
	recs []recordRow
	// payer, recipient and details are each record's jsonb columns,
	// encoded (nil is null).
	payer, recipient, details []*string
	events                    []batchEvent
	// data is each event's data, encoded (the same bytes its member holds).
	data []string
	post batchPosting
	// rows is how many distinct balance rows the posting names.
	rows int
}

// fastMemberOf makes m's fast member from its jsonb member b, whose
// events' data and records' jsonb columns it encodes once for both.
func fastMemberOf(b *batchMember) (*fastMember, error) {
	f := &fastMember{recs: b.Records, events: b.Events, post: b.Post}
	for i := range b.Events {
		raw, err := json.Marshal(b.Events[i].Data)
		if err != nil {
			return nil, fmt.Errorf("db: post batch: event data: %w", err)
		}
		b.Events[i].Data = json.RawMessage(raw)
		f.data = append(f.data, string(raw))
	}
	for i := range b.Records {
		r := &b.Records[i]
		for _, c := range []struct {
			v   *any
			out *[]*string
		}{{&r.Payer, &f.payer}, {&r.Recipient, &f.recipient}, {&r.Details, &f.details}} {
			s, err := jsonbText(*c.v)
			if err != nil {
				return nil, err
			}
			*c.out = append(*c.out, s)
			if s != nil {
				*c.v = json.RawMessage(*s) // the jsonb member holds the same bytes, encoded once
			}
		}
	}
	p := b.Post
	seen := map[string]bool{}
	guarded := p.Guard == ""
	for _, a := range p.Accounts {
		seen[a] = true
		guarded = guarded || a == p.Guard
	}
	f.rows = len(seen)
	f.ok = len(p.Accounts) > 0 && len(p.Accounts) == len(p.Amounts) && guarded && len(b.Records) > 0
	for _, l := range p.Locks {
		f.ok = f.ok && l == nil
	}
	return f, nil
}

// jsonbText is a jsonb column's value as text, or nil for null.
func jsonbText(v any) (*string, error) {
	if v == nil {
		return nil, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("db: post batch: record: %w", err)
	}
	s := string(raw)
	return &s, nil
}

// fastRow is ledger_post_batch_fast's answer for one member.
type fastRow struct {
	Member    int           `db:"o_member"`
	Available *int64        `db:"o_guard_available"`
	Locked    *int64        `db:"o_guard_locked"`
	Seqs      pq.Int64Array `db:"o_seqs"`
	Created   time.Time     `db:"o_created"`
}

// errDeclined is the fast path handing a batch back: nothing of it was
// written, and ledger_post_batch answers each member alone.
var errDeclined = errors.New("db: post batch: declined by the fast path")

// postFast sends moves through ledger_post_batch_fast on q (d or a
// connection to it) when every one of them may take it: errDeclined when
// one may not, or when the function found that a member could be refused,
// was sent before (a record, an event or a posting key stored) or names an
// externalReference taken.
func postFast(ctx context.Context, d *sqlx.DB, q sqlx.QueryerContext, moves []PostedMove) ([]PostedOutcome, error) {
	args, ok := fastArgs(moves)
	if !ok {
		return nil, errDeclined
	}
	return postFastWith(ctx, d, q, moves, fastSQL, args)
}

// postFastWith sends moves, each able to take the fast path, through query
// with args on q: ledger_post_batch_fast, or a function that judges more
// before it calls it (subaccount_move_batch_fast). errDeclined when the
// function handed the batch back, having written nothing.
func postFastWith(ctx context.Context, d *sqlx.DB, q sqlx.QueryerContext, moves []PostedMove, query string, args []any) ([]PostedOutcome, error) {
	var rows []fastRow
	err := hotSelect(ctx, q, &rows, query, args...)
	if handedBack(err) {
		return nil, errDeclined // the statement wrote nothing
	}
	if err != nil {
		return nil, fmt.Errorf("db: post batch: %w", err)
	}
	if len(rows) != len(moves) {
		return nil, fmt.Errorf("db: post batch: %d answers for %d moves", len(rows), len(moves))
	}
	out := make([]PostedOutcome, len(moves))
	var committed []domain.Event
	for _, r := range rows {
		i := r.Member
		m, f := moves[i], moves[i].fast
		out[i] = outcomeOf(m, m.accounts, batchRow{Member: i, New: len(f.recs), Posted: true,
			LockedRows: f.rows, Updated: f.rows, Available: r.Available, Locked: r.Locked})
		if out[i].Err != nil {
			continue
		}
		if len(r.Seqs) != len(f.events) {
			// Committed all the same: the tails' poll finds the events.
			slog.Warn("post batch: committed events not read", "member", i)
			continue
		}
		for k, e := range f.events {
			committed = append(committed, domain.Event{ID: e.ID, Seq: r.Seqs[k], AccountID: e.AccountID, APIKeyID: e.APIKeyID,
				Type: e.Type, ResourceID: e.ResourceID, Data: json.RawMessage(f.data[k]), CreatedAt: domain.NewTime(r.Created)})
		}
	}
	eventsCommitted(d, committed)
	return out, nil
}

// handedBack tells whether ledger_post_batch_fast refused a batch whole:
// one it cannot judge whole or that names an unknown account (JLB02), a
// retry or a reference taken (a unique violation), a balance CHECK.
// Its statement then wrote nothing.
func handedBack(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && (pqErr.Code == "JLB02" || pqErr.Code == "23505" || pqErr.Code == "23514")
}

// fastArgs is ledger_post_batch_fast's 37 arrays for moves, or false when
// one of them may not take the fast path (or was never prepared).
func fastArgs(moves []PostedMove) ([]any, bool) {
	var (
		recID, recAccount, recType, recStatus, recDescription                   []string
		recAPIKey, recExtRef, recReference, recE2E, recCopyPaste, recSubaccount []*string
		recPayer, recRecipient, recDetails                                      []*string
		recAmount, recFee, recNet                                               []int64
		recExpires, recCompleted, recCreated                                    []*time.Time
		evMember                                                                []int32
		evID, evAccount, evType, evResource, evData                             []string
		evAPIKey                                                                []*string
		key, postAccount, postTransaction, kind, postDescription, guard         []string
		withdraw                                                                []int64
		eMember                                                                 []int32
		eAccount                                                                []string
		eAmount                                                                 []int64
	)
	for i := range moves {
		f := moves[i].fast
		if f == nil || !f.ok {
			return nil, false
		}
		n := int32(i + 1)
		for _, r := range f.recs {
			recID, recAccount, recType, recStatus = append(recID, r.ID), append(recAccount, r.AccountID), append(recType, r.Type), append(recStatus, r.Status)
			recDescription, recAPIKey, recExtRef = append(recDescription, r.Description), append(recAPIKey, r.APIKeyID), append(recExtRef, r.ExternalReference)
			recReference, recE2E, recCopyPaste = append(recReference, r.ReferenceID), append(recE2E, r.EndToEndID), append(recCopyPaste, r.CopyPaste)
			recSubaccount, recAmount, recFee, recNet = append(recSubaccount, r.SubaccountID), append(recAmount, r.Amount), append(recFee, r.FeeAmount), append(recNet, r.NetAmount)
			recExpires, recCompleted, recCreated = append(recExpires, r.ExpiresAt), append(recCompleted, r.CompletedAt), append(recCreated, r.CreatedAt)
		}
		recPayer, recRecipient, recDetails = append(recPayer, f.payer...), append(recRecipient, f.recipient...), append(recDetails, f.details...)
		for k, e := range f.events {
			evMember, evID, evAccount, evAPIKey = append(evMember, n), append(evID, e.ID), append(evAccount, e.AccountID), append(evAPIKey, e.APIKeyID)
			evType, evResource, evData = append(evType, e.Type), append(evResource, e.ResourceID), append(evData, f.data[k])
		}
		p := f.post
		key, postAccount, postTransaction, kind = append(key, p.Key), append(postAccount, p.AccountID), append(postTransaction, p.TransactionID), append(kind, p.Kind)
		postDescription, guard, withdraw = append(postDescription, p.Description), append(guard, p.Guard), append(withdraw, p.Withdraw)
		for j, a := range p.Accounts {
			eMember, eAccount, eAmount = append(eMember, n), append(eAccount, a), append(eAmount, p.Amounts[j])
		}
	}
	return []any{
		pq.Array(recID), pq.Array(recAccount), pq.Array(recAPIKey), pq.Array(recType), pq.Array(recStatus),
		pq.Array(recAmount), pq.Array(recFee), pq.Array(recNet), pq.Array(recDescription), pq.Array(recExtRef),
		pq.Array(recReference), pq.Array(recE2E), pq.Array(recCopyPaste), pq.Array(recSubaccount),
		pq.Array(recPayer), pq.Array(recRecipient), pq.Array(recDetails),
		pq.Array(recExpires), pq.Array(recCompleted), pq.Array(recCreated),
		pq.Array(evMember), pq.Array(evID), pq.Array(evAccount), pq.Array(evAPIKey), pq.Array(evType),
		pq.Array(evResource), pq.Array(evData),
		pq.Array(key), pq.Array(postAccount), pq.Array(postTransaction), pq.Array(kind), pq.Array(postDescription),
		pq.Array(guard), pq.Array(withdraw),
		pq.Array(eMember), pq.Array(eAccount), pq.Array(eAmount),
	}, true
}

// emptyFastArgs is fastArgs for a batch of no move: 37 empty arrays, with
// which ledger_post_batch_fast writes and answers nothing.
func emptyFastArgs() []any {
	args := make([]any, 37)
	for i := range args {
		args[i] = "{}"
	}
	return args
}

// fastSQL calls ledger_post_batch_fast with its 37 arrays.
const fastSQL = `SELECT * FROM ledger_post_batch_fast($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
	$15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37)`
