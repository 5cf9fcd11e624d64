package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/money"
)

// startWorker runs a worker-only process on cfg's database and task queue.
func startWorker(t *testing.T, c func() *app.App) *app.App {
	t.Helper()
	a := c()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestConcurrentMoneyMovementSurvivesWorkerRestart issues PIX outs, internal
// transfers and refunds from many goroutines on the same accounts while the
// worker is stopped and restarted mid-way. Afterwards every accepted
// operation has posted exactly once, every rejected one not at all, no
// balance went negative and the ledger check passes.
func TestConcurrentMoneyMovementSurvivesWorkerRestart(t *testing.T) {
	t.Parallel() // its own app: auto-settle, a restarted worker and database-wide posting counts
	cfg := testConfig(t)
	cfg.SandboxAutoSettle, cfg.SandboxSettle = true, 300*time.Millisecond
	api := startApp(t, cfg, app.Options{API: true})
	newWorker := func() *app.App {
		a, err := app.New(context.Background(), cfg, app.Options{Worker: true, Temporal: temporalClient})
		if err != nil {
			t.Fatal(err)
		}
		limitIdle(a)
		return a
	}
	w := startWorker(t, newWorker)

	a, b := api.merchant(), api.merchant()
	// Little enough money that some operations must be refused.
	api.fund(a, 120)
	api.fund(b, 120)
	var deposits []string
	for range 4 {
		id, _ := api.paidCharge(a, 20) // a keeps 19.50 each, locked
		deposits = append(deposits, id)
	}

	type op struct {
		kind   string
		from   merchant
		amount money.Cents // what the sender's available loses when it settles
		ok     bool
	}
	var mu sync.Mutex
	var ops []op
	record := func(o op) {
		mu.Lock()
		ops = append(ops, o)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	issue := func(n int) {
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				from, to := a, b
				if rand.IntN(2) == 0 {
					from, to = b, a
				}
				switch i % 3 {
				case 0:
					r := api.call(from.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 15, "pixKey": fmt.Sprintf("x%d@example.com", i), "pixKeyType": "EMAIL"})
					record(op{kind: "pix", from: from, amount: 1550, ok: r.Status == 200})
					if r.Status != 200 && r.Status != 400 {
						t.Errorf("pix out: %d %s", r.Status, r.Message)
					}
				case 1:
					r := api.call(from.Key, "POST", "/v1/transfer-internal/create", map[string]any{"amount": 7.77, "recipientEmail": to.Email})
					record(op{kind: "internal", from: from, amount: 777, ok: r.Status == 200})
					if r.Status != 200 && r.Status != 400 {
						t.Errorf("internal: %d %s", r.Status, r.Message)
					}
				default:
					r := api.call(a.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": deposits[i%len(deposits)], "amount": 20})
					record(op{kind: "refund", from: a, amount: 2000, ok: r.Status == 200})
					if r.Status != 200 && r.Status != 400 {
						t.Errorf("refund: %d %s", r.Status, r.Message)
					}
				}
			}()
		}
	}
	issue(30)
	wg.Wait()
	// The worker dies mid-flight; the API keeps accepting work meanwhile.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	w.Shutdown(ctx)
	cancel()
	issue(30)
	wg.Wait()
	w = startWorker(t, newWorker)
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		w.Shutdown(ctx)
	}()

	// Everything settles: no money stays reserved. An activity task the
	// stopped worker had taken is not reported: Temporal retries it only
	// after its StartToClose timeout (30 s for the money activities), so
	// the wait allows for that and more.
	eventuallyWithin(t, 90*time.Second, "every reserve to settle", func() bool {
		return api.balance(a)["pending"] == 0.0 && api.balance(b)["pending"] == 0.0
	})
	want := map[string]money.Cents{a.ID: 12000 + 4*1950, b.ID: 12000}
	count := map[string]int{}
	for _, o := range ops {
		if !o.ok {
			continue
		}
		count[o.kind]++
		want[o.from.ID] -= o.amount
		if o.kind == "internal" {
			other := a
			if o.from.ID == a.ID {
				other = b
			}
			want[other.ID] += o.amount
		}
	}
	if count["refund"] > len(deposits) || count["pix"]+count["internal"] == 40 {
		t.Fatalf("accepted %v: refunds beyond %d deposits, or no refusal at all", count, len(deposits))
	}
	for _, m := range []merchant{a, b} {
		got := api.balance(m)["available"].(float64)
		if money.Cents(got*100+0.5) != want[m.ID] {
			t.Errorf("%s available %.2f, want %s (ops %v)", m.Email, got, want[m.ID], count)
		}
	}
	var settled, refunded int
	api.app.DB.Get(&settled, `SELECT count(*) FROM ledger_transactions WHERE idempotency_key LIKE 'transfer:%:settle'`)
	api.app.DB.Get(&refunded, `SELECT count(*) FROM ledger_transactions WHERE idempotency_key LIKE 'refund:%:settle'`)
	if settled != count["pix"] || refunded != count["refund"] {
		t.Fatalf("postings: %d PIX settlements for %d accepted, %d refund settlements for %d accepted", settled, count["pix"], refunded, count["refund"])
	}
	t.Logf("accepted: %v of %d operations", count, len(ops))
	api.verifyLedger()
}
