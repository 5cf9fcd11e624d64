package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
)

// check is one line of the verdict.
type check struct {
	name string
	ok   bool
	info string
}

func (c check) String() string {
	v := "PASS"
	if !c.ok {
		v = "FAIL"
	}
	return fmt.Sprintf("%s  %-34s %s", v, c.name, c.info)
}

// checker reads the soak database and compares it with the driver's record.
type checker struct {
	d         *sqlx.DB
	merchants []merchant
	ops       []*op
	kills     []time.Time // worker SIGKILLs, to explain webhook resends
}

// statuses reads the status of every resource the load made (and, for a
// deposit with a refund, the refund's status under "<id>/refund").
func (k *checker) statuses(ctx context.Context) (map[string]string, error) {
	var ids []string
	for _, o := range k.ops {
		if o.id != "" {
			ids = append(ids, o.id)
		}
	}
	var rows []struct {
		ID     string  `db:"id"`
		Status string  `db:"status"`
		Refund *string `db:"refund"`
	}
	// The products' records live in tables of their own; a billing's
	// refunds are statement lines naming it ("<billing>/refunds": their
	// statuses, sorted).
	err := k.d.SelectContext(ctx, &rows, `SELECT id, status, details->'refund'->>'status' AS refund FROM transactions WHERE id = ANY($1)
		UNION ALL SELECT id, status, NULL FROM billings WHERE id = ANY($1)
		UNION ALL SELECT id, status, NULL FROM checkout_sessions WHERE id = ANY($1)
		UNION ALL SELECT id, status, NULL FROM subscriptions WHERE id = ANY($1)
		UNION ALL SELECT id, status, NULL FROM pix_automatic_authorizations WHERE id = ANY($1)
		UNION ALL SELECT id, status, NULL FROM dunnings WHERE id = ANY($1)
		UNION ALL SELECT id, status, NULL FROM bureau_reports WHERE id = ANY($1)
		UNION ALL SELECT reference_id || '/refunds', string_agg(status, ',' ORDER BY status), NULL FROM transactions
			WHERE type = 'BILLING_REFUND' AND reference_id = ANY($1) GROUP BY reference_id`, pq.StringArray(ids))
	out := map[string]string{}
	for _, r := range rows {
		out[r.ID] = r.Status
		if r.Refund != nil {
			out[r.ID+"/refund"] = *r.Refund
		}
	}
	return out, err
}

// pendingFinal lists the accepted operations whose resource is not yet in
// its wanted final state.
func (k *checker) pendingFinal(ctx context.Context) ([]string, error) {
	st, err := k.statuses(ctx)
	if err != nil {
		return nil, err
	}
	refunded := map[string]bool{} // a paid charge refunded ends REVERSED, a billing REFUNDED
	for _, o := range k.ops {
		if (o.kind == opRefund || o.kind == opBillRefund) && o.accepted {
			refunded[o.id] = true
		}
	}
	var bad []string
	for _, o := range k.ops {
		if !o.accepted || o.want == "" { // a schedule, a sub-account: no record to settle
			continue
		}
		got, want := st[o.id], o.want
		if o.kind == opCharge && refunded[o.id] {
			want = "REVERSED"
		}
		if productKinds[o.kind] && strings.HasPrefix(o.kind, "billing ") && refunded[o.id] {
			want = "REFUNDED"
		}
		// want may name alternatives ("COMPLETED|CANCELED": a race either
		// side may win).
		ok := false
		for _, w := range strings.Split(want, "|") {
			ok = ok || got == w
		}
		switch o.kind {
		case opRefund:
			ok = got == "REVERSED" && st[o.id+"/refund"] == "COMPLETED"
			got += "/refund " + st[o.id+"/refund"]
		case opBillRefund, opBillRefundNo: // every line of the billing final, one of them want
			lines := st[o.id+"/refunds"]
			ok = !strings.Contains(lines, "PENDING") && strings.Contains(lines, o.want)
			got = "refund lines " + lines
		}
		if !ok {
			bad = append(bad, fmt.Sprintf("%s %s is %q, want %s", o.kind, o.id, got, want))
		}
	}
	return bad, nil
}

// finalStates waits (bounded) until every accepted operation is final.
func (k *checker) finalStates(ctx context.Context, within time.Duration) check {
	start := time.Now()
	var bad []string
	var err error
	for {
		bad, err = k.pendingFinal(ctx)
		if err == nil && len(bad) == 0 || time.Since(start) > within || ctx.Err() != nil {
			break
		}
		pause(ctx, 500*time.Millisecond)
	}
	n := 0
	for _, o := range k.ops {
		if o.accepted {
			n++
		}
	}
	if err != nil {
		return check{"accepted operations final", false, err.Error()}
	}
	if len(bad) > 0 {
		return check{"accepted operations final", false, fmt.Sprintf("%d of %d not final after %v:%s", len(bad), n, within, sample(bad))}
	}
	return check{"accepted operations final", true, fmt.Sprintf("%d of %d in their final state (%.1f s after the load)", n, n, time.Since(start).Seconds())}
}

