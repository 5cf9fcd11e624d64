//go:build devserver

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// The sustained mixed run (-mixed): the production split (jangada
// temporal, one api, one worker) under an open-loop mix of charges created
// and paid, PIX outs, internal and sub-account transfers, billings and
// checkouts, at a fixed arrival rate of half the capacity a short
// closed-loop probe of the same mix measured, with WebSocket subscribers
// connected throughout. It reports each operation's p50/p99 per bucket (a
// minute in the long form), every process's footprint over time,
// PostgreSQL's growth per 100k operations, Temporal's history size per
// workflow type, lost deliveries and ledger violations (mixed_report.go),
// and plots each series (mixed_plot.go).

// mixedOptions configure a mixed run.
type mixedOptions struct {
	// duration is the load's length; bucket the width of one point of the
	// series (a minute, or less for a short run); probe the capacity
	// probe's length.
	duration, bucket, probe time.Duration
	// rate is the arrival rate in operations/s; 0 takes half the probe's.
	rate float64
	// subscribers is how many authenticated WebSocket clients watch the
	// merchant's payment.* events.
	subscribers int
	// out is the directory the text report and the PNGs are written to.
	out string
}

// withDefaults fills the options a flag left at zero.
func (o mixedOptions) withDefaults() mixedOptions {
	if o.bucket <= 0 {
		o.bucket = min(time.Minute, o.duration/6)
	}
	if o.probe <= 0 {
		o.probe = 30 * time.Second
		if o.duration < 5*time.Minute {
			o.probe = 15 * time.Second
		}
	}
	if o.out == "" {
		o.out = filepath.Join("bench-out", "mixed-"+time.Now().UTC().Format("20060102-150405"))
	}
	return o
}

// mixedKind is one kind of operation of the mix, with its share of the
// arrivals. do runs one; it reports each step's latency to rec (a charge
// is two steps, its create and its pay), the first step timed from the
// arrival's scheduled time so that a late start counts (no coordinated
// omission).
type mixedKind struct {
	name   string
	weight int
	do     func(ctx context.Context, i int, at time.Time, rec stepRecorder)
}

// stepRecorder records one step of one arrival: its name, when the step
// began (its latency runs from there to now) and its error.
type stepRecorder func(step string, began time.Time, err error)

// mixedRun is one mixed run's state.
type mixedRun struct {
	r      *rig
	opts   mixedOptions
	kinds  []mixedKind
	plan   []int // kind index per arrival, repeating: the weights interleaved
	hooks  *hookReceiver
	subs   []*wsWatcher
	series *series
	// paid is when each charge paid by the run had its pay call begin.
	mu   sync.Mutex
	paid map[string]time.Time
	// start is when the open-loop load began.
	start time.Time
	seq   atomic.Int64
}

// setupMixed prepares the merchant (verified, funded, a second merchant
// for internal transfers, two sub-accounts for sub-account transfers, a
// payment link, a webhook endpoint on payment.paid with its receiver) and
// connects the subscribers.
func setupMixed(ctx context.Context, r *rig, o mixedOptions) (*mixedRun, error) {
	m := &mixedRun{r: r, opts: o, paid: map[string]time.Time{}, series: newSeries(o.bucket)}
	other, otherKey, err := r.secondAccount(ctx)
	if err != nil {
		return m, err
	}
	link, err := r.paymentLink(ctx)
	if err != nil {
		return m, err
	}
	subs, err := r.subaccounts(ctx)
	if err != nil {
		return m, err
	}
	m.hooks = newHookReceiver()
	raw, err := r.postData(ctx, "/v1/webhooks/create", map[string]any{
		"url": m.hooks.srv.URL + "/hooks", "events": []string{"payment.paid"}, "description": "mixed run receiver"})
	if err != nil {
		return m, fmt.Errorf("webhook endpoint: %w", err)
	}
	var ep struct{ Secret string }
	if err := json.Unmarshal(raw, &ep); err != nil || ep.Secret == "" {
		return m, fmt.Errorf("webhook endpoint: %s %v", raw, err)
	}
	m.hooks.setSecret(ep.Secret)
	for range o.subscribers {
		w, err := dialWatcher(ctx, r)
		if err != nil {
			return m, err
		}
		m.subs = append(m.subs, w)
	}
	one := func(step string, call func(ctx context.Context, i int) error) func(context.Context, int, time.Time, stepRecorder) {
		return func(ctx context.Context, i int, at time.Time, rec stepRecorder) { rec(step, at, call(ctx, i)) }
	}
	m.kinds = []mixedKind{
		{"charge", 4, m.charge},
		{"PIX out", 1, one("PIX out", func(ctx context.Context, i int) error {
			return r.post(ctx, "/v1/transfer-pix/create", map[string]any{"amount": 1, "pixKey": fmt.Sprintf("mixed%d@example.com", i),
				"pixKeyType": "EMAIL", "description": fmt.Sprintf("Mixed saque %d", i)})
		})},
		{"internal transfer", 2, one("internal transfer", func(ctx context.Context, i int) error {
			body := map[string]any{"amount": 0.01, "description": fmt.Sprint(i)}
			if i%2 == 0 {
				body["recipientEmail"] = other.Email
				return r.post(ctx, "/v1/transfer-internal/create", body)
			}
			body["recipientEmail"] = r.email
			return r.postAs(ctx, otherKey, "/v1/transfer-internal/create", body)
		})},
		{"sub-account transfer", 1, one("sub-account transfer", func(ctx context.Context, i int) error {
			return r.post(ctx, "/v1/subaccount/transfer", map[string]any{"fromSubaccountId": subs[i%2], "toSubaccountId": subs[1-i%2],
				"amount": 0.01, "description": "mixed", "externalReference": fmt.Sprintf("mixed-sub-%d", m.seq.Add(1))})
		})},
		{"billing", 1, one("billing", func(ctx context.Context, i int) error {
			method := []string{"PIX", "BOLETO"}[i%2]
			return r.post(ctx, "/v1/billings/create", map[string]any{"method": method, "amount": 25,
				"customer": map[string]any{"name": "Maria Silva", "taxId": "52998224725"}})
		})},
		{"checkout", 1, one("checkout", func(ctx context.Context, i int) error {
			return r.post(ctx, "/v1/payment-links/checkout", map[string]any{"linkId": link, "method": "PIX"})
		})},
	}
	m.plan = interleave(m.kinds)
	return m, nil
}

