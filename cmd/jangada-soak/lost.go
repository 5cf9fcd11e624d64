package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jmoiron/sqlx"
)

// lostKinds are the creates the lost-answer scenario goes through, in the
// order it cycles them: every create route the soak exercises.
var lostKinds = []string{opCharge, opPixOut, opRefund, opInternal, opSchedule, opSubCreate, opSubAdd, opSubRemove,
	opBillBoleto, opBillRefund, opSubscription, opCheckout, opPixAuto, opPixInstr, opRecharge, opReport, opCryptoIn, opCryptoOut}

// lostMayFallBack are the kinds that need an earlier resource (a paid
// charge or billing, an ACTIVE authorization) and go as a charge while
// there is none: a short run may not try them.
var lostMayFallBack = map[string]bool{opRefund: true, opBillRefund: true, opPixInstr: true}

// lostOp is one create whose first answer was lost.
type lostOp struct {
	o *op
	// mode is how the first answer was lost: "cancelled" (the client gave
	// up a few milliseconds after sending: the server may have done
	// nothing, part, or all of it) or "ignored" (the answer arrived and was
	// thrown away; its resource, when 2xx, is compared with the retries').
	mode string
	// fault is the fault the retries waited across ("" for none).
	fault   string
	firstOK bool
	problem string
}

// lostLoop issues lost-answer creates, cycling the kinds, until ctx ends.
func (s *scen) lostLoop(ctx context.Context) {
	pacing := 150 * time.Millisecond
	if s.quick {
		pacing = 300 * time.Millisecond
	}
	for i := 0; ctx.Err() == nil; i++ {
		s.lostOne(context.Background(), lostKinds[i%len(lostKinds)], "", nil, -1)
		pause(ctx, pacing)
	}
}

// lostRequest builds the create of kind (or, when kind cannot run now — no
// paid charge to refund yet, no money in the sub-account to remove, the
// schedule cap reached — a charge instead) and the operation it records.
func (s *scen) lostRequest(kind, key string, n int64) (string, any, *op) {
	if productKinds[kind] { // products.go: on their own accounts
		if path, body, o, ok := s.prodLostRequest(kind, key, n); ok {
			return path, body, o
		}
	}
	from := s.lostA
	s.mu.Lock()
	defer s.mu.Unlock()
	switch kind {
	case opRefund:
		if len(s.lostPaid) > 0 {
			dep := s.lostPaid[0]
			s.lostPaid = s.lostPaid[1:]
			return "/v1/refunds/create", map[string]any{"transactionId": dep.id, "amount": cents(dep.amount), "description": "Soak devolução perdida"},
				&op{kind: opRefund, id: dep.id, from: from, amount: dep.amount, want: "REVERSED"}
		}
	case opPixOut:
		a := int64(100 + rand.IntN(900))
		return "/v1/transfer-pix/create", map[string]any{"amount": cents(a), "pixKey": fmt.Sprintf("lost%d@example.com", n), "pixKeyType": "EMAIL",
			"description": fmt.Sprintf("Soak saque perdido %d", n)}, &op{kind: opPixOut, from: from, amount: a, want: "COMPLETED"}
	case opInternal:
		a := int64(1 + rand.IntN(500))
		return "/v1/transfer-internal/create", map[string]any{"amount": cents(a), "recipientEmail": s.ms[s.lostB].Email,
				"description": fmt.Sprintf("Soak interna perdida %d", n), "externalReference": key},
			&op{kind: opInternal, from: from, to: s.lostB, amount: a, want: "COMPLETED"}
	case opSchedule:
		if s.schedules < s.scheduleCap { // 20 active schedules at most per account
			s.schedules++
			return "/v1/transfer-scheduled/create", map[string]any{"triggerType": "ONCE", "label": key,
					"scheduledAt": time.Now().Add(6 * time.Hour).UTC().Format(time.RFC3339),
					"payload":     map[string]any{"method": "pix_padrao", "pixKey": "agendado@example.com", "pixKeyType": "EMAIL", "amount": 1.0}},
				&op{kind: opSchedule, from: from}
		}
	case opSubCreate:
		return "/v1/subaccount/create", pfBody(key), &op{kind: opSubCreate, from: from}
	case opSubAdd:
		a := int64(100 + rand.IntN(900))
		return "/v1/subaccount/add-balance", map[string]any{"id": s.lostSub, "amount": cents(a), "description": "Soak move perdido", "externalReference": key},
			&op{kind: opSubAdd, from: from, sub: s.lostSub, amount: a, want: "COMPLETED"}
	case opSubRemove:
		a := int64(1 + rand.IntN(100))
		if s.lostSubBal >= a {
			s.lostSubBal -= a // reserved here; given back if refused
			return "/v1/subaccount/remove-balance", map[string]any{"id": s.lostSub, "amount": cents(a), "description": "Soak move perdido", "externalReference": key},
				&op{kind: opSubRemove, from: from, sub: s.lostSub, amount: a, want: "COMPLETED"}
		}
	}
	a := int64(500 + rand.IntN(4500))
	return "/v1/payment-pix/create", map[string]any{"amount": cents(a), "description": fmt.Sprintf("Soak pedido perdido %d", n)},
		&op{kind: opCharge, from: from, amount: a}
}

