//go:build devserver

package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jangada/jangada/domain"
)

// The sub-account moves rows: POST /v1/subaccount/add-balance (main → sub)
// and /v1/subaccount/transfer (sub → sub, both directions) at concurrency
// 16, each beside one PostgreSQL transaction with the same writes on the
// same database (the sub-account rows locked, the record, the ledger
// transaction and its two entries inserted, the two balances updated in id
// order), the best a client does (bare_pgx.go), in alternating rounds.

func subAddFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	return subMoveFigure(ctx, r, sz, false)
}

func subTransferFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	return subMoveFigure(ctx, r, sz, true)
}

func subMoveFigure(ctx context.Context, r *rig, sz sizes, transfer bool) (figure, error) {
	r.analyzeRounds = true
	subs, err := r.subaccounts(ctx)
	if err != nil {
		return figure{}, err
	}
	ledger := func(id string) string { return domain.AvailableLedger(id) }
	name, path := "add-balance", "/v1/subaccount/add-balance"
	if transfer {
		name, path = "transfer", "/v1/subaccount/transfer"
	}
	ours := func(ctx context.Context, i int) error {
		ref := fmt.Sprintf("bench-%s-%d", name, r.seq.Add(1))
		if !transfer {
			return r.post(ctx, path, map[string]any{"id": subs[0], "amount": 0.01, "description": "bench", "externalReference": ref})
		}
		from, to := subs[i%2], subs[1-i%2]
		return r.post(ctx, path, map[string]any{"fromSubaccountId": from, "toSubaccountId": to, "amount": 0.01,
			"description": "bench", "externalReference": ref})
	}
	pool, err := r.barePool(ctx)
	if err != nil {
		return figure{}, err
	}
	defer pool.Close()
	bare := func(ctx context.Context, i int) error {
		from, to := r.accountID, subs[0]
		locked := []string{subs[0]}
		if transfer {
			from, to = subs[i%2], subs[1-i%2]
			locked = []string{subs[0], subs[1]}
		}
		id := domain.NewID("")
		// The ledger rows updated in id order take their locks (the best a
		// client does: bare_pgx.go), one round trip.
		low, high := ledger(from), ledger(to)
		lowChange := int64(-1)
		if high < low {
			low, high, lowChange = high, low, 1
		}
		return bareBatch(ctx, pool,
			bareStatement{`SELECT id FROM subaccounts WHERE id = ANY($1) ORDER BY id FOR UPDATE`, []any{[]string{locked[0], locked[len(locked)-1]}}},
			bareStatement{`INSERT INTO transactions (id, account_id, type, status, amount, net_amount, external_reference, subaccount_id, details, completed_at)
			  VALUES ($1, $2, 'SUBACCOUNT_TRANSFER', 'COMPLETED', 1, 1, $3, $4, '{}', now())`, []any{id, r.accountID, "bare-" + id, subs[0]}},
			bareStatement{`WITH t AS (INSERT INTO ledger_transactions (idempotency_key, account_id, transaction_id, kind) VALUES ($1, $2, $3, 'SUBACCOUNT_TRANSFER') RETURNING id)
			  INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount) SELECT t.id, a, m FROM t, unnest($4::text[], $5::bigint[]) u(a, m)`,
				[]any{"bare:" + id, r.accountID, id, []string{ledger(from), ledger(to)}, []int64{-1, 1}}},
			bareStatement{`UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1`, []any{low, lowChange}},
			bareStatement{`UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1`, []any{high, -lowChange}})
	}
	s0 := subaccountBatches()
	b, o := r.paired(ctx, 16, sz.internal, "bare PG tx (same writes)", bare, "POST "+path, ours, nil)
	show(b, o)
	batches := batchNoteOf(subaccountBatches, s0)
	fmt.Println("  group commit:", batches)
	return figure{name: "sub-account " + name + "/s, c=16", ours: fmt.Sprintf("%s, p50 %s, p99 %s", rate(o), msf(o.p50), msf(o.p99)),
		bare: fmt.Sprintf("PG tx %s, p50 %s, p99 %s", rate(b), msf(b.p50), msf(b.p99)), ratio: o.perSecond() / b.perSecond(), target: 0.8,
		note: errNote(o) + " " + batches}, nil
}

// subaccounts enables sub-accounts on the bench's merchant, funds it, and
// makes two sub-accounts with R$ 10,000 each (once per run).
func (r *rig) subaccounts(ctx context.Context) ([2]string, error) {
	if r.subs[0] != "" {
		return r.subs, nil
	}
	if _, err := r.db.ExecContext(ctx, `UPDATE accounts SET features = features || '{"subaccounts": true}'::jsonb WHERE id = $1`, r.accountID); err != nil {
		return r.subs, err
	}
	if _, _, err := r.secondAccount(ctx); err != nil { // funds the merchant
		return r.subs, err
	}
	for i := range r.subs {
		raw, err := r.postData(ctx, "/v1/subaccount/create", map[string]any{"personType": "PF", "fullName": "Maria Bench",
			"cpf": "529.982.247-25", "birthDate": "1990-05-17", "postalCode": "01310-100", "externalReference": fmt.Sprintf("bench-sub-%d", i)})
		if err != nil {
			return r.subs, fmt.Errorf("sub-account: %w", err)
		}
		var s struct{ ID string }
		if err := json.Unmarshal(raw, &s); err != nil || s.ID == "" {
			return r.subs, fmt.Errorf("sub-account %s: %v", raw, err)
		}
		if err := r.post(ctx, "/v1/subaccount/add-balance", map[string]any{"id": s.ID, "amount": 10_000, "description": "funding",
			"externalReference": "bench-funding-" + s.ID}); err != nil {
			return r.subs, err
		}
		r.subs[i] = s.ID
	}
	return r.subs, nil
}
