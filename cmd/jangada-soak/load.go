package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Operation kinds the load mixes.
const (
	opCharge   = "charge paid"       // create + sandbox pay → COMPLETED
	opExpire   = "charge expired"    // create + sandbox expire → CANCELED
	opPixOut   = "PIX out"           // → COMPLETED (the sandbox settles it)
	opPixFail  = "PIX out failing"   // to fail@sandbox.jangada → FAILED
	opRefund   = "refund"            // of a paid charge → deposit REVERSED
	opInternal = "internal transfer" // → COMPLETED at once
	// The scenarios' kinds (scenarios.go): a sub-account move debits or
	// credits the main account against the sub-account; a schedule and a
	// sub-account create move no money.
	opSubAdd    = "sub-account add"    // main → sub, COMPLETED at once
	opSubRemove = "sub-account remove" // sub → main, COMPLETED at once
	opSchedule  = "schedule create"    // ONCE, hours ahead: never runs in the soak
	opSubCreate = "sub-account create"
	pixInFee    = 50                   // R$ 0.50, set on every soak account
	pixOutFee   = 50                   // R$ 0.50
	funding     = int64(100_000 * 100) // R$ 100,000 per account
)

// op is one operation the driver issued, with the answer it got.
type op struct {
	kind     string
	id       string // the resource (charge, transfer, deposit for a refund)
	from, to int    // merchant indexes (to: internal transfers only)
	amount   int64  // centavos
	fee      int64  // PIX out fee as answered
	// sub is the sub-account whose wallet the operation credits or debits
	// (a charge into it, a PIX out or refund from it, a move): its money
	// is checked per sub-account (scenarios.go), not on the main account.
	sub      string
	accepted bool // every step answered 2xx
	// product is a kind of products.go: what it did to the balance is read
	// from its records once final (delta, set by prodDeltas).
	product bool
	delta   int64
	// ref is a second resource of the operation (a checkout's charge).
	ref string
	// want is the final status the resource must reach when accepted.
	want string
	// refused is a definite 4xx; unresolved is no definite answer.
	refused, unresolved string
}

// effect is what an accepted operation does to each merchant's available
// balance once final.
func (o *op) effect() map[int]int64 {
	if !o.accepted {
		return nil
	}
	if o.product {
		return map[int]int64{o.from: o.delta}
	}
	switch o.kind {
	case opSubAdd:
		return map[int]int64{o.from: -o.amount}
	case opSubRemove:
		return map[int]int64{o.from: o.amount}
	}
	if o.sub != "" {
		return nil
	}
	switch o.kind {
	case opCharge:
		return map[int]int64{o.from: o.amount - pixInFee}
	case opPixOut:
		return map[int]int64{o.from: -(o.amount + o.fee)}
	case opRefund: // what the merchant kept of the deposit plus the PIX out fee
		return map[int]int64{o.from: -(o.amount - pixInFee + pixOutFee)}
	case opInternal:
		return map[int]int64{o.from: -o.amount, o.to: o.amount}
	}
	return nil
}

// driver issues the mixed load and records every operation.
type driver struct {
	c         *client
	merchants []merchant
	seq       atomic.Int64

	mu   sync.Mutex
	ops  []*op
	paid map[int][]*op // accepted paid charges not refunded yet, by merchant
}

func (d *driver) record(o *op) {
	d.mu.Lock()
	d.ops = append(d.ops, o)
	if o.kind == opCharge && o.accepted {
		d.paid[o.from] = append(d.paid[o.from], o)
	}
	d.mu.Unlock()
}

// run drives the load from workers goroutines until ctx ends, with a
// short pacing pause between operations (load shaping, not a wait).
func (d *driver) run(ctx context.Context, workers int, pacing time.Duration) {
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				d.one(ctx)
				pause(ctx, pacing)
			}
		}()
	}
	wg.Wait()
}

// one issues one operation of a random kind. An operation started is
// finished even if ctx ends meanwhile (on a background context), so that
// the record is complete.
func (d *driver) one(ctx context.Context) {
	if ctx.Err() != nil {
		return
	}
	bg := context.Background()
	n := d.seq.Add(1)
	from := rand.IntN(len(d.merchants))
	switch r := rand.IntN(100); {
	case r < 35:
		d.charge(bg, n, from, true)
	case r < 40:
		d.charge(bg, n, from, false)
	case r < 58:
		d.pixOut(bg, n, from, false)
	case r < 63:
		d.pixOut(bg, n, from, true)
	case r < 78:
		if !d.refund(bg, n) {
			d.charge(bg, n, from, true)
		}
	case r < 95:
		d.internal(bg, n, from)
	default:
		d.internalBurst(bg, from)
	}
}

// burst is how many internal transfers internalBurst sends at once.
const burst = 4

// internalBurst sends burst internal transfers out of one merchant at
// once: they meet in the api processes' group commit as one batch (one
// statement, one commit), so the faults cut batches of several moves, not
// only moves alone, and the checks see every member once or not at all.
func (d *driver) internalBurst(ctx context.Context, from int) {
	var wg sync.WaitGroup
	for range burst {
		n := d.seq.Add(1)
		wg.Go(func() { d.internal(ctx, n, from) })
	}
	wg.Wait()
}

// idem is the operation's Idempotency-Key: the same on every retry.
func idem(n int64) string { return fmt.Sprintf("soak-%d", n) }