// definite reports the operations that never got a definite answer.
func (k *checker) definite() check {
	var bad []string
	for _, o := range k.ops {
		if o.unresolved != "" {
			bad = append(bad, o.kind+": "+o.unresolved)
		}
	}
	return check{"every request answered", len(bad) == 0, fmt.Sprintf("%d operations, %d without a definite answer after retries%s", len(k.ops), len(bad), sample(bad))}
}

// ledger runs the ledger's own invariant check.
func (k *checker) ledger(ctx context.Context) check {
	problems, err := db.VerifyLedger(ctx, k.d)
	if err != nil {
		return check{"ledger invariant", false, err.Error()}
	}
	var n int
	k.d.GetContext(ctx, &n, `SELECT count(*) FROM ledger_transactions`)
	return check{"ledger invariant", len(problems) == 0, fmt.Sprintf("%d ledger transactions, %d violations%s", n, len(problems), sample(problems))}
}

// balances compares every merchant's balances with the accepted operations.
func (k *checker) balances(ctx context.Context) check {
	want := map[int]int64{}
	for i := range k.merchants {
		want[i] = funding
	}
	for _, o := range k.ops {
		for i, v := range o.effect() {
			want[i] += v
		}
	}
	var bad []string
	var total, wantTotal int64
	for i, m := range k.merchants {
		wantTotal += want[i]
		var avail, pending int64
		k.d.GetContext(ctx, &avail, `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE id = $1), 0)`, m.ID+":available")
		k.d.GetContext(ctx, &pending, `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE id = $1), 0)`, m.ID+":pending")
		total += avail
		if avail != want[i] || pending != 0 {
			bad = append(bad, fmt.Sprintf("merchant %d: available %s (want %s), pending %s (want 0)", i, brl(avail), brl(want[i]), brl(pending)))
		}
	}
	return check{"balances = accepted operations", len(bad) == 0, fmt.Sprintf("%d merchants: available %s in all, %s expected from funding and accepted operations, pending 0 expected%s", len(k.merchants), brl(total), brl(wantTotal), sample(bad))}
}

// once checks nothing happened twice: one resource per accepted create
// (retries with the same Idempotency-Key converged) and one event per
// resource and event type (one transition, one posting, one event).
func (k *checker) once(ctx context.Context) check {
	want := map[string]int{}
	for _, o := range k.ops {
		if o.id == "" {
			continue
		}
		switch o.kind {
		case opCharge, opExpire:
			want[domain.TypePixIn]++
		case opPixOut, opPixFail:
			want[domain.TypePixOut]++
		case opInternal:
			want[domain.TypeInternalOut]++
		case opRefund:
			if o.accepted {
				want[domain.TypeRefund]++
			}
		case opCheckout, opCheckoutExp, opBillPix: // an ordinary charge of its own
			want[domain.TypePixIn]++
		case opMED:
			want[domain.TypeMED]++
		case opRecharge:
			want[domain.TypeMobileRecharge]++
		case opCryptoIn:
			want[domain.TypeCryptoIn]++
		case opCryptoOut:
			want[domain.TypeCryptoOut]++
		}
	}
	var ids []string
	for _, m := range k.merchants {
		ids = append(ids, m.ID)
	}
	var rows []struct {
		Type string `db:"type"`
		N    int    `db:"n"`
	}
	var bad []string
	if err := k.d.SelectContext(ctx, &rows, `SELECT type, count(*) AS n FROM transactions WHERE account_id = ANY($1) GROUP BY type`, pq.StringArray(ids)); err != nil {
		return check{"nothing twice", false, err.Error()}
	}
	got := map[string]int{}
	for _, r := range rows {
		got[r.Type] = r.N
	}
	for _, t := range []string{domain.TypePixIn, domain.TypePixOut, domain.TypeInternalOut, domain.TypeRefund,
		domain.TypeMED, domain.TypeMobileRecharge, domain.TypeCryptoIn, domain.TypeCryptoOut} {
		if got[t] != want[t] {
			bad = append(bad, fmt.Sprintf("%d %s records for %d accepted creates", got[t], t, want[t]))
		}
	}
	var dups []string
	if err := k.d.SelectContext(ctx, &dups, `SELECT resource_id || ' ' || type || ' ×' || count(*) FROM events
		GROUP BY resource_id, type HAVING count(*) > 1`); err != nil {
		return check{"nothing twice", false, err.Error()}
	}
	bad = append(bad, dups...)
	return check{"nothing posted twice", len(bad) == 0, fmt.Sprintf("records %v, %d duplicate events%s", got, len(dups), sample(bad))}
}

