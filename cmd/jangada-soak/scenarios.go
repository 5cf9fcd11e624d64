package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
)

// The "proof at scale" scenarios, run beside the mixed load
// and through its faults, each on accounts of its own so that its
// arithmetic is its own:
//
//   - lost answers (lost.go): every create route, its first answer lost
//     (the client gives up on it, or ignores it), retried with the same
//     Idempotency-Key and body: every retry answers 2xx with the same
//     resource, and the money moved once;
//   - sub-account limits (limits.go): concurrent debits of a sub-account
//     with a daily limit, worth twice the limit: exactly the limit passes;
//   - locks and deletes racing charges and refunds (races.go).
//
// Their operations join the load's for the common checks (final states,
// balances of the main accounts, nothing posted twice, ledger invariant);
// each scenario adds its own check, and every sub-account's balance is
// compared with the operations accepted on it.
type scen struct {
	c     *client
	quick bool
	// off is -scenarios=false: nothing runs, nothing is checked.
	off bool
	// ms are every account of the run, the load's first; the scenarios'
	// indexes into it follow.
	ms                              []merchant
	lostA, lostB, limitIdx, raceIdx int
	lostSub                         string // the lost-answer scenario's sub-account for moves
	seq                             atomic.Int64
	wg                              sync.WaitGroup
	started                         atomic.Bool
	scheduleCap                     int
	// modeOffset is the first lock round\'s mode (random: a short run sees
	// one or two modes, successive runs all three).
	modeOffset int
	mu         sync.Mutex
	ops        []*op
	subs       []string // every sub-account the scenarios made, in order
	lost       []*lostOp
	// p is the products scenario (products.go).
	p          *prods
	lostPaid   []*op // paid charges of lostA not refunded yet
	lostSubBal int64 // accepted adds − removes on lostSub
	schedules  int
	limits     []*limitRound
	deletes    []*deleteRound
	locks      []*lockRound
}

// newScen creates the scenarios' accounts (four, appended to ms): two for
// the lost answers (the second receives the internal transfers; both with
// a webhook endpoint, so their events join the webhook check), one for the
// limits and one for the races (no webhook endpoint: their events are not
// the webhook check's). Every one has sub-accounts with PIX enabled.
func newScen(ctx context.Context, c *client, ms []merchant, tag, hookURL string, rcv *receiver, quick bool) (*scen, error) {
	s := &scen{c: c, quick: quick, ms: append([]merchant(nil), ms...), scheduleCap: 15, modeOffset: rand.IntN(len(lockModes))}
	base := len(ms)
	s.lostA, s.lostB, s.limitIdx, s.raceIdx = base, base+1, base+2, base+3
	for i := range 4 {
		hook := ""
		if i < 2 {
			hook = hookURL
		}
		m, err := c.newMerchant(ctx, base+i, tag, hook, funding)
		if err != nil {
			return nil, err
		}
		if hook != "" {
			rcv.setSecret(m.ID, m.HookSecret)
		}
		if err := c.must(ctx, "PATCH", "/admin/v1/accounts/"+m.ID, "", map[string]any{
			"features": map[string]any{"subaccounts": true, "subaccountPix": true}}, nil); err != nil {
			return nil, err
		}
		s.ms = append(s.ms, m)
	}
	if err := s.newProds(ctx, tag, hookURL, rcv); err != nil {
		return nil, fmt.Errorf("products: %w", err)
	}
	var err error
	s.lostSub, err = s.newSub(ctx, s.lostA, "lost-moves")
	return s, err
}

// newSub creates a PF sub-account of merchant mi (retried with an
// Idempotency-Key: a setup step) and returns its id.
func (s *scen) newSub(ctx context.Context, mi int, ref string) (string, error) {
	a, err := s.c.call(ctx, "POST", "/v1/subaccount/create", s.ms[mi].Key, "sub-"+ref, pfBody(ref))
	if err != nil {
		return "", err
	}
	if !a.ok() {
		return "", fmt.Errorf("sub-account %s: HTTP %d %s", ref, a.status, a.message)
	}
	var v struct{ ID string }
	json.Unmarshal(a.data, &v)
	s.mu.Lock()
	s.subs = append(s.subs, v.ID)
	s.mu.Unlock()
	return v.ID, nil
}

// pfBody is a valid PF sub-account create body.
func pfBody(ref string) map[string]any {
	return map[string]any{"personType": "PF", "fullName": "Maria Soak", "cpf": "529.982.247-25",
		"birthDate": "1990-05-17", "postalCode": "01310-100", "externalReference": ref}
}

// record keeps an operation for the common checks.
func (s *scen) record(o *op) {
	s.mu.Lock()
	s.ops = append(s.ops, o)
	s.mu.Unlock()
}

// run drives the scenarios until ctx ends and returns once every round
// begun has finished (on a background context: a round is never left
// half done).
func (s *scen) run(ctx context.Context) {
	if s.off {
		return
	}
	s.started.Store(true)
	loops := []func(context.Context){s.lostLoop, s.limitLoop, s.raceLoop, s.prodLoop}
	if !s.quick { // a second products goroutine: enough sales to use up the coupon and the rare product
		loops = append(loops, s.prodLoop)
	}
	var wg sync.WaitGroup
	for _, f := range loops {
		wg.Add(1)
		go func() { defer wg.Done(); f(ctx) }()
	}
	wg.Wait()
	s.wg.Wait()
}