// interleave spreads each kind's weight over one cycle of arrivals, so
// that every stretch of the load carries the mix (4,1,2,1,1,1 gives charge,
// PIX out, internal, sub-account, billing, checkout, charge, internal,
// charge, charge).
func interleave(kinds []mixedKind) []int {
	var plan []int
	for round := 0; ; round++ {
		added := false
		for k, kind := range kinds {
			if round < kind.weight {
				plan = append(plan, k)
				added = true
			}
		}
		if !added {
			return plan
		}
	}
}

// charge creates a charge and pays it through the sandbox; its
// payment.paid is then owed to the webhook receiver and to every
// subscriber.
func (m *mixedRun) charge(ctx context.Context, i int, at time.Time, rec stepRecorder) {
	id, err := m.r.createChargeID(ctx, i)
	rec("charge create", at, err)
	if err != nil {
		return
	}
	began := time.Now()
	err = m.r.post(ctx, "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{})
	rec("charge pay", began, err)
	if err == nil {
		m.mu.Lock()
		m.paid[id] = began
		m.mu.Unlock()
	}
}

// probe runs the mix closed-loop at concurrency c for d, then waits for
// what its arrivals owe (each paid charge's payment.paid frame on the first
// subscriber and its webhook), and returns the arrivals per second over
// that whole time: the rate the split sustains, answers and the workflows
// behind them. Answers alone come back long before their workflows run: at
// half the answered rate (137/s on the quiet machine) Temporal fell
// minutes behind in the first quiet 10-minute run. Its charges are checked
// with the run's.
func (m *mixedRun) probe(ctx context.Context, c int, d time.Duration) float64 {
	var next, done atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	noop := func(string, time.Time, error) {}
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(start) < d && ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				m.kinds[m.plan[i%len(m.plan)]].do(ctx, int(m.seq.Add(1)), time.Now(), noop)
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	answered := float64(done.Load()) / time.Since(start).Seconds()
	m.mu.Lock()
	owed := make([]string, 0, len(m.paid))
	for id := range m.paid {
		owed = append(owed, id)
	}
	m.mu.Unlock()
	for deadline := time.Now().Add(10 * time.Minute); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(20 * time.Millisecond) {
		if got, _, _, _, _ := m.hooks.count(owed, 1); got >= len(owed) && m.subs[0].sawAll(owed) {
			break
		}
	}
	took := time.Since(start)
	fmt.Printf("probe: %d arrivals answered at %.1f/s; their payments reached the WebSocket and the webhook %.1f s after the probe began\n",
		done.Load(), answered, took.Seconds())
	return float64(done.Load()) / took.Seconds()
}

// maxInFlight bounds the open loop: an arrival that finds this many still
// running is not sent and is counted, so that a stall shows as refused
// arrivals instead of an unbounded pile of goroutines in the bench itself.
const maxInFlight = 512

// drive runs the open loop: one arrival every 1/rate s for the run's
// duration, each in its own goroutine, the kinds in plan order. It samples
// every process at each bucket boundary through sample, and returns the
// arrivals issued and those not sent.
func (m *mixedRun) drive(ctx context.Context, rate float64, sample func(at time.Duration)) (issued, notSent int) {
	interval := time.Duration(float64(time.Second) / rate)
	sem := make(chan struct{}, maxInFlight)
	var wg sync.WaitGroup
	m.start = time.Now()
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(m.opts.bucket)
		defer tick.Stop()
		for {
			select {
			case <-stopSampling:
				return
			case <-tick.C:
				sample(time.Since(m.start))
			}
		}
	}()
	for i := 0; ; i++ {
		at := m.start.Add(time.Duration(i) * interval)
		if at.Sub(m.start) >= m.opts.duration || ctx.Err() != nil {
			break
		}
		if d := time.Until(at); d > 0 {
			time.Sleep(d)
		}
		select {
		case sem <- struct{}{}:
		default:
			notSent++
			continue
		}
		issued++
		wg.Add(1)
		go func(i int, at time.Time) {
			defer wg.Done()
			defer func() { <-sem }()
			rec := func(step string, began time.Time, err error) {
				m.series.add(step, at.Sub(m.start), time.Since(began), err)
			}
			m.kinds[m.plan[i%len(m.plan)]].do(ctx, int(m.seq.Add(1)), at, rec)
		}(i, at)
	}
	wg.Wait()
	close(stopSampling)
	<-sampled
	return issued, notSent
}