// identity is what must be the same in every 2xx answer to one create: its
// resource id (a refund's deposit and the time the refund was requested;
// a charge's id and BR Code, which a retry answers from the stored row).
func identity(kind string, data json.RawMessage) string {
	if productKinds[kind] {
		return identityOf(kind, data)
	}
	var v struct {
		ID        string `json:"id"`
		CopyPaste string `json:"copyPaste"`
		Refund    *struct {
			RequestedAt string `json:"requestedAt"`
		} `json:"refund"`
	}
	json.Unmarshal(data, &v)
	switch kind {
	case opRefund:
		if v.Refund == nil || v.ID == "" {
			return ""
		}
		return v.ID + " refund requested at " + v.Refund.RequestedAt
	case opCharge:
		if v.ID == "" {
			return ""
		}
		return v.ID + " " + v.CopyPaste
	}
	return v.ID
}

// lostOne sends one create with an Idempotency-Key, loses its answer, and
// retries it (waiting for gate first, when set: a fault runs meanwhile),
// then replays it once more; api ≥ 0 sends the first attempt to that api
// process.
func (s *scen) lostOne(ctx context.Context, kind, fault string, gate <-chan struct{}, api int) {
	n := s.seq.Add(1)
	key := fmt.Sprintf("lost-%d", n)
	path, body, o := s.lostRequest(kind, key, n)
	m := s.ms[o.from]
	l := &lostOp{o: o, fault: fault, mode: "ignored"}
	if n%2 == 0 {
		l.mode = "cancelled"
	}
	defer func() {
		s.mu.Lock()
		s.lost = append(s.lost, l)
		s.ops = append(s.ops, o)
		if o.kind == opSubAdd && o.accepted {
			s.lostSubBal += o.amount
		}
		if o.kind == opSubRemove && !o.accepted {
			s.lostSubBal += o.amount
		}
		s.mu.Unlock()
	}()
	raw, _ := json.Marshal(body)
	if api < 0 {
		api = rand.IntN(len(s.c.apis))
	}
	first := ""
	s.c.attempts.Add(1)
	if l.mode == "cancelled" {
		cctx, cancel := context.WithTimeout(ctx, time.Duration(1+rand.IntN(60))*time.Millisecond)
		s.c.once(cctx, s.c.apis[api].HTTPAddr, "POST", path, m.Key, key, raw)
		cancel()
	} else if a, err := s.c.once(ctx, s.c.apis[api].HTTPAddr, "POST", path, m.Key, key, raw); err == nil && a.ok() {
		l.firstOK, first = true, identity(o.kind, a.data)
	}
	if gate != nil {
		<-gate
	}
	a, err := s.c.call(ctx, "POST", path, m.Key, key, body)
	if !settleOp(o, a, err) {
		l.problem = fmt.Sprintf("%s %s: the retry answered %s%s", o.kind, key, o.refused, o.unresolved)
		return
	}
	id := identity(o.kind, a.data)
	var v struct {
		ID        string
		FeeAmount float64
	}
	json.Unmarshal(a.data, &v)
	switch {
	case o.kind == opBillRefund: // its op names its billing
	case productKinds[o.kind]:
		o.id = resourceID(o.kind, a.data)
	case o.kind != opRefund: // a refund's op names its deposit
		o.id = v.ID
	}
	o.fee = int64(v.FeeAmount*100 + 0.5)
	switch {
	case id == "":
		l.problem = fmt.Sprintf("%s %s: the retry's 2xx names no resource", o.kind, key)
	case first != "" && first != id:
		l.problem = fmt.Sprintf("%s %s: the first attempt made %q, the retry answered %q", o.kind, key, first, id)
	}
	// A replay of the same create answers the same resource.
	a, err = s.c.call(ctx, "POST", path, m.Key, key, body)
	if err != nil || !a.ok() || identity(o.kind, a.data) != id {
		l.problem = fmt.Sprintf("%s %s: the replay answered HTTP %d %s %v (%q, want %q)", o.kind, key, a.status, a.message, err, identity(o.kind, a.data), id)
	}
	if productKinds[o.kind] && o.accepted {
		s.prodAfterLost(ctx, o, a.data)
		if !o.accepted { // its follow-up (a payment, an approval) was refused: say why
			l.problem = fmt.Sprintf("%s %s: the follow-up of %q answered %s%s", o.kind, key, id, o.refused, o.unresolved)
		}
	}
	if o.kind == opCharge {
		o.want = "COMPLETED"
		s.pay(ctx, o.from, o)
		if o.accepted && s.waitStatus(ctx, o.from, o.id, "COMPLETED", 2*time.Minute) {
			s.mu.Lock()
			s.lostPaid = append(s.lostPaid, o)
			s.mu.Unlock()
		}
	}
}

