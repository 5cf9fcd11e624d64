package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/fiscal"
	"github.com/jangada/jangada/workflows"
)

// invoiceEvents are the invoice.* events a receiver got for one invoice,
// in the order of their createdAt (webhooks are not ordered across
// deliveries: docs/events.md), with only {"invoiceId"} as data.
func invoiceEvents(t *testing.T, rs []received, invoiceID string) []string {
	t.Helper()
	var mine []received
	for _, r := range rs {
		var data map[string]any
		if err := json.Unmarshal(r.Env.Data, &data); err != nil {
			t.Fatalf("data %s: %v", r.Env.Data, err)
		}
		if data["invoiceId"] != invoiceID {
			continue
		}
		if len(data) != 1 {
			t.Fatalf("%s data %s: want only invoiceId", r.Event, r.Env.Data)
		}
		mine = append(mine, r)
	}
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].Env.CreatedAt < mine[j].Env.CreatedAt })
	var types []string
	for _, r := range mine {
		types = append(types, r.Event)
	}
	return types
}

// TestFiscalInvoiceLifecycle: an account with fiscalInvoice on creates
// charges with emitFiscalInvoice; paid, each opens its invoice, which the
// sandbox issuer issues (or, for an amount ending in ,13, refuses). The
// invoice.* events reach a webhook endpoint subscribed to invoice.* and a
// WebSocket connection subscribed to the invoice.* pattern, in order, with
// only invoiceId; the charge's refund cancels its issued invoice. Without
// the feature, emitFiscalInvoice is refused with 403.
func TestFiscalInvoiceLifecycle(t *testing.T) {
	t.Parallel()
	e := hookEnv(t)
	m, off := e.merchant(), e.merchant()
	if r := e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"features": map[string]any{domain.FeatureFiscalInvoice: true}}); r.Status != 200 {
		t.Fatalf("feature: %d %s", r.Status, r.Message)
	}
	// Feature off: refused (403, naming the field); the rest of the charge API is unaffected.
	if r := e.call(off.Key, "POST", "/v1/payment-pix/create", map[string]any{"amount": 25, "description": "Venda", "emitFiscalInvoice": true}); r.Status != 403 {
		t.Fatalf("feature off: %d %s", r.Status, r.Message)
	}
	e.createCharge(off, map[string]any{"amount": 25, "description": "Venda", "emitFiscalInvoice": false})

	hook := newReceiver(t)
	e.endpoint(hook, m.ID, m.Key, "invoice.*")
	ws := e.connect(m.Key)
	if f := ws.subscribe("pattern", "invoice.*"); f["event"] != "subscribed" {
		t.Fatalf("subscribe: %v", f)
	}

	pay := func(amount float64) (chargeID, invoiceID string) {
		c := e.createCharge(m, map[string]any{"amount": amount, "description": "Consultoria", "emitFiscalInvoice": true})
		chargeID = c["id"].(string)
		if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+chargeID+"/pay", nil); r.Status != 200 {
			t.Fatalf("pay: %d %s", r.Status, r.Message)
		}
		e.waitStatus(m, chargeID, "COMPLETED")
		return chargeID, fiscal.FiscalInvoiceID(chargeID)
	}
	issuedCharge, issued := pay(25)
	_, failed := pay(25.13) // the sandbox issuer refuses amounts ending in ,13

	want := map[string][]string{
		issued: {domain.EventInvoiceCreated, domain.EventInvoiceProcessing, domain.EventInvoiceIssued},
		failed: {domain.EventInvoiceCreated, domain.EventInvoiceProcessing, domain.EventInvoiceFailed},
	}
	hook.waitFor(6)
	for id, types := range want {
		if got := invoiceEvents(t, hook.deliveries(), id); !slices.Equal(got, types) {
			t.Fatalf("webhook events of %s: %v, want %v", id, got, types)
		}
	}
	// The WebSocket delivers each invoice's events in commit order.
	wsGot := map[string][]string{}
	for range 6 {
		f := ws.read()
		data, _ := f["data"].(map[string]any)
		id, _ := data["invoiceId"].(string)
		if len(data) != 1 || want[id] == nil {
			t.Fatalf("frame %v", f["_raw"])
		}
		wsGot[id] = append(wsGot[id], f["event"].(string))
	}
	for id, types := range want {
		if !slices.Equal(wsGot[id], types) {
			t.Fatalf("WebSocket events of %s: %v, want %v", id, wsGot[id], types)
		}
	}
	inv, err := db.GetFiscalInvoice(context.Background(), e.app.DB, issued)
	if err != nil || inv.Status != fiscal.InvoiceIssued || inv.Number == nil || inv.ChargeID != issuedCharge || inv.Amount != 2500 {
		t.Fatalf("issued invoice %+v, %v", inv, err)
	}

	// The refund of the charge cancels its invoice and tells the issuer.
	e.fund(m, 10)
	refundID := "NF" + issuedCharge[:8]
	if r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": issuedCharge, "amount": 25, "refundId": refundID}); r.Status != 200 {
		t.Fatalf("refund: %d %s", r.Status, r.Message)
	}
	e.waitRefund(m, issuedCharge, "PROCESSING")
	if r := e.call(m.Key, "POST", "/v1/sandbox/refunds/"+refundID+"/settle", nil); r.Status != 200 {
		t.Fatalf("settle refund: %d %s", r.Status, r.Message)
	}
	hook.waitFor(7)
	if got := invoiceEvents(t, hook.deliveries(), issued); !slices.Equal(got, append(want[issued], domain.EventInvoiceCancelled)) {
		t.Fatalf("webhook events after the refund: %v", got)
	}
	if f := ws.read(); f["event"] != domain.EventInvoiceCancelled || f["data"].(map[string]any)["invoiceId"] != issued {
		t.Fatalf("WebSocket after the refund: %v", f["_raw"])
	}
	eventually(t, "the refund's workflow to tell the issuer", func() bool {
		return ranActivity(t, workflows.RefundWorkflowID(issuedCharge), activityName((*activities.FiscalInvoices).WithdrawInvoice))
	})
	e.verifyLedger()
}

// ranActivity reports whether the workflow's history has a completed
// activity of that name.
func ranActivity(t *testing.T, workflowID, name string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	it := temporalClient.GetWorkflowHistory(ctx, workflowID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	scheduled := map[int64]string{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			scheduled[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil && scheduled[a.GetScheduledEventId()] == name {
			return true
		}
	}
	return false
}
