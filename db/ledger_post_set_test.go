package db_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// The set path (ledger_post_batch_set: every member judged from the locked
// rows, then each table written once) gives every batch it takes the same
// answers and the same rows as the member-by-member path
// (ledger_post_batch_each, a subtransaction per member through
// ledger_post), and declines every batch it does not take. Batches are
// drawn at random from a fixed seed over three merchants (one with money
// locked and some of it unlocked since its row last looked): overspends,
// retries of committed moves, a move twice in one batch, an
// externalReference reused, a locked entry, a guard-less debit past zero.
// Each batch runs through both paths in transactions rolled back, then
// through ledger_post_batch for real, whose answer must be the each path's.
// A batch the fast path (ledger_post_batch_fast) may take runs through it
// too, rolled back: when it does not hand the batch back, its answers and
// rows must be the each path's.
func TestSetBatchAnswersAsEachMember(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	x, y, z := newAccount(t, sharedDB, "Loja Xis"), newAccount(t, sharedDB, "Loja Ypsilon"), newAccount(t, sharedDB, "Loja Zeta")
	fund(t, sharedDB, x.ID, 3_000)
	fund(t, sharedDB, z.ID, 200)
	// y: 300 locked for a day, 100 whose lock ended an hour ago but which
	// its row still counts (its last look was two hours ago).
	if _, err := sharedDB.ExecContext(ctx, `UPDATE ledger_accounts SET locked_as_of = now() - interval '2 hours' WHERE id = $1`,
		domain.AvailableLedger(y.ID)); err != nil {
		t.Fatal(err)
	}
	if err := postAdjustment(t, y.ID, 100, -time.Hour, false); err != nil {
		t.Fatal(err)
	}
	if err := postAdjustment(t, y.ID, 300, 24*time.Hour, false); err != nil {
		t.Fatal(err)
	}
	fund(t, sharedDB, y.ID, 500)

	ids := []string{x.ID, y.ID, z.ID}
	rng := rand.New(rand.NewPCG(44, 39))
	var committed []db.PostedMove
	var refs []string
	took, refused, retried, fastTook, fastDeclinedClean := 0, 0, 0, 0, 0
	for round := range 80 {
		var batch []db.PostedMove
		for i := range 1 + rng.IntN(10) {
			from, to := ids[rng.IntN(3)], ids[rng.IntN(3)]
			if from == to {
				to = ids[(rng.IntN(2)+1+slices.Index(ids, from))%3]
			}
			name := fmt.Sprintf("%s-set-%d-%d", x.ID, round, i)
			var ref *string
			if rng.IntN(12) == 0 {
				r := fmt.Sprintf("ref-%d-%d", round, i)
				if len(refs) > 0 && rng.IntN(2) == 0 {
					r = refs[rng.IntN(len(refs))]
				}
				refs = append(refs, r)
				ref = &r
			}
			m := internalMove(from, to, name, money.Cents(1+rng.IntN(400)), ref)
			switch k := rng.IntN(30); {
			case k == 0 && len(committed) > 0:
				m = committed[rng.IntN(len(committed))] // a retry of a committed move
			case k == 1 && len(batch) > 0:
				m = batch[rng.IntN(len(batch))] // the same move twice in one batch
			case k == 2:
				until := time.Now().Add(time.Hour).Truncate(time.Millisecond)
				m.Posting.Entries[1].LockedUntil = &until
			case k == 3:
				m.Posting.Withdraw = nil // no guard: the balance's CHECK judges
				m.Posting.Entries[0].Amount, m.Posting.Entries[1].Amount = -5_000, 5_000
			}
			batch = append(batch, m)
		}
		raw, err := db.BatchJSON(batch)
		if err != nil {
			t.Fatal(err)
		}
		set, setErr := tryBatch(t, "ledger_post_batch_set", raw, batch)
		each, eachErr := tryBatch(t, "ledger_post_batch_each", raw, batch)
		if eachErr != nil {
			t.Fatalf("round %d: the each path failed: %v", round, eachErr)
		}
		if setErr == nil {
			took++
			if !reflect.DeepEqual(set, each) {
				t.Fatalf("round %d: the set path's answers and rows\n%s\ndiffer from the each path's\n%s", round, set, each)
			}
			refused += strings.Count(set.answers, `"state":"23514"`)
			retried += strings.Count(set.answers, `"new":0,"posted":false,"state":""`)
		} else if !declined(setErr) {
			t.Fatalf("round %d: the set path failed other than by declining: %v", round, setErr)
		}
		if args, ok := db.FastArgs(batch); ok && len(batch) > 1 {
			fast, fastErr := tryFast(t, args, batch)
			switch {
			case fastErr == nil:
				fastTook++
				if want := eachAsFast(t, each, batch); fast.answers != want || fast.rows != each.rows {
					t.Fatalf("round %d: the fast path's answers and rows\n%s\ndiffer from the each path's\n%s\n%s", round, fast, want, each.rows)
				}
			case db.HandedBack(fastErr):
				if !strings.Contains(each.answers, `"posted":false`) {
					fastDeclinedClean++
				}
			default:
				t.Fatalf("round %d: the fast path failed other than by declining: %v", round, fastErr)
			}
		}
		got, err := tryBatch(t, "ledger_post_batch", raw, batch, true)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if got.answers != each.answers {
			t.Fatalf("round %d: ledger_post_batch answered\n%s\nthe each path\n%s", round, got.answers, each.answers)
		}
		for i, m := range batch {
			if strings.Contains(got.member[i], `"posted":true`) {
				committed = append(committed, m)
			}
		}
	}
	t.Logf("the set path took %d of 80 batches, with %d refused and %d retried members; the fast path took %d, and handed back %d that posted every member",
		took, refused, retried, fastTook, fastDeclinedClean)
	if fastTook < 5 {
		t.Fatalf("the fast path took %d of 80 batches: the draw misses it", fastTook)
	}
	if took < 30 || refused == 0 || retried == 0 {
		t.Fatalf("the set path took %d of 80 batches, with %d refused and %d retried members: the draw misses what it must cover", took, refused, retried)
	}
	problems, err := db.VerifyLedger(ctx, sharedDB)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.Contains(p, x.ID) || strings.Contains(p, y.ID) || strings.Contains(p, z.ID) {
			t.Error(p)
		}
	}
}

