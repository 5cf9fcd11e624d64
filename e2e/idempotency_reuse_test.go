package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/workflows"
)

// An Idempotency-Key reused after its 24 h answer window never reaches
// another request's resource: a refund of billing B2 under the key of B1's
// refund is B2's own refund, asked of the processor once (before, it took
// B1's refund id: B2 was marked REFUNDED and the merchant debited, while its
// workflow id met B1's closed one and the processor was never asked); a PIX
// out key reused with another body is a 422 naming the header, and with the
// same body answers the transfer it made, marked as a replay; a reused key
// with another card tokenizes that card, never answering the first card's
// token.
func TestIdempotencyKeyReusedAfterItsWindow(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	post := func(path, idem string, body any) resp {
		t.Helper()
		return e.request("POST", path, map[string]string{"X-API-Key": m.Key, "Idempotency-Key": idem}, body)
	}
	// pastWindow ages a key's claim past its answer window, as a day would,
	// and runs the hourly purge.
	pastWindow := func(idem string) {
		t.Helper()
		if _, err := e.app.DB.Exec(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours'
			WHERE account_id = $1 AND key = $2`, m.ID, m.KeyID+" "+idem); err != nil {
			t.Fatal(err)
		}
		if _, err := e.app.DB.Exec(`UPDATE idempotency_keys SET response = NULL WHERE account_id = $1 AND key = $2`, m.ID, m.KeyID+" "+idem); err != nil {
			t.Fatal(err)
		}
	}

	// Billing refunds.
	var billings []string
	for range 2 {
		id := e.createBilling(m, map[string]any{"method": "BOLETO", "amount": 150, "customer": billingCustomer})["id"].(string)
		if r := e.call(m.Key, "POST", "/v1/sandbox/billings/"+id+"/pay", nil); r.Status != 200 {
			t.Fatalf("pay: %d %s", r.Status, r.Message)
		}
		e.waitBilling(m, id, "RECEIVED")
		billings = append(billings, id)
	}
	wantBalance(t, e, m, 296.02, 0, 0)
	refundOf := func(r resp) map[string]any {
		t.Helper()
		refunds, _ := r.m(t)["refunds"].([]any)
		if r.Status != 200 || len(refunds) != 1 {
			t.Fatalf("refund: %d %s %s", r.Status, r.Message, r.Data)
		}
		return refunds[0].(map[string]any)
	}
	first := refundOf(post("/v1/billings/refund", "refund-K", map[string]any{"id": billings[0]}))
	pastWindow("refund-K")
	second := refundOf(post("/v1/billings/refund", "refund-K", map[string]any{"id": billings[1]}))
	if second["id"] == first["id"] {
		t.Fatalf("billing %s's refund took billing %s's refund id %v", billings[1], billings[0], first["id"])
	}
	for i, r := range []map[string]any{first, second} {
		e.waitBilling(m, billings[i], "REFUNDED")
		eventually(t, "refund "+r["id"].(string)+" asked of the processor", func() bool {
			return submissions(t, r["id"].(string)) == 1
		})
		got := e.call(m.Key, "GET", "/v1/billings/get/"+billings[i], nil).m(t)
		if rs := got["refunds"].([]any); len(rs) != 1 || rs[0].(map[string]any)["status"] != "COMPLETED" {
			t.Errorf("billing %s's refunds: %v", billings[i], rs)
		}
	}
	wantBalance(t, e, m, 0, 0, 0)
	e.verifyLedger()

	// A PIX out.
	e.fund(m, 100)
	out := map[string]any{"amount": 10, "pixKey": "reuse@example.com", "pixKeyType": "EMAIL"}
	sent := post("/v1/transfer-pix/create", "pix-K", out)
	if sent.Status != 200 {
		t.Fatalf("PIX out: %d %s", sent.Status, sent.Message)
	}
	if r := e.call(m.Key, "POST", "/v1/sandbox/transfer-pix/"+sent.m(t)["id"].(string)+"/settle", nil); r.Status != 200 {
		t.Fatalf("settle: %d %s", r.Status, r.Message)
	}
	e.waitTransfer(m, sent.m(t)["id"].(string), "COMPLETED")
	before := e.balance(m)
	pastWindow("pix-K")
	other := map[string]any{"amount": 25, "pixKey": "someone-else@example.com", "pixKeyType": "EMAIL"}
	if r := post("/v1/transfer-pix/create", "pix-K", other); r.Status != 422 || !strings.Contains(r.Message, "Idempotency-Key") {
		t.Fatalf("a reused key with another body: %d %s, want 422 naming Idempotency-Key", r.Status, r.Message)
	}
	pastWindow("pix-K")
	again := post("/v1/transfer-pix/create", "pix-K", out)
	if again.Status != 200 || again.m(t)["id"] != sent.m(t)["id"] || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the same PIX out after the window: %d %s %s (Idempotent-Replayed %q), want transfer %v replayed",
			again.Status, again.Message, again.Data, again.Header.Get("Idempotent-Replayed"), sent.m(t)["id"])
	}
	if after := e.balance(m); after["available"] != before["available"] || after["withdrawable"] != before["withdrawable"] {
		t.Fatalf("the reused key moved money: balance %v, was %v", after, before)
	}

	// Card tokens.
	visa := map[string]any{"holderName": "MARIA SILVA", "number": "4111111111111111", "expiryMonth": "12", "expiryYear": "2035", "ccv": "321"}
	master := map[string]any{"holderName": "MARIA SILVA", "number": "5555555555554444", "expiryMonth": "11", "expiryYear": "2034", "ccv": "123"}
	tok := post("/v1/billings/tokenize-card", "card-K", map[string]any{"customer": billingCustomer, "creditCard": visa})
	if tok.Status != 200 {
		t.Fatalf("tokenize: %d %s", tok.Status, tok.Message)
	}
	pastWindow("card-K")
	tok2 := post("/v1/billings/tokenize-card", "card-K", map[string]any{"customer": billingCustomer, "creditCard": master})
	if tok2.Status != 200 || tok2.m(t)["creditCardToken"] == tok.m(t)["creditCardToken"] || tok2.m(t)["creditCardNumber"] != "4444" {
		t.Fatalf("another card under a reused key: %d %s %s, want its own token (first %s)", tok2.Status, tok2.Message, tok2.Data, tok.Data)
	}
	e.verifyLedger()
}

// submissions counts the processor calls a billing refund's workflow
// completed (SubmitBillingRefund).
func submissions(t *testing.T, refundID string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	name := activityName((*activities.Billings).SubmitBillingRefund)
	it := temporalClient.GetWorkflowHistory(ctx, workflows.BillingRefundWorkflowID(refundID), "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	scheduled, n := map[int64]string{}, 0
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return -1 // not started yet
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			scheduled[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil && scheduled[a.GetScheduledEventId()] == name {
			n++
		}
	}
	return n
}
