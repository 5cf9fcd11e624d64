package main

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/internal/procs"
	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq" // the database/sql driver
)

// fault is one line of the fault timeline.
type fault struct {
	at   time.Duration // since the load began
	took time.Duration
	what string
	err  error
}

// soak runs the load with the faults, then the checks; it prints the
// figures, the timeline and one line per check, and reports whether every
// check passed.
func (r *rig) soak(ctx context.Context, o options) (bool, error) {
	rcv, err := newReceiver()
	if err != nil {
		return false, err
	}
	defer rcv.close()
	// A create whose answer was lost in a PostgreSQL restart leaves its
	// Idempotency-Key in flight until db.IdempotencyClaimTTL: an integration
	// retries at least that long.
	c := &client{apis: r.apis, adminToken: r.apis[0].Getenv("JANGADA_ADMIN_TOKEN"), retryFor: db.IdempotencyClaimTTL + 30*time.Second,
		http: &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 32}}}
	tag := fmt.Sprint(time.Now().UnixNano())
	var ms []merchant
	for i := range o.merchants {
		m, err := c.newMerchant(ctx, i, tag, rcv.url, funding)
		if err != nil {
			return false, fmt.Errorf("merchant setup: %w", err)
		}
		rcv.setSecret(m.ID, m.HookSecret)
		ms = append(ms, m)
	}
	sc := &scen{ms: ms, off: true}
	if o.scenarios {
		if sc, err = newScen(ctx, c, ms, tag, rcv.url, rcv, o.quick); err != nil {
			return false, fmt.Errorf("scenario setup: %w", err)
		}
		r.scen = sc
	}

	// WebSocket subscribers: every merchant on every api process.
	sctx, stopSubs := context.WithCancel(ctx)
	var subs []*subscriber
	var swg sync.WaitGroup
	defer func() { stopSubs(); swg.Wait() }()
	for _, m := range ms {
		for _, a := range r.apis {
			s := newSubscriber(m, a)
			subs = append(subs, s)
			swg.Add(1)
			go func() { defer swg.Done(); s.run(sctx) }()
		}
	}
	if err := waitFor(ctx, 30*time.Second, func() bool {
		for _, s := range subs {
			if !s.subscribed() {
				return false
			}
		}
		return true
	}); err != nil {
		return false, fmt.Errorf("websocket subscribers: %w", err)
	}

	// The load, and the faults beside it.
	d := &driver{c: c, merchants: ms, paid: map[int][]*op{}}
	lctx, stopLoad := context.WithTimeout(ctx, o.duration)
	defer stopLoad()
	began := time.Now()
	var faults []fault
	var kills []time.Time
	var fwg sync.WaitGroup
	fwg.Add(1)
	go func() {
		defer fwg.Done()
		faults, kills = r.inject(lctx, o, began)
	}()
	fmt.Printf("load: %d goroutines for %v on %d merchants, faults: %s\n", o.workers, o.duration, len(ms), plan(o))
	var swg2 sync.WaitGroup
	swg2.Add(1)
	go func() { defer swg2.Done(); sc.run(lctx) }()
	d.run(lctx, o.workers, o.pacing)
	fwg.Wait()
	swg2.Wait()
	loadTook := time.Since(began)

	// Everything must be back before the checks.
	for _, p := range append(append([]*proc{}, r.apis...), r.workers...) {
		if !p.Running() {
			return false, fmt.Errorf("%s is not running after the faults (log %s)", p.Name, p.Log)
		}
	}
	counts, ops := d.counts()
	// The checks see the scenarios' operations too (their refusals are
	// theirs to judge: they are not listed below).
	allOps := append(append([]*op(nil), ops...), sc.allOps()...)
	db, err := sqlx.Open("postgres", r.pg.dbURL)
	if err != nil {
		return false, err
	}
	defer db.Close()
	k := &checker{d: db, merchants: sc.ms, ops: allOps, kills: kills}
	drain := 3 * time.Minute
	checks := []check{k.definite(), k.finalStates(ctx, drain), k.webhooks(ctx, rcv, drain)}
	checks = append(checks, k.websockets(ctx, subs, 30*time.Second)...)
	// The products' money is read from their final records (products.go).
	if err := prodDeltas(ctx, db, allOps); err != nil {
		checks = append(checks, check{"products' records read", false, err.Error()})
	}
	checks = append(checks, k.ledger(ctx), k.balances(ctx), k.once(ctx))
	checks = append(checks, sc.checks(ctx, db)...)
	checks = append(checks, budgetChecks(ctx, c, r.apis, ms[0].ID)...)
	every := countByKind(allOps) // the load's and the scenarios' moves
	checks = append(checks, groupCommitCheck(ctx, r.apis, every[opInternal][0], every[opSubAdd][0]+every[opSubRemove][0]))

	fmt.Printf("\noperations in %.1f s (%d HTTP attempts, %d retries):\n", loadTook.Seconds(), c.attempts.Load(), c.retries.Load())
	kinds := make([]string, 0, len(counts))
	for kind := range counts {
		kinds = append(kinds, kind)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		n := counts[kind]
		fmt.Printf("  %-20s %5d accepted  %3d refused  %3d unresolved\n", kind, n[0], n[1], n[2])
	}
	for _, o := range ops {
		if o.refused != "" || o.unresolved != "" {
			fmt.Printf("  not accepted: %s %s: %s%s\n", o.kind, o.id, o.refused, o.unresolved)
		}
	}
	sc.summary()
	sort.Slice(faults, func(i, j int) bool { return faults[i].at < faults[j].at })
	fmt.Println("fault timeline (since the load began):")
	for _, f := range faults {
		line := fmt.Sprintf("  %6.1f s  %s (%.1f s)", f.at.Seconds(), f.what, f.took.Seconds())
		if f.err != nil {
			line += " ERROR " + f.err.Error()
		}
		fmt.Println(line)
	}
	fmt.Println()
	all := true
	for _, f := range faults {
		if f.err != nil {
			all = false
		}
	}
	for _, ch := range checks {
		fmt.Println(ch)
		all = all && ch.ok
	}
	if all {
		fmt.Println("PASS  soak")
	} else {
		fmt.Println("FAIL  soak")
	}
	return all, nil
}

