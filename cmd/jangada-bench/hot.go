//go:build devserver

package main

import (
	"context"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// hotCounterparties is how many accounts move money in and out of the hot
// merchant: each move locks the hot row and one of theirs.
const hotCounterparties = 8

// hotAccount measures money moves that all land on one merchant's balance
// row at concurrency 32 — internal transfers in (credits) and out
// (withdrawals, judged under the row lock) between the bench's merchant and
// eight others — beside the bare one-row transaction at the same
// concurrency (bare_pgx.go): the hot row updated, a move inserted, one
// round trip. A hot row bounds a bare client at one commit per lock hold;
// the group commit holds it once per batch.
func hotAccount(ctx context.Context, r *rig, n int) (ours, bare result, err error) {
	parties, err := r.parties(ctx)
	if err != nil {
		return ours, bare, err
	}
	bareTx, done, err := r.hotBareTx(ctx)
	if err != nil {
		return ours, bare, err
	}
	defer done()
	myEmail := r.email
	move := func(ctx context.Context, i int) error {
		p := parties[i%hotCounterparties]
		body := map[string]any{"amount": 0.01, "description": fmt.Sprint(i)}
		if i%2 == 0 {
			body["recipientEmail"] = p.email
			return r.post(ctx, "/v1/transfer-internal/create", body)
		}
		body["recipientEmail"] = myEmail
		return r.postAs(ctx, p.key, "/v1/transfer-internal/create", body)
	}
	bare, ours = r.paired(ctx, 32, n, "bare PG tx on one row (pgx, 1 round trip)", bareTx, "POST transfer-internal, one hot row", move, nil)
	return ours, bare, nil
}

// hotBareTx is the bare one-row transaction (bare_pgx.go): the hot row
// updated and a move inserted, one round trip; done closes its pool.
func (r *rig) hotBareTx(ctx context.Context) (tx func(context.Context, int) error, done func(), err error) {
	if _, err := r.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS bench_hot (id bigint PRIMARY KEY, balance bigint NOT NULL);
		INSERT INTO bench_hot VALUES (1, 0) ON CONFLICT DO NOTHING;
		CREATE TABLE IF NOT EXISTS bench_hot_moves (id bigserial PRIMARY KEY, amount bigint, note text)`); err != nil {
		return nil, nil, err
	}
	pool, err := r.barePool(ctx)
	if err != nil {
		return nil, nil, err
	}
	return func(ctx context.Context, i int) error {
		amount := int64(1 - 2*(i%2))
		return bareBatch(ctx, pool,
			bareStatement{`UPDATE bench_hot SET balance = balance + $1 WHERE id = 1`, []any{amount}},
			bareStatement{`INSERT INTO bench_hot_moves (amount, note) VALUES ($1, 'move')`, []any{amount}})
	}, pool.Close, nil
}

func hotFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	r.analyzeRounds = true
	s0 := ledgerBatches()
	ours, bare, err := hotAccount(ctx, r, sz.internal)
	if err != nil {
		return figure{}, err
	}
	show(bare, ours)
	fmt.Println("  group commit:", batchNote(s0))
	return figure{name: "hot-account moves/s, c=32, one balance row", ours: fmt.Sprintf("%s, p50 %s, p99 %s", rate(ours), msf(ours.p50), msf(ours.p99)),
		bare: fmt.Sprintf("PG tx %s, p50 %s, p99 %s", rate(bare), msf(bare.p50), msf(bare.p99)), ratio: ours.perSecond() / bare.perSecond(),
		target: 1.5, note: errNote(ours) + " " + batchNote(s0)}, nil
}

// batchStats is a group commit's batches so far, from this process's
// metrics (the rig's app runs in it): how many, their moves and the
// seconds their statements took.
type batchStats struct{ batches, moves, seconds float64 }

// ledgerBatches reads the ledger group commit's batches so far.
func ledgerBatches() batchStats { return batchesOf("jangada_ledger_batch") }

// subaccountBatches is ledgerBatches for the sub-account moves' group.
func subaccountBatches() batchStats { return batchesOf("jangada_subaccount_batch") }

// batchesOf reads one group's batch histograms (prefix_moves and
// prefix_seconds) of this process's metrics.
func batchesOf(prefix string) (st batchStats) {
	fams, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		return st
	}
	for _, f := range fams {
		if len(f.GetMetric()) == 0 {
			continue
		}
		h := f.GetMetric()[0].GetHistogram()
		switch f.GetName() {
		case prefix + "_moves":
			st.batches, st.moves = float64(h.GetSampleCount()), h.GetSampleSum()
		case prefix + "_seconds":
			st.seconds = h.GetSampleSum()
		}
	}
	return st
}

// batchNote says how many moves a ledger batch held on average since s0,
// and how long its statement took.
func batchNote(s0 batchStats) string { return batchNoteOf(ledgerBatches, s0) }

// batchNoteOf says how many moves a batch of read's held on average since
// s0, and how long its statement took.
func batchNoteOf(read func() batchStats, s0 batchStats) string {
	s := read()
	if s.batches == s0.batches {
		return ""
	}
	n := s.batches - s0.batches
	return fmt.Sprintf("%.1f moves a batch, %.1f ms its statement", (s.moves-s0.moves)/n, 1000*(s.seconds-s0.seconds)/n)
}