// soakEvents are the soak accounts' events.
func (k *checker) soakEvents(ctx context.Context) ([]domain.Event, error) {
	evs, err := db.EventsAfterSeq(ctx, k.d, 0, 1_000_000)
	return evs, err
}

// webhooks waits (bounded) until every event reached its account's
// endpoint, then checks: one delivery id per event and endpoint, each
// received, nothing unknown, nothing badly signed, and a delivery id posted
// twice only when a worker was SIGKILLed between the two posts (the
// attempt's result was lost with the worker) or an attempt is recorded as
// failed (the sender timed out before the receiver's 200 reached it): then
// it is sent again with the same id, at least once, as receivers are told
// to expect.
func (k *checker) webhooks(ctx context.Context, r *receiver, within time.Duration) check {
	start := time.Now()
	var missing []string
	var want map[string]domain.Event
	for {
		evs, err := k.soakEvents(ctx)
		if err != nil {
			return check{"webhooks once per delivery id", false, err.Error()}
		}
		hooks := map[string]string{}
		for _, m := range k.merchants {
			hooks[m.ID] = m.HookID
		}
		want = map[string]domain.Event{}
		for _, ev := range evs {
			if h := hooks[ev.AccountID]; h != "" {
				want[webhook.DeliveryID(ev.ID, h)] = ev
			}
		}
		got, _ := r.snapshot()
		missing = missing[:0]
		for id, ev := range want {
			if _, ok := got[id]; !ok {
				missing = append(missing, ev.Type+" "+ev.ResourceID)
			}
		}
		// Done when every delivery id arrived and the database has every
		// delivery DELIVERED: an attempt lost with a SIGKILLed worker is
		// PENDING until Temporal times it out and it is sent again.
		var undelivered int
		k.d.GetContext(ctx, &undelivered, `SELECT count(*) FROM webhook_deliveries WHERE status <> 'DELIVERED'`)
		if len(missing) == 0 && undelivered == 0 || time.Since(start) > within || ctx.Err() != nil {
			break
		}
		pause(ctx, 500*time.Millisecond)
	}
	got, badSig := r.snapshot()
	var unknown, dups, resent []string
	for id, d := range got {
		if _, ok := want[id]; !ok {
			unknown = append(unknown, id)
		}
		if len(d.posts) > 1 {
			if k.killedBetween(d.posts[0], d.posts[len(d.posts)-1]) || k.failedAttempt(ctx, id) {
				resent = append(resent, fmt.Sprintf("%s %s ×%d", d.event, d.dataID, len(d.posts)))
			} else {
				dups = append(dups, fmt.Sprintf("%s %s %s ×%d", id, d.event, d.dataID, len(d.posts)))
			}
		}
	}
	var undelivered int
	k.d.GetContext(ctx, &undelivered, `SELECT count(*) FROM webhook_deliveries WHERE status <> 'DELIVERED'`)
	ok := len(missing) == 0 && len(unknown) == 0 && len(dups) == 0 && badSig == 0 && undelivered == 0
	info := fmt.Sprintf("%d events, %d delivery ids received, %d missing%s, %d unknown, %d posted twice with 2xx without a SIGKILL or failed attempt between%s, %d resent after a SIGKILL or a failed attempt%s, %d badly signed, %d deliveries not DELIVERED in the database",
		len(want), len(got)-len(unknown), len(missing), sample(missing), len(unknown), len(dups), sample(dups), len(resent), sample(resent), badSig, undelivered)
	return check{"webhooks once per delivery id", ok, info}
}

// failedAttempt reports whether the delivery has an attempt recorded
// without a 2xx: the sender did not see the receiver's answer (its own
// timeout), so it sent again, with the same id.
func (k *checker) failedAttempt(ctx context.Context, deliveryID string) bool {
	var n int
	k.d.GetContext(ctx, &n, `SELECT count(*) FROM webhook_attempts WHERE delivery_id = $1 AND (status_code IS NULL OR status_code NOT BETWEEN 200 AND 299)`, deliveryID)
	return n > 0
}

// killedBetween reports whether a worker was SIGKILLed between a and b.
func (k *checker) killedBetween(a, b time.Time) bool {
	for _, t := range k.kills {
		if !t.Before(a) && !t.After(b) {
			return true
		}
	}
	return false
}

// sample shows the first few items of a list.
func sample(items []string) string {
	if len(items) == 0 {
		return ""
	}
	if len(items) > 3 {
		return fmt.Sprintf(" [%s, … %d more]", strings.Join(items[:3], "; "), len(items)-3)
	}
	return " [" + strings.Join(items, "; ") + "]"
}

// brl formats centavos.
func brl(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%sR$ %d.%02d", sign, c/100, c%100)
}
