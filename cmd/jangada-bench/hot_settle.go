//go:build devserver

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// settleMix is one withdrawal in every settleMix operations of the settle
// rows; the others are paid charges settling.
const settleMix = 4

// settleOps are the operations of one settle row: charges to pay, each
// with the watcher that sees its payment.paid, and the withdrawals' moves.
type settleOps struct {
	name     string
	charges  []string
	keys     []string     // by charge: its owner's API key
	watchers []*wsWatcher // by charge
	owners   []*wsWatcher
	withdraw func(ctx context.Context, i int) error
	pay      func(ctx context.Context, key, id string) error

	next    atomic.Int64
	began   []time.Time // by charge: when its pay call was sent
	mu      sync.Mutex
	settles []time.Duration
	draws   []time.Duration
}

// op is the row's i-th operation: a withdrawal, or a charge paid through
// the sandbox and waited for until its payment.paid frame (the settle
// committed and published).
func (s *settleOps) op(ctx context.Context, i int) error {
	t0 := time.Now()
	if i%settleMix == settleMix-1 {
		err := s.withdraw(ctx, i)
		s.mu.Lock()
		s.draws = append(s.draws, time.Since(t0))
		s.mu.Unlock()
		return err
	}
	j := int(s.next.Add(1) - 1)
	if j >= len(s.charges) {
		return fmt.Errorf("%s: %d charges made, more settles asked", s.name, len(s.charges))
	}
	id, w := s.charges[j], s.watchers[j]
	ch := w.expect(id)
	s.began[j] = t0
	if err := s.pay(ctx, s.keys[j], id); err != nil {
		w.forget(id)
		return err
	}
	if err := w.wait(ctx, id, ch, 30*time.Second); err != nil {
		return err
	}
	s.mu.Lock()
	s.settles = append(s.settles, time.Since(t0))
	s.mu.Unlock()
	return nil
}

// hotSettleFigure measures the other hot path of a merchant's balance row:
// 32 concurrent operations, three in four a paid charge settling (the
// charge's workflow runs the settle activity: its record, its posting on
// the merchant's row and payment.paid in one transaction) and one in four a
// withdrawal (an internal transfer out, judged under the row's lock), all
// on one merchant; beside the bare one-row transaction at the same
// concurrency. The same operations spread over eight merchants' rows,
// measured in the same run, split a settle's time between the row (hot
// minus spread) and the rest (Temporal's dispatch and the settle's work),
// step by step from the charges' histories.
func hotSettleFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	n := sz.charges
	parties, err := r.parties(ctx)
	if err != nil {
		return figure{}, err
	}
	hot, err := r.settleRow(ctx, "one hot row", n, []party{{r.email, r.key}}, func(ctx context.Context, i int) error {
		return r.post(ctx, "/v1/transfer-internal/create", map[string]any{"amount": 0.01, "recipientEmail": parties[i%len(parties)].email})
	})
	if err != nil {
		return figure{}, err
	}
	spread, err := r.settleRow(ctx, "eight rows", n, parties, func(ctx context.Context, i int) error {
		from, to := parties[i%len(parties)], parties[(i+1)%len(parties)]
		return r.postAs(ctx, from.key, "/v1/transfer-internal/create", map[string]any{"amount": 0.01, "recipientEmail": to.email})
	})
	if err != nil {
		return figure{}, err
	}
	defer hot.close()
	defer spread.close()
	bareTx, done, err := r.hotBareTx(ctx)
	if err != nil {
		return figure{}, err
	}
	defer done()
	// The bare transaction stands on PostgreSQL alone; the two settle rows
	// alternate (paired), since each run grows the dev server's store and
	// slows the next one.
	bare := run(ctx, "bare PG tx on one row (pgx, 1 round trip)", 32, n, bareTx)
	pause()
	cold, ours := r.paired(ctx, 32, n, "settles + withdrawals, eight rows", spread.op, "settles + withdrawals, one row", hot.op, nil)
	show(bare, ours, cold)
	hs, ss := hot.steps(ctx, r), spread.steps(ctx, r)
	fmt.Printf("  settles p50 / p99: one row %s / %s, eight rows %s / %s; withdrawals one row %s / %s, eight rows %s / %s\n",
		pct(hot.settles, 50), pct(hot.settles, 99), pct(spread.settles, 50), pct(spread.settles, 99),
		pct(hot.draws, 50), pct(hot.draws, 99), pct(spread.draws, 50), pct(spread.draws, 99))
	stepsTable("one row", "eight rows", hs, ss)
	return figure{name: "hot-account settles + withdrawals/s, c=32, one row",
		ours: fmt.Sprintf("%s, p50 %s, p99 %s (eight rows %s)", rate(ours), msf(ours.p50), msf(ours.p99), rate(cold)),
		bare: fmt.Sprintf("PG tx %s, p50 %s, p99 %s", rate(bare), msf(bare.p50), msf(bare.p99)), ratio: ours.perSecond() / bare.perSecond(),
		target: 1.5, note: errNote(ours) + fmt.Sprintf(" settle p50 one row %s, eight rows %s", pct(hot.settles, 50), pct(spread.settles, 50))}, nil
}