// plan describes the faults of the run.
func plan(o options) string {
	if o.quick {
		return "worker-1 SIGKILLed at 1/3 and restarted 2 s later"
	}
	p := "worker-1 SIGKILLed at 20% and restarted 3 s later; api-2 restarted (SIGTERM) at 45%"
	if o.cluster > 1 {
		p = "worker-1 SIGKILLed at 20% and restarted 3 s later; temporal-2 SIGKILLed at 30%, restarted once its shards moved; api-2 restarted (SIGTERM) at 45%"
	}
	p += "; Redis (the shared budgets) restarted at 58%, down 2 s"
	if o.pgRestart {
		p += "; PostgreSQL restarted at 70%"
	}
	return p
}

// inject runs the fault plan while the load runs; it returns the timeline
// and the times of the SIGKILLs.
func (r *rig) inject(ctx context.Context, o options, began time.Time) ([]fault, []time.Time) {
	var out []fault
	var kills []time.Time
	at := func(frac float64) bool {
		pause(ctx, time.Until(began.Add(time.Duration(frac*float64(o.duration)))))
		return ctx.Err() == nil
	}
	do := func(what string, f func() error) {
		after := r.scen.aroundFault(what) // lost-answer creates retried across it
		start := time.Now()
		err := f()
		after()
		out = append(out, fault{at: start.Sub(began), took: time.Since(start), what: what, err: err})
	}
	// Faults, once begun, run to the end on their own context: a process
	// is never left down because the load ended.
	bg := context.Background()
	killWorker := func(down time.Duration) {
		w := r.workers[0]
		do(fmt.Sprintf("SIGKILL %s (pid %d)", w.Name, w.Pid()), func() error {
			err := w.Signal(syscall.SIGKILL, 10*time.Second)
			// Noted once the process is gone: every post it made is earlier.
			kills = append(kills, time.Now())
			return err
		})
		pause(bg, down)
		do("restart "+w.Name, w.Start)
	}
	if o.quick {
		if at(1.0 / 3) {
			killWorker(2 * time.Second)
		}
		return out, kills
	}
	if at(0.20) {
		killWorker(3 * time.Second)
	}
	if o.cluster > 1 && at(0.30) {
		moves, killed := r.killNode(do, began)
		out, kills = append(out, moves...), append(kills, killed)
	}
	if at(0.45) {
		a := r.apis[1]
		do("restart "+a.Name+" (SIGTERM, start, ready)", func() error {
			if err := a.Signal(syscall.SIGTERM, 30*time.Second); err != nil {
				return err
			}
			if err := a.Start(); err != nil {
				return err
			}
			return procs.WaitReady(bg, a, 2*time.Minute)
		})
	}
	if at(0.58) {
		do("restart Redis (the shared budgets; down 2 s)", func() error { return r.redis.restart(bg, 2*time.Second) })
		fmt.Printf("budget decisions taken alone while Redis was away: %s and %s\n", fallbacks(bg, r.apis[0]), fallbacks(bg, r.apis[1]))
	}
	if o.pgRestart && at(0.70) {
		do("restart PostgreSQL: "+r.pg.restartMethod(), func() error { return r.pg.restart(bg, 3*time.Second) })
	}
	return out, kills
}

// waitFor polls cond until it holds or within passes.
func waitFor(ctx context.Context, within time.Duration, cond func() bool) error {
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not within %v", within)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		pause(ctx, 50*time.Millisecond)
	}
	return nil
}