// aroundFault is called as each fault begins; the function it returns,
// once the fault has run. Between the two, a burst of lost-answer creates
// (lost.go) has its first attempts in flight, and retries them only after
// the fault: each create of the burst is retried across it.
func (s *scen) aroundFault(what string) func() {
	if s == nil || !s.started.Load() {
		return func() {}
	}
	gate := make(chan struct{})
	api := -1
	if strings.HasPrefix(what, "restart api") {
		api = 1 // the first attempts go to the process being restarted
	}
	for _, kind := range lostKinds {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.lostOne(context.Background(), kind, what, gate, api)
		}()
	}
	// The first attempts are sent (not answered) before the fault begins.
	pause(context.Background(), 20*time.Millisecond)
	return func() { close(gate) }
}

// allOps are the scenarios' operations, for the common checks.
func (s *scen) allOps() []*op {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*op(nil), s.ops...)
}

// subEffect is what an accepted operation does to its sub-account's
// available balance once final (fees as on the main account: the soak sets
// no sub-account surcharge).
func subEffect(o *op) int64 {
	if !o.accepted || o.sub == "" {
		return 0
	}
	switch o.kind {
	case opCharge:
		return o.amount - pixInFee
	case opPixOut:
		return -(o.amount + o.fee)
	case opRefund: // the net it kept plus the outbound fee
		return -(o.amount - pixInFee + pixOutFee)
	case opSubAdd:
		return o.amount
	case opSubRemove:
		return -o.amount
	}
	return 0
}

// subBalances compares every scenario sub-account's available balance with
// the operations accepted on it, and requires its pending to be 0 (every
// debit settled) and, when it is deleted, every balance 0.
func (s *scen) subBalances(ctx context.Context, d *sqlx.DB) check {
	want := map[string]int64{}
	for _, o := range s.allOps() {
		if o.sub != "" {
			want[o.sub] += subEffect(o)
		}
	}
	s.mu.Lock()
	subs := append([]string(nil), s.subs...)
	s.mu.Unlock()
	var bad []string
	var total int64
	deleted := 0
	for _, id := range subs {
		var avail, pending, locked int64
		var gone bool
		d.GetContext(ctx, &avail, `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE id = $1), 0)`, id+":available")
		d.GetContext(ctx, &pending, `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE id = $1), 0)`, id+":pending")
		d.GetContext(ctx, &locked, `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE id = $1), 0)`, id+":locked")
		if err := d.GetContext(ctx, &gone, `SELECT deleted_at IS NOT NULL FROM subaccounts WHERE id = $1`, id); err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", id, err))
			continue
		}
		total += avail
		if gone {
			deleted++
		}
		if avail != want[id] || pending != 0 || locked != 0 {
			bad = append(bad, fmt.Sprintf("%s: available %s (want %s), pending %s, locked %s (want 0), deleted %v", id, brl(avail), brl(want[id]), brl(pending), brl(locked), gone))
		}
	}
	return check{"sub-account balances", len(bad) == 0 && len(subs) > 0, fmt.Sprintf("%d sub-accounts (%d deleted): available %s in all, each equal to the operations accepted on it, pending 0%s",
		len(subs), deleted, brl(total), sample(bad))}
}

// checks are the scenarios' own checks.
func (s *scen) checks(ctx context.Context, d *sqlx.DB) []check {
	if s.off {
		return nil
	}
	return []check{s.lostCheck(ctx, d), s.limitCheck(ctx, d), s.raceCheck(ctx, d), s.subBalances(ctx, d), s.prodCheck(ctx, d)}
}

// summary prints what the scenarios did, by kind.
func (s *scen) summary() {
	if s.off {
		return
	}
	counts := countByKind(s.allOps())
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Println("scenario operations (lost answers, limits, races):")
	for _, k := range kinds {
		n := counts[k]
		fmt.Printf("  %-20s %5d accepted  %3d refused  %3d unresolved\n", k, n[0], n[1], n[2])
	}
}

// waitStatus polls a charge's status (GET, as an integration does) until
// it is want, within a bound; it reports whether it got there.
func (s *scen) waitStatus(ctx context.Context, mi int, id, want string, within time.Duration) bool {
	err := waitFor(ctx, within, func() bool {
		a, err := s.c.call(ctx, "GET", "/v1/payment-pix/status/"+id, s.ms[mi].Key, "", nil)
		var st struct{ Status string }
		if err == nil && a.ok() {
			json.Unmarshal(a.data, &st)
		}
		if st.Status != want {
			pause(ctx, 200*time.Millisecond)
		}
		return st.Status == want
	})
	return err == nil
}

// pay pays a created charge through the sandbox; a retry after an attempt
// that reached the workflow answers 400 "…is COMPLETED, not PENDING": the
// earlier attempt counted.
func (s *scen) pay(ctx context.Context, mi int, o *op) {
	a, err := s.c.call(ctx, "POST", "/v1/sandbox/payment-pix/"+o.id+"/pay", s.ms[mi].Key, "", map[string]any{})
	if err == nil && a.status == 400 && strings.Contains(a.message, "COMPLETED") {
		a.status = 200
	}
	settleOp(o, a, err)
}

// settleOp records one step's answer on o and reports whether it was a 2xx.
func settleOp(o *op, a answer, err error) bool {
	return (&driver{}).settle(o, a, err)
}