// party is a merchant of a row: its e-mail (a recipient) and its key.
type party struct{ email, key string }

// parties makes the hot merchant's hotCounterparties counterparties.
func (r *rig) parties(ctx context.Context) ([]party, error) {
	ps := make([]party, hotCounterparties)
	for i := range ps {
		other, key, err := r.secondAccount(ctx)
		if err != nil {
			return nil, err
		}
		ps[i] = party{other.Email, key}
	}
	return ps, nil
}

// settleRow makes a row's charges (untimed, spread over the owners in
// turn) and a watcher per owner.
func (r *rig) settleRow(ctx context.Context, name string, n int, owners []party, withdraw func(context.Context, int) error) (*settleOps, error) {
	s := &settleOps{name: name, withdraw: withdraw, charges: make([]string, n), keys: make([]string, n),
		watchers: make([]*wsWatcher, n), began: make([]time.Time, n),
		pay: func(ctx context.Context, key, id string) error {
			return r.postRetrying503As(ctx, key, "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{})
		}}
	ws := make([]*wsWatcher, len(owners))
	for i, o := range owners {
		w, err := dialWatcherAs(ctx, r, o.key)
		if err != nil {
			s.close()
			return nil, err
		}
		ws[i] = w
		s.owners = append(s.owners, w)
	}
	mk := run(ctx, "create charges (setup, "+name+")", 8, n, func(ctx context.Context, i int) error {
		raw, err := r.postDataAs(ctx, owners[i%len(owners)].key, "/v1/payment-pix/create",
			map[string]any{"amount": 10 + i%100, "description": fmt.Sprintf("Bench liquidação %d", i)})
		if err != nil {
			return err
		}
		var c struct{ ID string }
		if err := json.Unmarshal(raw, &c); err != nil || c.ID == "" {
			return fmt.Errorf("charge: %s", raw)
		}
		s.charges[i], s.keys[i], s.watchers[i] = c.ID, owners[i%len(owners)].key, ws[i%len(owners)]
		return nil
	})
	if mk.errors > 0 {
		s.close()
		return nil, fmt.Errorf("creating charges: %d errors, first: %v", mk.errors, mk.firstErr)
	}
	return s, nil
}

// close closes the row's watchers.
func (s *settleOps) close() {
	for _, w := range s.owners {
		w.close()
	}
}

// steps reads the settled charges' moments (in the order they were paid)
// from their histories and their settle's transaction.
func (s *settleOps) steps(ctx context.Context, r *rig) []stepTimes {
	n := min(int(s.next.Load()), len(s.charges))
	var out []stepTimes
	for i, w := range s.watchers[:n] {
		out = append(out, r.paidSteps(ctx, s.charges[i:i+1], s.began[i:i+1], w)...)
	}
	return out
}

// pct is the p-th percentile of ds, in milliseconds.
func pct(ds []time.Duration, p int) string {
	if len(ds) == 0 {
		return "-"
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return msf(ds[min(len(ds)-1, len(ds)*p/100)])
}