// lostCheck: every lost-answer create's retry and replay answered 2xx with
// the resource of any 2xx attempt; the database holds one schedule, one
// sub-account and one move per create (money and records of the other
// kinds are the common checks').
func (s *scen) lostCheck(ctx context.Context, d *sqlx.DB) check {
	s.mu.Lock()
	lost := append([]*lostOp(nil), s.lost...)
	s.mu.Unlock()
	var bad []string
	byKind := map[string]int{}
	accepted := map[string]int{}
	var cancelled, compared, across int
	faults := map[string]int{}
	for _, l := range lost {
		byKind[l.o.kind]++
		if l.o.accepted {
			accepted[l.o.kind]++
		}
		if l.problem != "" {
			bad = append(bad, l.problem)
		}
		if l.mode == "cancelled" {
			cancelled++
		}
		if l.firstOK {
			compared++
		}
		if l.fault != "" {
			across++
			faults[l.fault]++
		}
	}
	for _, k := range lostKinds {
		if byKind[k] == 0 && !lostMayFallBack[k] {
			bad = append(bad, "no "+k+" was tried")
		}
	}
	a := s.ms[s.lostA]
	var schedules, subs int
	d.GetContext(ctx, &schedules, `SELECT count(*) FROM scheduled_transfers WHERE account_id = $1`, a.ID)
	d.GetContext(ctx, &subs, `SELECT count(*) FROM subaccounts WHERE account_id = $1`, a.ID)
	if schedules != accepted[opSchedule] {
		bad = append(bad, fmt.Sprintf("%d schedules for %d accepted creates", schedules, accepted[opSchedule]))
	}
	if subs != accepted[opSubCreate]+1 { // and the moves' own
		bad = append(bad, fmt.Sprintf("%d sub-accounts for %d accepted creates and 1 of setup", subs, accepted[opSubCreate]))
	}
	for _, t := range []struct{ kind, typ string }{{opSubAdd, "SUBACCOUNT_ADD_BALANCE"}, {opSubRemove, "SUBACCOUNT_REMOVE_BALANCE"}} {
		var n int
		d.GetContext(ctx, &n, `SELECT count(*) FROM transactions WHERE account_id = $1 AND type = $2`, a.ID, t.typ)
		if n != accepted[t.kind] {
			bad = append(bad, fmt.Sprintf("%d %s records for %d accepted creates", n, t.typ, accepted[t.kind]))
		}
	}
	kinds := ""
	for _, k := range lostKinds {
		kinds += fmt.Sprintf(" %s %d/%d,", k, accepted[k], byKind[k])
	}
	fs := ""
	for f, n := range faults {
		fs += fmt.Sprintf("; %d across %q", n, f)
	}
	return check{"lost answers retried", len(bad) == 0, fmt.Sprintf("%d creates (%d first attempts cancelled, %d answered 2xx and compared, %d retried across a fault%s), 2xx retry/total:%s %d schedules and %d sub-accounts in the database%s",
		len(lost), cancelled, compared, across, fs, kinds, schedules, subs, sample(bad))}
}