// declined tells whether the set path gave a batch back to the each path:
// one it does not take, or a reference its table-wide insert found taken.
func declined(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && (pqErr.Code == "JLB01" || pqErr.Code == "23505")
}

var stamp = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:[\d.+]+`)

// batchResult is what one path did with a batch: each member's answer
// (events without their sequence and time) and the rows it left.
type batchResult struct {
	answers string
	member  []string
	rows    string
}

func (r batchResult) String() string { return r.answers + "\n" + r.rows }

// tryBatch runs fn on the batch in a transaction it rolls back, unless
// commit: the answers, then the balance rows and what the batch wrote.
func tryBatch(t *testing.T, fn, raw string, batch []db.PostedMove, commit ...bool) (batchResult, error) {
	t.Helper()
	ctx := t.Context()
	tx, err := sharedDB.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // a rollback after a commit does nothing
	var rows []struct {
		Member     int     `db:"o_member" json:"member"`
		New        int     `db:"o_new" json:"new"`
		Posted     bool    `db:"o_posted" json:"posted"`
		SQLState   *string `db:"o_sqlstate" json:"state"`
		Constraint *string `db:"o_constraint" json:"constraint"`
		Detail     *string `db:"o_detail" json:"detail"`
		Message    *string `db:"o_message" json:"message"`
		LockedRows int     `db:"o_locked_rows" json:"lockedRows"`
		Updated    int     `db:"o_updated" json:"updated"`
		Available  *int64  `db:"o_guard_available" json:"available"`
		Locked     *int64  `db:"o_guard_locked" json:"locked"`
		Events     []byte  `db:"o_events" json:"-"`
		EventsSeen string  `db:"-" json:"events"`
	}
	if err := sqlx.SelectContext(ctx, tx, &rows, `SELECT * FROM `+fn+`($1)`, raw); err != nil {
		return batchResult{}, err
	}
	var res batchResult
	for _, r := range rows {
		if r.SQLState == nil {
			r.SQLState = new(string)
		}
		if r.Detail != nil {
			// A failing row's detail shows its locked_as_of: this
			// transaction's now().
			d := stamp.ReplaceAllString(*r.Detail, "<time>")
			r.Detail = &d
		}
		var evs []map[string]any
		if len(r.Events) > 0 {
			if err := json.Unmarshal(r.Events, &evs); err != nil {
				t.Fatal(err)
			}
		}
		for _, e := range evs {
			delete(e, "seq")
			delete(e, "created_at")
		}
		seen, _ := json.Marshal(evs)
		r.EventsSeen = string(seen)
		line, _ := json.Marshal(r)
		res.member = append(res.member, string(line))
	}
	res.answers = strings.Join(res.member, "\n")
	res.rows = batchRows(t, tx, batch)
	if len(commit) > 0 && commit[0] {
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	return res, nil
}

// batchRows is the state a batch can change: its accounts' balance rows
// (locked_as_of as "now" when this transaction moved it), its records, its
// events, its ledger transactions and their entries.
func batchRows(t *testing.T, tx *sqlx.Tx, batch []db.PostedMove) string {
	t.Helper()
	var accounts, records, keys []string
	for _, m := range batch {
		for _, e := range m.Posting.Entries {
			accounts = append(accounts, e.Account)
		}
		for _, r := range m.Records {
			records = append(records, r.ID)
		}
		keys = append(keys, m.Posting.Key)
	}
	var out []string
	err := sqlx.SelectContext(t.Context(), tx, &out, `
		SELECT format('%s %s %s %s', id, balance, locked_total, CASE WHEN locked_as_of = now() THEN 'now' ELSE locked_as_of::text END)
		FROM (SELECT * FROM ledger_accounts WHERE id = ANY($1) ORDER BY id) a
		UNION ALL SELECT * FROM (SELECT format('record %s %s %s %s', id, account_id, type, amount) FROM transactions WHERE id = ANY($2) ORDER BY id) r
		UNION ALL SELECT * FROM (SELECT format('event %s %s %s', account_id, type, resource_id) FROM events WHERE resource_id = ANY($2)
			ORDER BY resource_id, type) e
		UNION ALL SELECT * FROM (SELECT format('posting %s %s %s %s %s', l.idempotency_key, l.kind, e.ledger_account_id, e.amount, e.locked_until)
			FROM ledger_transactions l JOIN ledger_entries e ON e.ledger_transaction_id = l.id WHERE l.idempotency_key = ANY($3)
			ORDER BY l.idempotency_key, e.ledger_account_id) p`,
		pq.Array(accounts), pq.Array(records), pq.Array(keys))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, "\n")
}

// A batch that waited for its balance rows' locks judges its members by
// what was committed while it waited. A credit of R$ 10.00 holds the
// sender's row while a batch of two debits of R$ 8.00 waits for it; once
// the credit commits, the sender has R$ 20.00 and both debits go through.
// Had the set path read the rows with a snapshot from before the lock
// was granted, it would have seen R$ 10.00 and refused the second.
func TestSetBatchSeesMoneyCommittedWhileItWaited(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b := newAccount(t, sharedDB, "Loja Aguarda"), newAccount(t, sharedDB, "Loja Recebe")
	fund(t, sharedDB, a.ID, 1000)

	credit, err := sharedDB.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer credit.Rollback() //nolint:errcheck // a rollback after the commit does nothing
	if _, err := db.Post(ctx, credit, db.Posting{Key: "test-credit:" + a.ID, AccountID: a.ID, Kind: "TEST", Entries: []db.Entry{
		{Account: domain.AvailableLedger(a.ID), Amount: 1000},
		{Account: domain.LedgerAdjustments, Amount: -1000},
	}}); err != nil {
		t.Fatal(err)
	}
	var creditPID int
	if err := credit.GetContext(ctx, &creditPID, `SELECT pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}

	moves := []db.PostedMove{
		internalMove(a.ID, b.ID, a.ID+"-waited-1", 800, nil),
		internalMove(a.ID, b.ID, a.ID+"-waited-2", 800, nil),
	}
	type answer struct {
		out []db.PostedOutcome
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := db.PostBatch(ctx, sharedDB, moves)
		done <- answer{out, err}
	}()
	blockedBy(t, creditPID, 0, "ledger_post_batch")
	if err := credit.Commit(); err != nil {
		t.Fatal(err)
	}
	var got answer
	select {
	case got = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the batch never answered")
	}
	if got.err != nil {
		t.Fatal(got.err)
	}
	for i, o := range got.out {
		if o.Err != nil || o.New != 2 {
			t.Errorf("move %d: %+v, want both records new and no refusal", i, o)
		}
	}
	if av := availableOf(t, a.ID); av != 400 {
		t.Errorf("the sender holds %d, want 400", av)
	}
}

