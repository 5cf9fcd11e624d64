package db_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// fastPair is two accounts the moves of one side of a comparison run
// between, funded alike.
type fastPair struct{ a, b domain.Account }

// newFastPair opens two funded accounts; lockedOfA, when set, is money of
// a's still locked for a day (a received PIX), which a withdrawal cannot
// use.
func newFastPair(t *testing.T, lockedOfA money.Cents) fastPair {
	t.Helper()
	p := fastPair{newAccount(t, sharedDB, "Loja A"), newAccount(t, sharedDB, "Loja B")}
	fund(t, sharedDB, p.a.ID, 1000)
	fund(t, sharedDB, p.b.ID, 1000)
	if lockedOfA > 0 {
		if err := postAdjustment(t, p.a.ID, lockedOfA, 24*time.Hour, false); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// moves makes the same batch for any pair: amounts[i] > 0 moves from a to
// b, < 0 from b to a.
func (p fastPair) moves(amounts ...money.Cents) []db.PostedMove {
	out := make([]db.PostedMove, len(amounts))
	for i, amt := range amounts {
		from, to := p.a.ID, p.b.ID
		if amt < 0 {
			from, to, amt = to, from, -amt
		}
		out[i] = internalMove(from, to, domain.NewID("fast"), amt, nil)
	}
	return out
}

// ledgerState is what a pair's moves left: both balances, the locked money
// the guard last looked at and whether it looked since the moves were
// sent, and the rows written.
type ledgerState struct {
	available       [2]money.Cents
	lockedTotal     money.Cents
	looked          bool
	records, events int
	entries         int
}

func stateOf(t *testing.T, p fastPair, moves []db.PostedMove, sent time.Time) ledgerState {
	t.Helper()
	var s ledgerState
	s.available = [2]money.Cents{availableOf(t, p.a.ID), availableOf(t, p.b.ID)}
	var ids, keys []string
	for _, m := range moves {
		for _, r := range m.Records {
			ids = append(ids, r.ID)
		}
		keys = append(keys, m.Posting.Key)
	}
	err := sharedDB.QueryRowxContext(t.Context(), `SELECT
			(SELECT locked_total FROM ledger_accounts WHERE id = $1),
			(SELECT coalesce(locked_as_of >= $4, false) FROM ledger_accounts WHERE id = $1),
			(SELECT count(*) FROM transactions WHERE id = ANY($2)),
			(SELECT count(*) FROM events WHERE resource_id = ANY($2)),
			(SELECT count(*) FROM ledger_entries e JOIN ledger_transactions l ON l.id = e.ledger_transaction_id
			 WHERE l.idempotency_key = ANY($3))`,
		domain.AvailableLedger(p.a.ID), pq.Array(ids), pq.Array(keys), sent).
		Scan(&s.lockedTotal, &s.looked, &s.records, &s.events, &s.entries)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A batch no rule can refuse posts through the fast path exactly as the
// jsonb path posts the same batch on a twin pair: the same answers, the
// same balances, the same locked money looked at, the same rows.
func TestFastBatchPostsAsTheJSONPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		locked  money.Cents
		amounts []money.Cents
	}{
		{"both directions", 0, []money.Cents{100, -30, 50, 400}},
		{"locked money left untouched", 600, []money.Cents{150, 150, -20, 500}},
		{"every debit on one row", 0, []money.Cents{250, 250, 250, 250}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fast, slow := newFastPair(t, tc.locked), newFastPair(t, tc.locked)
			fm, sm := fast.moves(tc.amounts...), slow.moves(tc.amounts...)
			sent := time.Now()
			fo, err := db.PostFast(t.Context(), sharedDB, fm)
			if err != nil {
				t.Fatalf("fast path: %v", err)
			}
			so, err := db.PostJSON(t.Context(), sharedDB, sm)
			if err != nil {
				t.Fatal(err)
			}
			for i := range fo {
				if fo[i].New != 2 || fo[i].Err != nil || fo[i].New != so[i].New || (so[i].Err != nil) {
					t.Errorf("member %d: fast %+v, jsonb %+v", i, fo[i], so[i])
				}
			}
			if f, s := stateOf(t, fast, fm, sent), stateOf(t, slow, sm, sent); f != s || !f.looked {
				t.Errorf("fast path left %+v, jsonb path %+v", f, s)
			}
			for _, m := range fm {
				storedAsBuilt(t, m)
			}
		})
	}
}

