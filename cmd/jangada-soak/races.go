package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
)

// The races scenario alternates two rounds on fresh sub-accounts:
//
//   - delete: raceCharges charges into a sub-account and its delete, sent
//     at once. Never both: a delete answered 2xx leaves no charge answered
//     2xx into it (the charge insert and the delete serialise on the
//     sub-account's row), and the money of every charge lands in a live
//     sub-account.
//   - lock: a sub-account holding raceDeposits paid deposits; their
//     refunds, raceCharges new charges and a lock (full, withdraw_only,
//     deposit_only in turn), sent at once. A refund or charge sent after
//     the lock was answered follows the lock table (docs/ledger.md): under
//     full and withdraw_only no refund debits the sub-account, under full
//     and deposit_only no charge is created; then one more refund and one
//     more charge, sequential, prove the table's cells.
const (
	raceCharges  = 4
	raceDeposits = 3
)

// timed is one request of a race: when its first attempt left, and its
// answer.
type timed struct {
	o    *op
	sent time.Time
	a    answer
	err  error
}

// deleteRound is one delete race.
type deleteRound struct {
	sub      string
	charges  []*timed
	del      *timed
	deleted  bool
	problems []string
}

// lockRound is one lock race.
type lockRound struct {
	sub               string
	mode              string
	lock              *timed
	lockedAt          time.Time // when the lock's 2xx arrived
	refunds, charges  []*timed
	after             []*timed // the sequential refund and charge after the race
	problems          []string
	refundsBeforeLock int
}

var lockModes = []string{"full", "withdraw_only", "deposit_only"}

// raceLoop alternates delete and lock rounds until ctx ends (one of each
// in -quick).
func (s *scen) raceLoop(ctx context.Context) {
	for i := 0; ctx.Err() == nil; i++ {
		s.deleteRound(context.Background(), i)
		if ctx.Err() != nil && !s.quick {
			return
		}
		s.lockRound(context.Background(), i)
		if s.quick {
			return
		}
		pause(ctx, time.Second)
	}
}

// send issues one create of a race, noting when it left.
func (s *scen) send(ctx context.Context, mi int, path, key string, body any, o *op) *timed {
	t := &timed{o: o, sent: time.Now()}
	t.a, t.err = s.c.call(ctx, "POST", path, s.ms[mi].Key, key, body)
	return t
}

// chargeInto creates a charge into sub (the charge's op is recorded, and
// paid when pay is set and the create answered 2xx).
func (s *scen) chargeInto(ctx context.Context, sub, key string) *timed {
	mi := s.raceIdx
	o := &op{kind: opCharge, from: mi, sub: sub, amount: int64(500 + rand.IntN(4500)), want: "COMPLETED"}
	t := s.send(ctx, mi, "/v1/payment-pix/create", key, map[string]any{"amount": cents(o.amount), "subaccountId": sub,
		"description": "Soak corrida " + key}, o)
	if settleOp(o, t.a, t.err) {
		var v struct{ ID string }
		json.Unmarshal(t.a.data, &v)
		o.id = v.ID
	}
	return t
}

// payAll pays the charges answered 2xx and records every charge's op.
func (s *scen) payAll(ctx context.Context, ts []*timed) {
	for _, t := range ts {
		if t.o.accepted {
			s.pay(ctx, s.raceIdx, t.o)
		}
		s.record(t.o)
	}
}

func (s *scen) deleteRound(ctx context.Context, i int) {
	r := &deleteRound{}
	defer func() {
		s.mu.Lock()
		s.deletes = append(s.deletes, r)
		s.mu.Unlock()
	}()
	var err error
	if r.sub, err = s.newSub(ctx, s.raceIdx, fmt.Sprintf("del-%d", i)); err != nil {
		r.problems = append(r.problems, "setup: "+err.Error())
		return
	}
	r.charges = make([]*timed, raceCharges)
	var wg sync.WaitGroup
	for j := range raceCharges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pause(ctx, time.Duration(rand.IntN(80))*time.Millisecond)
			r.charges[j] = s.chargeInto(ctx, r.sub, fmt.Sprintf("del-%d-%d", i, j))
		}()
	}
	// Delays spread over the charges' own: either side may win.
	wg.Add(1)
	go func() {
		defer wg.Done()
		pause(ctx, time.Duration(rand.IntN(80))*time.Millisecond)
		r.del = s.send(ctx, s.raceIdx, "/v1/subaccount/delete", fmt.Sprintf("del-%d-x", i), map[string]any{"id": r.sub}, nil)
	}()
	wg.Wait()
	s.payAll(ctx, r.charges)
	r.deleted = r.del.err == nil && r.del.a.ok()
	created, pending := 0, 0
	for _, t := range r.charges {
		switch {
		case t.err != nil:
			pending++
			r.problems = append(r.problems, "charge without a definite answer: "+t.err.Error())
		case t.a.ok():
			created++
		case t.a.status == 404 || t.a.status == 400 && strings.Contains(t.a.message, "subaccountId"):
		default:
			r.problems = append(r.problems, fmt.Sprintf("charge into the sub-account being deleted: HTTP %d %s", t.a.status, t.a.message))
		}
	}
	switch {
	case r.del.err != nil:
		r.problems = append(r.problems, "delete without a definite answer: "+r.del.err.Error())
	case r.deleted && created > 0:
		r.problems = append(r.problems, fmt.Sprintf("sub-account %s deleted (2xx) and %d charges into it created (2xx)", r.sub, created))
	case !r.deleted && created == 0 && pending == 0:
		r.problems = append(r.problems, fmt.Sprintf("delete of %s refused with no charge into it: HTTP %d %s", r.sub, r.del.a.status, r.del.a.message))
	}
}

