package db

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// PostedMove is what InsertPosted writes for one request: records made
// together (the two sides of an internal transfer), their posting and
// their events.
type PostedMove struct {
	Records []domain.Transaction
	Posting Posting
	Events  []NewEvent
	// jsonb is the move as ledger_post_batch reads it, and accounts the
	// ones its posting names: made once by prepare, on the request's own
	// goroutine under a group commit. member is jsonb encoded, made only
	// for a batch that takes the jsonb path (a batch of one, or one the fast
	// path hands back): encoding it for every move was half of what a
	// request did to its move, for batches that, under load, never read it.
	jsonb    *batchMember
	member   json.RawMessage
	accounts []string
	// fast is the move as ledger_post_batch_fast reads it.
	fast *fastMember
}

// prepare makes m's members, once.
func (m *PostedMove) prepare() error {
	if m.jsonb != nil {
		return nil
	}
	b, accounts, err := memberOf(m)
	if err != nil {
		return err
	}
	fast, err := fastMemberOf(&b)
	if err != nil {
		return err
	}
	m.jsonb, m.accounts, m.fast = &b, accounts, fast
	return nil
}

// encoded is m's jsonb member encoded, once (m is prepared).
func (m *PostedMove) encoded() (json.RawMessage, error) {
	if m.member == nil {
		raw, err := json.Marshal(m.jsonb)
		if err != nil {
			return nil, fmt.Errorf("db: post batch: %w", err)
		}
		m.member = raw
	}
	return m.member, nil
}

// InsertPosted stores records made together, their events and their posting
// in one statement that commits on its own: one round trip, and the balance
// locks are held by PostgreSQL alone, never across a round trip to this
// process. It reports how many records were new; when none is (an attempt of
// the same move stored them), no event is written and nothing is posted. The
// posting follows Post's rules; a refused debit is
// domain.ErrInsufficientBalance and an externalReference already used a 400
// naming it. It is a batch of one (GroupCommit gathers many).
func InsertPosted(ctx context.Context, d *sqlx.DB, ts []domain.Transaction, p Posting, evs ...NewEvent) (int, error) {
	out, err := postBatch(ctx, d, []PostedMove{{Records: ts, Posting: p, Events: evs}})
	if err != nil {
		return 0, err
	}
	return out[0].New, out[0].Err
}

// PostedOutcome is one member's answer: how many of its records were new,
// or why it was refused.
type PostedOutcome struct {
	New int
	Err error
}

// batchMember is one move as ledger_post_batch reads it.
type batchMember struct {
	Records []recordRow  `json:"records"`
	Events  []batchEvent `json:"events"`
	Post    batchPosting `json:"post"`
}

type batchEvent struct {
	ID         string  `json:"id"`
	AccountID  string  `json:"account_id"`
	APIKeyID   *string `json:"api_key_id"`
	Type       string  `json:"type"`
	ResourceID string  `json:"resource_id"`
	// Data is the event's record, encoded with the member.
	Data any `json:"data"`
}

type batchPosting struct {
	Key           string       `json:"key"`
	AccountID     string       `json:"account_id"`
	TransactionID string       `json:"transaction_id"`
	Kind          string       `json:"kind"`
	Description   string       `json:"description"`
	Accounts      []string     `json:"accounts"`
	Amounts       []int64      `json:"amounts"`
	Locks         []*time.Time `json:"locks"`
	Guard         string       `json:"guard"`
	Withdraw      int64        `json:"withdraw"`
}

// batchRow is ledger_post_batch's answer for one member.
type batchRow struct {
	Member     int     `db:"o_member"`
	New        int     `db:"o_new"`
	SQLState   *string `db:"o_sqlstate"`
	Constraint *string `db:"o_constraint"`
	Detail     *string `db:"o_detail"`
	Message    *string `db:"o_message"`
	Posted     bool    `db:"o_posted"`
	LockedRows int     `db:"o_locked_rows"`
	Updated    int     `db:"o_updated"`
	Available  *int64  `db:"o_guard_available"`
	Locked     *int64  `db:"o_guard_locked"`
	Events     []byte  `db:"o_events"`
}

// storedEvent is an event row as to_jsonb writes it.
type storedEvent struct {
	ID         string          `json:"id"`
	Seq        int64           `json:"seq"`
	AccountID  string          `json:"account_id"`
	APIKeyID   *string         `json:"api_key_id"`
	Type       string          `json:"type"`
	ResourceID string          `json:"resource_id"`
	Data       json.RawMessage `json:"data"`
	CreatedAt  time.Time       `json:"created_at"`
}

// postBatch writes moves in one statement and one commit, each judged
// alone: a batch no rule can refuse through ledger_post_batch_fast (typed
// arrays, judged whole), any other, or one it hands back having written
// nothing, through ledger_post_batch. A member's refusal is its outcome's Err, and
// the error returned is the statement's (nothing of the batch committed, or,
// when the connection broke at the commit, unknown: each request's retry
// finds its move by its ids).
func postBatch(ctx context.Context, d *sqlx.DB, moves []PostedMove) ([]PostedOutcome, error) {
	return postBatchOn(ctx, d, d, moves)
}

// postBatchOn is postBatch with its statements sent on q: d itself, or a
// group commit lane's connection to it.
func postBatchOn(ctx context.Context, d *sqlx.DB, q sqlx.QueryerContext, moves []PostedMove) ([]PostedOutcome, error) {
	for i := range moves {
		if err := moves[i].prepare(); err != nil {
			return nil, err
		}
	}
	if len(moves) > 1 {
		out, err := postFast(ctx, d, q, moves)
		if !errors.Is(err, errDeclined) {
			return out, err
		}
	}
	// Joined only for the jsonb path: a batch the fast path takes never
	// needs it.
	raw, accounts, err := batchOf(moves)
	if err != nil {
		return nil, err
	}
	return postJSON(ctx, d, q, moves, raw, accounts)
}