// tryFast runs ledger_post_batch_fast on the batch in a transaction it
// rolls back: each member's answer, as eachAsFast writes the each path's,
// then the rows it left.
func tryFast(t *testing.T, args []any, batch []db.PostedMove) (batchResult, error) {
	t.Helper()
	ctx := t.Context()
	tx, err := sharedDB.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // always rolled back
	var rows []struct {
		Member    int           `db:"o_member"`
		Available *int64        `db:"o_guard_available"`
		Locked    *int64        `db:"o_guard_locked"`
		Seqs      pq.Int64Array `db:"o_seqs"`
		Created   time.Time     `db:"o_created"`
	}
	if err := sqlx.SelectContext(ctx, tx, &rows, db.FastSQL, args...); err != nil {
		return batchResult{}, err
	}
	var res batchResult
	for _, r := range rows {
		res.member = append(res.member, fastLine(r.Member, len(batch[r.Member].Records), r.Available, r.Locked, len(r.Seqs)))
	}
	res.answers = strings.Join(res.member, "\n")
	res.rows = batchRows(t, tx, batch)
	return res, nil
}

// fastLine is one member's answer in the terms both paths give.
func fastLine(member, records int, available, locked *int64, events int) string {
	line, _ := json.Marshal(map[string]any{"member": member, "new": records, "available": available, "locked": locked, "events": events})
	return string(line)
}

// eachAsFast is the each path's answers in fastLine's terms.
func eachAsFast(t *testing.T, each batchResult, batch []db.PostedMove) string {
	t.Helper()
	var lines []string
	for i, m := range each.member {
		var a struct {
			New       int    `json:"new"`
			Available *int64 `json:"available"`
			Locked    *int64 `json:"locked"`
			Events    string `json:"events"`
		}
		if err := json.Unmarshal([]byte(m), &a); err != nil {
			t.Fatal(err)
		}
		var evs []any
		if err := json.Unmarshal([]byte(a.Events), &evs); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fastLine(i, a.New, a.Available, a.Locked, len(evs)))
	}
	return strings.Join(lines, "\n")
}