func (s *scen) lockRound(ctx context.Context, i int) {
	r := &lockRound{mode: lockModes[(i+s.modeOffset)%len(lockModes)]}
	defer func() {
		s.mu.Lock()
		s.locks = append(s.locks, r)
		s.mu.Unlock()
	}()
	mi := s.raceIdx
	m := s.ms[mi]
	var err error
	if r.sub, err = s.newSub(ctx, mi, fmt.Sprintf("lock-%d", i)); err != nil {
		r.problems = append(r.problems, "setup: "+err.Error())
		return
	}
	// A refund takes the deposit's net and the outbound fee: the fees come
	// from money added beforehand.
	add := &op{kind: opSubAdd, from: mi, sub: r.sub, amount: 10 * 100, want: "COMPLETED"}
	a, err := s.c.call(ctx, "POST", "/v1/subaccount/add-balance", m.Key, fmt.Sprintf("lock-add-%d", i), map[string]any{
		"id": r.sub, "amount": cents(add.amount), "description": "Soak taxas", "externalReference": fmt.Sprintf("lock-add-%d", i)})
	if settleOp(add, a, err) {
		var v struct{ ID string }
		json.Unmarshal(a.data, &v)
		add.id = v.ID
	}
	s.record(add)
	if !add.accepted {
		r.problems = append(r.problems, "setup add-balance: "+add.refused+add.unresolved)
		return
	}
	var deposits []*op
	var dmu sync.Mutex
	var dwg sync.WaitGroup
	for j := range raceDeposits {
		dwg.Add(1)
		go func() {
			defer dwg.Done()
			t := s.chargeInto(ctx, r.sub, fmt.Sprintf("lock-%d-d%d", i, j))
			s.payAll(ctx, []*timed{t})
			ok := t.o.accepted && s.waitStatus(ctx, mi, t.o.id, "COMPLETED", 2*time.Minute)
			dmu.Lock()
			defer dmu.Unlock()
			if !ok {
				r.problems = append(r.problems, fmt.Sprintf("setup deposit %s not COMPLETED within 2 min: %s%s", t.o.id, t.o.refused, t.o.unresolved))
				return
			}
			deposits = append(deposits, t.o)
		}()
	}
	dwg.Wait()
	refund := func(dep *op, key string) *timed {
		o := &op{kind: opRefund, id: dep.id, from: mi, sub: r.sub, amount: dep.amount, want: "REVERSED"}
		t := s.send(ctx, mi, "/v1/refunds/create", key, map[string]any{"transactionId": dep.id, "amount": cents(dep.amount), "description": "Soak corrida"}, o)
		settleOp(o, t.a, t.err)
		s.record(o)
		return t
	}
	// The race: every refund but the last deposit's, the charges, the lock.
	held := deposits
	if len(held) > 0 {
		held = deposits[:len(deposits)-1]
	}
	r.refunds = make([]*timed, len(held))
	r.charges = make([]*timed, raceCharges)
	var wg sync.WaitGroup
	for j, dep := range held {
		wg.Add(1)
		go func() { defer wg.Done(); r.refunds[j] = refund(dep, fmt.Sprintf("lock-%d-r%d", i, j)) }()
	}
	for j := range raceCharges {
		wg.Add(1)
		go func() { defer wg.Done(); r.charges[j] = s.chargeInto(ctx, r.sub, fmt.Sprintf("lock-%d-c%d", i, j)) }()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		pause(ctx, time.Duration(rand.IntN(60))*time.Millisecond)
		r.lock = s.send(ctx, mi, "/v1/subaccount/lock", fmt.Sprintf("lock-%d-l", i), map[string]any{"id": r.sub, "mode": r.mode}, nil)
		r.lockedAt = time.Now()
	}()
	wg.Wait()
	s.payAll(ctx, r.charges)
	if r.lock.err != nil || !r.lock.a.ok() {
		r.problems = append(r.problems, fmt.Sprintf("lock %s: HTTP %d %s %v", r.mode, r.lock.a.status, r.lock.a.message, r.lock.err))
		return
	}
	// After the race, sequentially: the last deposit's refund, one charge.
	if len(deposits) > 0 {
		r.after = append(r.after, refund(deposits[len(deposits)-1], fmt.Sprintf("lock-%d-r-after", i)))
	}
	c := s.chargeInto(ctx, r.sub, fmt.Sprintf("lock-%d-c-after", i))
	s.payAll(ctx, []*timed{c})
	r.after = append(r.after, c)

	refundBlocked := r.mode != "deposit_only"
	chargeBlocked := r.mode != "withdraw_only"
	judge := func(t *timed, blocked bool, what string) {
		locked := t.sent.After(r.lockedAt) // sent once the lock had committed and answered
		switch {
		case t.err != nil:
			r.problems = append(r.problems, what+" without a definite answer: "+t.err.Error())
		case t.a.ok() && locked && blocked:
			r.problems = append(r.problems, fmt.Sprintf("%s sent after the %s lock answered went through", what, r.mode))
		case !t.a.ok() && !blocked:
			// Sent before or after, a mode that allows it never refuses it
			// (a blocked one sent before the lock's answer may go either way).
			r.problems = append(r.problems, fmt.Sprintf("%s under %s refused: HTTP %d %s", what, r.mode, t.a.status, t.a.message))
		}
		if t.o.kind == opRefund && t.a.ok() {
			r.refundsBeforeLock++
		}
	}
	for _, t := range r.refunds {
		judge(t, refundBlocked, "refund")
	}
	for _, t := range r.charges {
		judge(t, chargeBlocked, "charge")
	}
	for _, t := range r.after {
		judge(t, map[string]bool{opRefund: refundBlocked, opCharge: chargeBlocked}[t.o.kind], t.o.kind+" after the race")
	}
}

