//go:build devserver

package main

import (
	"context"
	"encoding/json"
	"fmt"
)

// checkoutFigure is the payment links row: checkouts/s at c=32
// (each one a session with its hold, an ordinary charge and its deferred
// workflow start, counted until every start drained) beside a bare
// StartWorkflow in the same run.
func checkoutFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	link, err := r.paymentLink(ctx)
	if err != nil {
		return figure{}, err
	}
	checkout := func(ctx context.Context, _ int) error {
		return r.post(ctx, "/v1/payment-links/checkout", map[string]any{"linkId": link, "method": "PIX"})
	}
	run(ctx, "warm-up", 4, 50, checkout)
	if err := r.chargesStarted(ctx); err != nil {
		return figure{}, err
	}
	bare, ours := r.paired(ctx, 32, sz.n32, "bare StartWorkflow (no worker)", r.startBare(idleQueue, "BenchNoop"),
		"POST /v1/payment-links/checkout", checkout, r.chargesStarted)
	show(bare, ours)
	return figure{name: "payment-links/checkout/s, c=32", ours: rate(ours), bare: "StartWorkflow " + rate(bare),
		ratio: ours.perSecond() / bare.perSecond(), target: 0.8, note: errNote(ours)}, nil
}

// paymentLink verifies the bench's merchant (checkout's prerequisite) and
// makes a payment link of a fixed R$ 25.00, returning its id.
func (r *rig) paymentLink(ctx context.Context) (string, error) {
	if _, err := r.db.ExecContext(ctx, `UPDATE accounts SET verified = true WHERE id = $1`, r.accountID); err != nil {
		return "", err
	}
	raw, err := r.postData(ctx, "/v1/payment-links/create", map[string]any{"name": "Bench", "fixedAmount": 25})
	if err != nil {
		return "", fmt.Errorf("link: %w", err)
	}
	var link struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(raw, &link); err != nil {
		return "", err
	}
	return link.ID, nil
}