// A batch the fast path cannot take whole is handed back with nothing
// written, and the group commit's batch then answers each member alone.
func TestFastBatchHandsBackWhatItCannotJudgeWhole(t *testing.T) {
	t.Parallel()
	ref := "pedido-" + domain.NewID("")
	for _, tc := range []struct {
		name   string
		locked money.Cents
		// before writes what the batch then meets; batch makes the batch.
		before func(t *testing.T, p fastPair, ms []db.PostedMove)
		batch  func(p fastPair) []db.PostedMove
		// want is each member's answer from the whole batch: its new
		// records, or the error it is.
		want []any
	}{
		{
			name:  "a debit that could be refused",
			batch: func(p fastPair) []db.PostedMove { return p.moves(700, 700, -10) },
			want:  []any{2, domain.ErrInsufficientBalance, 2},
		},
		{
			name:   "locked money a debit could need",
			locked: 1600, // 2,600 available, 1,000 of it withdrawable
			batch:  func(p fastPair) []db.PostedMove { return p.moves(600, 600) },
			want:   []any{2, domain.ErrInsufficientBalance},
		},
		{
			name: "a member sent before",
			before: func(t *testing.T, _ fastPair, ms []db.PostedMove) {
				if _, err := db.PostBatch(t.Context(), sharedDB, ms[1:2]); err != nil {
					t.Fatal(err)
				}
			},
			batch: func(p fastPair) []db.PostedMove { return p.moves(10, 20, 30) },
			want:  []any{2, 0, 2},
		},
		{
			name: "an externalReference taken",
			before: func(t *testing.T, p fastPair, _ []db.PostedMove) {
				if _, err := db.PostBatch(t.Context(), sharedDB, []db.PostedMove{internalMove(p.a.ID, p.b.ID, domain.NewID("fast"), 5, &ref)}); err != nil {
					t.Fatal(err)
				}
			},
			batch: func(p fastPair) []db.PostedMove {
				ms := p.moves(10, 20)
				ms = append(ms, internalMove(p.a.ID, p.b.ID, domain.NewID("fast"), 30, &ref))
				return ms
			},
			want: []any{2, 2, domain.ErrInvalid},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newFastPair(t, tc.locked)
			ms := tc.batch(p)
			if tc.before != nil {
				tc.before(t, p, ms)
			}
			sent := time.Now()
			before := stateOf(t, p, ms, sent)
			if _, err := db.PostFast(t.Context(), sharedDB, ms); !errors.Is(err, db.ErrDeclined) {
				t.Fatalf("fast path: %v, want it handed back", err)
			}
			if after := stateOf(t, p, ms, sent); after != before {
				t.Fatalf("a batch handed back wrote %+v over %+v", after, before)
			}
			out, err := db.PostBatch(t.Context(), sharedDB, ms)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range tc.want {
				switch w := w.(type) {
				case int:
					if out[i].Err != nil || out[i].New != w {
						t.Errorf("member %d: %+v, want %d new records", i, out[i], w)
					}
				case error:
					if !errors.Is(out[i].Err, w) {
						t.Errorf("member %d: %+v, want %v", i, out[i], w)
					}
				}
			}
		})
	}
}

// storedAsBuilt checks that a move's records and events were stored as the
// service built them: every column the fast path sends as an array.
func storedAsBuilt(t *testing.T, m db.PostedMove) {
	t.Helper()
	for _, want := range m.Records {
		got, err := db.AccountTransaction(t.Context(), sharedDB, want.AccountID, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Type != want.Type || got.Status != want.Status || got.Amount != want.Amount || got.NetAmount != want.NetAmount ||
			got.FeeAmount != want.FeeAmount || got.Description != want.Description || got.APIKeyID != nil ||
			!got.CreatedAt.Equal(want.CreatedAt.Time) || got.CompletedAt == nil || !got.CompletedAt.Equal(want.CompletedAt.Time) ||
			got.ExpiresAt != nil || got.Details.V.CounterpartyID != want.Details.V.CounterpartyID ||
			got.Details.V.RecipientName != want.Details.V.RecipientName {
			t.Errorf("record stored as %+v, built as %+v", got, want)
		}
	}
	for _, e := range m.Events {
		var data []byte
		if err := sharedDB.GetContext(t.Context(), &data, `SELECT data FROM events WHERE resource_id = $1 AND type = $2`,
			e.ResourceID, e.Type); err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(data, &got); err != nil || got["id"] != e.Data.(map[string]any)["id"] {
			t.Errorf("event %s stored with %s, built with %v", e.Type, data, e.Data)
		}
	}
}