// raceCheck: no delete round has both a deleted sub-account and a charge
// into it; in every lock round what was sent after the lock followed the
// lock table; no deleted sub-account of the scenario holds money (its
// ledger accounts are all 0); and no charge of the scenario ended credited
// to the main account ("paid after sub-account … was deleted"), which only
// a charge created into a sub-account that was then deleted can be.
func (s *scen) raceCheck(ctx context.Context, d *sqlx.DB) check {
	s.mu.Lock()
	dels := append([]*deleteRound(nil), s.deletes...)
	locks := append([]*lockRound(nil), s.locks...)
	s.mu.Unlock()
	var bad []string
	var deleted, refusedDel, refundsBefore, refundsAfterOK, refundsAfterRefused int
	modes := map[string]int{}
	for _, r := range dels {
		bad = append(bad, r.problems...)
		if r.deleted {
			deleted++
		} else if r.del != nil {
			refusedDel++
		}
	}
	for _, r := range locks {
		bad = append(bad, r.problems...)
		modes[r.mode]++
		refundsBefore += r.refundsBeforeLock
		for _, t := range r.after {
			if t.o.kind == opRefund {
				if t.a.ok() {
					refundsAfterOK++
				} else {
					refundsAfterRefused++
				}
			}
		}
	}
	if len(dels) == 0 || len(locks) == 0 {
		bad = append(bad, "a kind of round never ran")
	}
	m := s.ms[s.raceIdx]
	var moneyInDeleted, mainCredited int
	d.GetContext(ctx, &moneyInDeleted, `SELECT count(*) FROM subaccounts s JOIN ledger_accounts l ON l.id IN (s.id || ':available', s.id || ':pending', s.id || ':locked')
		WHERE s.account_id = $1 AND s.deleted_at IS NOT NULL AND l.balance <> 0`, m.ID)
	d.GetContext(ctx, &mainCredited, `SELECT count(*) FROM transactions WHERE account_id = $1 AND type = 'PIX_IN' AND description LIKE '%was deleted%'`, m.ID)
	if moneyInDeleted > 0 {
		bad = append(bad, fmt.Sprintf("%d ledger accounts of deleted sub-accounts hold money", moneyInDeleted))
	}
	if mainCredited > 0 {
		bad = append(bad, fmt.Sprintf("%d charges paid after their sub-account was deleted (credited to the main account)", mainCredited))
	}
	return check{"locks and deletes vs charges", len(bad) == 0, fmt.Sprintf("%d delete races (%d deleted with no charge created, %d refused for the charges created first); %d lock races %v: %d refunds before the lock went through, sequential refunds after it %d through and %d refused, as the lock table says%s",
		len(dels), deleted, refusedDel, len(locks), modes, refundsBefore, refundsAfterOK, refundsAfterRefused, sample(bad))}
}