// postJSON writes moves through ledger_post_batch on q, raw and accounts
// being batchOf's: the set path, or member by member when it declines. d
// is q's pool, whose readers learn of the committed events.
func postJSON(ctx context.Context, d *sqlx.DB, q sqlx.QueryerContext, moves []PostedMove, raw string, accounts [][]string) ([]PostedOutcome, error) {
	var rows []batchRow
	if err := hotSelect(ctx, q, &rows, postJSONSQL, raw); err != nil {
		return nil, fmt.Errorf("db: post batch: %w", err)
	}
	if len(rows) != len(moves) {
		return nil, fmt.Errorf("db: post batch: %d answers for %d moves", len(rows), len(moves))
	}
	out := make([]PostedOutcome, len(moves))
	var committed []domain.Event
	for _, r := range rows {
		i := r.Member
		out[i] = outcomeOf(moves[i], accounts[i], r)
		if out[i].Err == nil && out[i].New > 0 {
			// The batch has committed: an answer it cannot read wakes no
			// tail (their poll finds the events) but never turns a move
			// that went ahead into a failure.
			evs, err := decodeEvents(r.Events)
			if err != nil {
				slog.Warn("post batch: committed events not read", "error", err)
			}
			committed = append(committed, evs...)
		}
	}
	eventsCommitted(d, committed)
	return out, nil
}

// postJSONSQL calls ledger_post_batch with a batch's jsonb.
const postJSONSQL = `SELECT * FROM ledger_post_batch($1)`

// batchOf is moves as ledger_post_batch reads them, with the accounts each
// one's posting names.
func batchOf(moves []PostedMove) (string, [][]string, error) {
	var sb strings.Builder
	accounts := make([][]string, len(moves))
	size := 2
	members := make([]json.RawMessage, len(moves))
	for i := range moves {
		if err := moves[i].prepare(); err != nil {
			return "", nil, err
		}
		raw, err := moves[i].encoded()
		if err != nil {
			return "", nil, err
		}
		members[i] = raw
		size += len(raw) + 1
	}
	sb.Grow(size)
	sb.WriteByte('[')
	for i, raw := range members {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.Write(raw)
		accounts[i] = moves[i].accounts
	}
	sb.WriteByte(']')
	return sb.String(), accounts, nil
}

// memberOf makes one move's member, with the accounts its posting names.
func memberOf(m *PostedMove) (batchMember, []string, error) {
	records := recordRows(m.Records)
	evs := make([]batchEvent, len(m.Events))
	for i, e := range m.Events {
		evs[i] = batchEvent{ID: domain.NewID("evt_"), AccountID: e.AccountID, APIKeyID: e.APIKeyID, Type: e.Type, ResourceID: e.ResourceID, Data: e.Data}
	}
	args, accounts, err := postArgs(&m.Posting)
	if err != nil {
		return batchMember{}, nil, err
	}
	q := m.Posting
	p := batchPosting{Key: q.Key, AccountID: q.AccountID, TransactionID: q.TransactionID, Kind: q.Kind,
		Description: q.Description, Accounts: accounts, Guard: args[8].(string), Withdraw: args[9].(int64)}
	for _, e := range q.Entries {
		p.Amounts = append(p.Amounts, int64(e.Amount))
		p.Locks = append(p.Locks, e.LockedUntil)
	}
	return batchMember{Records: records, Events: evs, Post: p}, accounts, nil
}

// outcomeOf reads one member's answer with the rules InsertPosted always
// had: an externalReference already used is a 400 naming it; a refused
// debit or an unknown account is checkPost's.
func outcomeOf(m PostedMove, accounts []string, r batchRow) PostedOutcome {
	if r.SQLState != nil && *r.SQLState != "" {
		pqErr := &pq.Error{Code: pq.ErrorCode(*r.SQLState), Constraint: deref(r.Constraint), Detail: deref(r.Detail), Message: deref(r.Message)}
		if isUniqueViolation(pqErr) {
			return PostedOutcome{Err: domain.Invalid("externalReference", "is already used by another %s of this account", m.Records[0].Type)}
		}
		_, err := checkPost(m.Posting, accounts, postResult{}, pqErr)
		if err == nil {
			err = fmt.Errorf("db: post batch: %w", pqErr)
		}
		return PostedOutcome{Err: err}
	}
	if r.New == 0 {
		return PostedOutcome{} // a retry: its records exist, nothing moved
	}
	res := postResult{Posted: r.Posted, LockedRows: r.LockedRows, Updated: r.Updated}
	if r.Available != nil {
		a, l := money.Cents(*r.Available), money.Cents(*r.Locked)
		res.Available, res.Locked = &a, &l
	}
	if _, err := checkPost(m.Posting, accounts, res, nil); err != nil {
		return PostedOutcome{Err: err}
	}
	return PostedOutcome{New: r.New}
}

// decodeEvents reads the events a member wrote.
func decodeEvents(raw []byte) ([]domain.Event, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var stored []storedEvent
	if err := json.Unmarshal(raw, &stored); err != nil {
		return nil, fmt.Errorf("db: post batch: events: %w", err)
	}
	out := make([]domain.Event, len(stored))
	for i, e := range stored {
		out[i] = domain.Event{ID: e.ID, Seq: e.Seq, AccountID: e.AccountID, APIKeyID: e.APIKeyID, Type: e.Type,
			ResourceID: e.ResourceID, Data: e.Data, CreatedAt: domain.NewTime(e.CreatedAt)}
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
