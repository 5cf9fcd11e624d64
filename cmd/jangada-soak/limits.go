package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// The limits scenario's figures: each round funds a fresh sub-account with
// limitFunding, sets a daily limit of limitDaily and sends limitDebits
// debits of limitDebit at once (PIX outs, and every fifth a remove-balance:
// the limit covers every debit): twice what the limit lets through.
const (
	limitFunding = int64(300 * 100)
	limitDaily   = int64(100 * 100)
	limitDebit   = int64(10 * 100)
	limitDebits  = 20
)

// limitRound is one round of the limits scenario.
type limitRound struct {
	sub string
	// accepted are the debits answered 2xx; refused those answered 400
	// naming the limit; other is every other answer (a problem).
	accepted []*op
	refused  int
	other    []string
	days     [2]string // the São Paulo day at its start and end
	err      string
}

// limitLoop runs a round every few seconds until ctx ends (one in -quick).
func (s *scen) limitLoop(ctx context.Context) {
	for i := 0; ctx.Err() == nil; i++ {
		s.limitRound(context.Background(), i)
		if s.quick {
			return
		}
		pause(ctx, 8*time.Second)
	}
}

func (s *scen) limitRound(ctx context.Context, i int) {
	r := &limitRound{}
	defer func() {
		s.mu.Lock()
		s.limits = append(s.limits, r)
		s.mu.Unlock()
	}()
	mi := s.limitIdx
	m := s.ms[mi]
	r.days[0] = time.Now().In(domain.SaoPaulo).Format(time.DateOnly)
	var err error
	if r.sub, err = s.newSub(ctx, mi, fmt.Sprintf("lim-%d", i)); err != nil {
		r.err = err.Error()
		return
	}
	add := &op{kind: opSubAdd, from: mi, sub: r.sub, amount: limitFunding, want: "COMPLETED"}
	a, err := s.c.call(ctx, "POST", "/v1/subaccount/add-balance", m.Key, fmt.Sprintf("lim-add-%d", i), map[string]any{
		"id": r.sub, "amount": cents(limitFunding), "description": "Soak limite", "externalReference": fmt.Sprintf("lim-add-%d", i)})
	ok := settleOp(add, a, err)
	if ok {
		var v struct{ ID string }
		json.Unmarshal(a.data, &v)
		add.id = v.ID
	}
	s.record(add)
	if !ok {
		r.err = "add-balance: " + add.refused + add.unresolved
		return
	}
	if err := s.c.must(ctx, "POST", "/v1/subaccount/set-limits", m.Key, map[string]any{
		"id": r.sub, "daily": cents(limitDaily), "monthly": nil, "perTransaction": nil}, nil); err != nil {
		r.err = "set-limits: " + err.Error()
		return
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for j := range limitDebits {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := fmt.Sprintf("lim-%d-%d", i, j)
			o := &op{kind: opPixOut, from: mi, sub: r.sub, amount: limitDebit, want: "COMPLETED"}
			path, body := "/v1/transfer-pix/create", map[string]any{"amount": cents(limitDebit), "subaccountId": r.sub,
				"pixKey": fmt.Sprintf("lim%d-%d@example.com", i, j), "pixKeyType": "EMAIL", "description": "Soak limite " + key}
			if j%5 == 4 {
				o.kind = opSubRemove
				path, body = "/v1/subaccount/remove-balance", map[string]any{"id": r.sub, "amount": cents(limitDebit),
					"description": "Soak limite " + key, "externalReference": key}
			}
			a, err := s.c.call(ctx, "POST", path, m.Key, key, body)
			ok := settleOp(o, a, err)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case ok:
				var v struct {
					ID        string
					FeeAmount float64
				}
				json.Unmarshal(a.data, &v)
				o.id, o.fee = v.ID, int64(v.FeeAmount*100+0.5)
				r.accepted = append(r.accepted, o)
			case err == nil && a.status == 400 && strings.Contains(a.message, "daily limit"):
				r.refused++
			default:
				r.other = append(r.other, fmt.Sprintf("%s %s: %s%s", o.kind, key, o.refused, o.unresolved))
			}
			s.record(o)
		}()
	}
	wg.Wait()
	r.days[1] = time.Now().In(domain.SaoPaulo).Format(time.DateOnly)
}

// limitCheck: in every round, the debits the database holds reserved or
// done (not FAILED) never pass the daily limit, they are exactly the
// debits answered 2xx, and every other debit was refused naming the daily
// limit; a round inside one São Paulo day lets exactly the limit through
// (the limit neither leaks nor refuses room it has).
func (s *scen) limitCheck(ctx context.Context, d *sqlx.DB) check {
	s.mu.Lock()
	rounds := append([]*limitRound(nil), s.limits...)
	s.mu.Unlock()
	var bad []string
	var accepted, refused, full int
	for i, r := range rounds {
		if r.err != "" {
			bad = append(bad, fmt.Sprintf("round %d setup: %s", i, r.err))
			continue
		}
		bad = append(bad, r.other...)
		var sum int64
		for _, o := range r.accepted {
			sum += o.amount
		}
		accepted += len(r.accepted)
		refused += r.refused
		var held int64
		var n int
		if err := d.QueryRowContext(ctx, `SELECT COALESCE(sum(amount), 0), count(*) FROM transactions
			WHERE subaccount_id = $1 AND type = ANY($2) AND status <> 'FAILED'`,
			r.sub, pq.StringArray{"PIX_OUT", "SUBACCOUNT_REMOVE_BALANCE"}).Scan(&held, &n); err != nil {
			bad = append(bad, err.Error())
			continue
		}
		if held > limitDaily {
			bad = append(bad, fmt.Sprintf("round %d: %s debited past a daily limit of %s", i, brl(held), brl(limitDaily)))
		}
		if held != sum || n != len(r.accepted) {
			bad = append(bad, fmt.Sprintf("round %d: %d debits of %s in the database, %d of %s answered 2xx", i, n, brl(held), len(r.accepted), brl(sum)))
		}
		if len(r.accepted)+r.refused == limitDebits && r.days[0] == r.days[1] {
			if sum != limitDaily {
				bad = append(bad, fmt.Sprintf("round %d: %s let through under a daily limit of %s", i, brl(sum), brl(limitDaily)))
			} else {
				full++
			}
		}
	}
	if len(rounds) == 0 {
		bad = append(bad, "no round ran")
	}
	return check{"sub-account limits hold", len(bad) == 0, fmt.Sprintf("%d rounds of %d concurrent debits of %s under a daily limit of %s: %d accepted, %d refused naming the limit, %d rounds let exactly the limit through%s",
		len(rounds), limitDebits, brl(limitDebit), brl(limitDaily), accepted, refused, full, sample(bad))}
}
