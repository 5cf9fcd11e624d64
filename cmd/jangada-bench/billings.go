//go:build devserver

package main

import (
	"context"
	"fmt"
	"time"
)

// The billings rows: BOLETO and PIX billings created/s at c=32 (each one
// the customer find-or-create, the boleto's registration or the PIX
// billing's charge, the row and its deferred workflow start, counted until
// every start drained) beside a bare StartWorkflow in the same run.

func boletoBillingFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	return billingFigure(ctx, r, sz, "BOLETO")
}

func pixBillingFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	return billingFigure(ctx, r, sz, "PIX")
}

func billingFigure(ctx context.Context, r *rig, sz sizes, method string) (figure, error) {
	create := func(ctx context.Context, _ int) error {
		return r.post(ctx, "/v1/billings/create", map[string]any{"method": method, "amount": 25,
			"customer": map[string]any{"name": "Maria Silva", "taxId": "52998224725"}})
	}
	run(ctx, "warm-up", 4, 50, create)
	if err := r.launchesDrained(ctx, "billing"); err != nil {
		return figure{}, err
	}
	started := func(ctx context.Context) error {
		if err := r.chargesStarted(ctx); err != nil {
			return err
		}
		return r.launchesDrained(ctx, "billing")
	}
	bare, ours := r.paired(ctx, 32, sz.n32, "bare StartWorkflow (no worker)", r.startBare(idleQueue, "BenchNoop"),
		"POST /v1/billings/create "+method, create, started)
	show(bare, ours)
	return figure{name: method + " billings/s, c=32", ours: rate(ours), bare: "StartWorkflow " + rate(bare),
		ratio: ours.perSecond() / bare.perSecond(), target: 0.8, note: errNote(ours)}, nil
}

// launchesDrained waits until no workflow start of kind is owed.
func (r *rig) launchesDrained(ctx context.Context, kind string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		var left int
		if err := r.db.GetContext(ctx, &left, `SELECT count(*) FROM workflow_launches WHERE kind = $1`, kind); err != nil {
			return err
		}
		if left == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d %s workflows not started after a minute", left, kind)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