func (d *driver) charge(ctx context.Context, n int64, from int, pay bool) {
	m := d.merchants[from]
	o := &op{kind: opCharge, from: from, amount: int64(500 + rand.IntN(4500))}
	if !pay {
		o.kind = opExpire
	}
	defer d.record(o)
	a, err := d.c.call(ctx, "POST", "/v1/payment-pix/create", m.Key, idem(n), map[string]any{
		"amount": cents(o.amount), "description": fmt.Sprintf("Soak pedido %d", n)})
	if !d.settle(o, a, err) {
		return
	}
	var c struct{ ID string }
	json.Unmarshal(a.data, &c)
	o.id = c.ID
	action, want := "pay", "COMPLETED"
	if !pay {
		action, want = "expire", "CANCELED"
	}
	o.want = want
	a, err = d.c.call(ctx, "POST", "/v1/sandbox/payment-pix/"+o.id+"/"+action, m.Key, "", map[string]any{})
	// A retry after an attempt that reached the workflow finds the charge
	// no longer PENDING: the earlier attempt was the one that counted.
	if err == nil && a.status == 400 && strings.Contains(a.message, want) {
		a.status = 200
	}
	d.settle(o, a, err)
}

func (d *driver) pixOut(ctx context.Context, n int64, from int, failing bool) {
	m := d.merchants[from]
	o := &op{kind: opPixOut, from: from, amount: int64(100 + rand.IntN(900)), want: "COMPLETED"}
	key := fmt.Sprintf("soak%d@example.com", n)
	if failing {
		o.kind, o.want, key = opPixFail, "FAILED", "fail@sandbox.jangada"
	}
	defer d.record(o)
	a, err := d.c.call(ctx, "POST", "/v1/transfer-pix/create", m.Key, idem(n), map[string]any{
		"amount": cents(o.amount), "pixKey": key, "pixKeyType": "EMAIL", "description": fmt.Sprintf("Soak saque %d", n)})
	if d.settle(o, a, err) {
		var t struct {
			ID        string
			FeeAmount float64
		}
		json.Unmarshal(a.data, &t)
		o.id, o.fee = t.ID, int64(t.FeeAmount*100+0.5)
	}
}

// refund refunds a paid charge whose payment completed; false when none
// is ready yet.
func (d *driver) refund(ctx context.Context, n int64) bool {
	d.mu.Lock()
	var pick *op
	for from, list := range d.paid {
		if len(list) > 0 {
			pick = list[0]
			d.paid[from] = list[1:]
			break
		}
	}
	d.mu.Unlock()
	if pick == nil {
		return false
	}
	m := d.merchants[pick.from]
	a, err := d.c.call(ctx, "GET", "/v1/payment-pix/status/"+pick.id, m.Key, "", nil)
	var st struct{ Status string }
	if err == nil && a.ok() {
		json.Unmarshal(a.data, &st)
	}
	if st.Status != "COMPLETED" { // not settled yet: keep it for later
		d.mu.Lock()
		d.paid[pick.from] = append(d.paid[pick.from], pick)
		d.mu.Unlock()
		return false
	}
	o := &op{kind: opRefund, id: pick.id, from: pick.from, amount: pick.amount, want: "REVERSED"}
	defer d.record(o)
	a, err = d.c.call(ctx, "POST", "/v1/refunds/create", m.Key, idem(n), map[string]any{
		"transactionId": pick.id, "amount": cents(pick.amount), "description": "Soak devolução"})
	d.settle(o, a, err)
	return true
}

func (d *driver) internal(ctx context.Context, n int64, from int) {
	to := (from + 1 + rand.IntN(len(d.merchants)-1)) % len(d.merchants)
	o := &op{kind: opInternal, from: from, to: to, amount: int64(1 + rand.IntN(500)), want: "COMPLETED"}
	defer d.record(o)
	a, err := d.c.call(ctx, "POST", "/v1/transfer-internal/create", d.merchants[from].Key, idem(n), map[string]any{
		"amount": cents(o.amount), "recipientEmail": d.merchants[to].Email, "description": fmt.Sprintf("Soak interna %d", n),
		"externalReference": idem(n)})
	if d.settle(o, a, err) {
		var t struct{ ID string }
		json.Unmarshal(a.data, &t)
		o.id = t.ID
	}
}

// settle records one step's answer on o and reports whether it was a 2xx.
func (d *driver) settle(o *op, a answer, err error) bool {
	switch {
	case err != nil:
		o.accepted, o.unresolved = false, err.Error()
	case !a.ok():
		o.accepted, o.refused = false, fmt.Sprintf("HTTP %d %s", a.status, a.message)
	default:
		o.accepted = true
		return true
	}
	return false
}

// cents is an amount in BRL for the wire.
func cents(c int64) float64 { return float64(c) / 100 }

// counts summarises the operations by kind: accepted, refused, unresolved.
func (d *driver) counts() (map[string][3]int, []*op) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return countByKind(d.ops), append([]*op(nil), d.ops...)
}

// countByKind counts operations per kind: accepted, refused, and neither
// (no definite answer).
func countByKind(ops []*op) map[string][3]int {
	out := map[string][3]int{}
	for _, o := range ops {
		c := out[o.kind]
		switch {
		case o.accepted:
			c[0]++
		case o.refused != "":
			c[1]++
		default:
			c[2]++
		}
		out[o.kind] = c
	}
	return out
}
