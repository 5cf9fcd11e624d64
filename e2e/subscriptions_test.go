package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/workflows"
)

// Subscriptions: a subscription due today bills its first cycle
// at once through the billing use case (a real billing, PENDING), plans the
// next cycle from the anchor, is found by id or externalId, listed by
// status, and canceled: its pending billing is canceled with it. Another
// account's subscription is a 404 on every route. The workflow's history
// shows the cycle cost no workflow task beyond the start's.
func TestSubscriptionBillsCancelsAndIsScoped(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	other := e.merchant()
	today := domain.Today(time.Now())
	r := e.call(m.Key, "POST", "/v1/subscriptions/create", map[string]any{"method": "PIX", "amount": 49.90, "cycle": "MONTHLY",
		"nextDueDate": today.Format(time.DateOnly), "description": "Plano mensal",
		"customer": map[string]any{"name": "Maria Assinante", "taxId": "529.982.247-25", "email": "maria@example.com"}})
	if r.Status != 200 {
		t.Fatalf("create: %d %s", r.Status, r.Message)
	}
	var sub billing.SubscriptionRecord
	r.into(t, &sub)
	if sub.Status != billing.SubscriptionActive || sub.NextDueDate != today.Format(time.DateOnly) || sub.CycleNumber != 1 || sub.ExternalID == "" {
		t.Fatalf("created %+v", sub)
	}
	next := billing.CycleDue(billing.CycleMonthly, today, 2).Format(time.DateOnly)
	eventually(t, "cycle 1 billed", func() bool {
		g := e.call(m.Key, "GET", "/v1/subscriptions/get/"+sub.SubscriptionID, nil)
		g.into(t, &sub)
		return g.Status == 200 && sub.CycleNumber == 2
	})
	if sub.NextDueDate != next || sub.LastBillingID == "" || sub.AnchorDate != today.Format(time.DateOnly) {
		t.Fatalf("after cycle 1: %+v", sub)
	}
	b := e.call(m.Key, "GET", "/v1/billings/get/"+sub.LastBillingID, nil)
	bm := b.m(t)
	if b.Status != 200 || bm["status"] != billing.BillingPending || bm["amount"] != 49.9 || bm["method"] != "PIX" || bm["dueDate"] != today.Format(time.DateOnly) {
		t.Fatalf("cycle 1's billing: %d %v", b.Status, bm)
	}

	// Another account sees none of it.
	for _, path := range []string{"/v1/subscriptions/get/" + sub.SubscriptionID, "/v1/subscriptions/get/" + sub.ExternalID} {
		if r := e.call(other.Key, "GET", path, nil); r.Status != 404 {
			t.Fatalf("other account GET %s: %d", path, r.Status)
		}
	}
	if r := e.call(other.Key, "POST", "/v1/subscriptions/cancel/"+sub.SubscriptionID, nil); r.Status != 404 {
		t.Fatalf("other account cancel: %d %s", r.Status, r.Message)
	}
	var page struct {
		Items []billing.SubscriptionRecord `json:"items"`
		Total int                          `json:"total"`
	}
	e.call(m.Key, "GET", "/v1/subscriptions/list?status=ACTIVE", nil).into(t, &page)
	if page.Total != 1 || page.Items[0].SubscriptionID != sub.SubscriptionID {
		t.Fatalf("active list %+v", page)
	}

	// Cycle cost: the start's workflow task billed cycle 1 (a local
	// activity) and armed cycle 2's timer; no other task ran.
	tasks, markers, timers := historyCounts(t, workflows.SubscriptionWorkflowID(sub.SubscriptionID))
	t.Logf("subscription history before cancel: %d workflow tasks, %d local activity markers, %d timers", tasks, markers, timers)
	if tasks != 1 || markers != 1 || timers != 1 {
		t.Fatalf("%d workflow tasks, %d markers, %d timers; want 1, 1, 1", tasks, markers, timers)
	}

	// Cancel by the provider's externalId: the pending billing goes with it.
	c := e.call(m.Key, "POST", "/v1/subscriptions/cancel/"+sub.ExternalID, nil)
	if c.Status != 200 {
		t.Fatalf("cancel: %d %s", c.Status, c.Message)
	}
	var canceled billing.SubscriptionRecord
	c.into(t, &canceled)
	if canceled.Status != billing.SubscriptionCanceled || canceled.CanceledAt == nil {
		t.Fatalf("canceled %+v", canceled)
	}
	eventually(t, "the pending billing canceled", func() bool {
		return e.call(m.Key, "GET", "/v1/billings/get/"+sub.LastBillingID, nil).m(t)["status"] == billing.BillingCanceled
	})
	if r := e.call(m.Key, "POST", "/v1/subscriptions/cancel/"+sub.SubscriptionID, nil); r.Status != 400 {
		t.Fatalf("second cancel: %d %s", r.Status, r.Message)
	}
	e.lenient().call(m.Key, "GET", "/v1/subscriptions/list?status=canceled", nil).into(t, &page) // any case
	if page.Total != 1 {
		t.Fatalf("canceled list %+v", page)
	}
	e.verifyLedger()
}

// historyCounts counts a workflow's completed workflow tasks, local
// activity markers and timers started.
func historyCounts(t *testing.T, workflowID string) (tasks, markers, timers int) {
	t.Helper()
	it := temporalClient.GetWorkflowHistory(context.Background(), workflowID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch ev.GetEventType() {
		case enums.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			tasks++
		case enums.EVENT_TYPE_MARKER_RECORDED:
			markers++
		case enums.EVENT_TYPE_TIMER_STARTED:
			timers++
		}
	}
	return tasks, markers, timers
}

// Bad subscription bodies are 400s naming the field, through HTTP.
func TestSubscriptionRefusals(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	today := domain.Today(time.Now()).Format(time.DateOnly)
	for body, want := range map[string]string{
		`{"method":"CARD_DEBIT","amount":10,"cycle":"MONTHLY","nextDueDate":"` + today + `","customer":{"name":"M","taxId":"52998224725"}}`:                     "method must be one of",
		`{"method":"PIX","amount":10,"cycle":"DAILY","nextDueDate":"` + today + `","customer":{"name":"M","taxId":"52998224725"}}`:                              "cycle must be one of",
		`{"method":"PIX","amount":0,"cycle":"WEEKLY","nextDueDate":"` + today + `","customer":{"name":"M","taxId":"52998224725"}}`:                              "amount must be between",
		`{"method":"PIX","amount":10,"cycle":"WEEKLY","nextDueDate":"2020-01-01","customer":{"name":"M","taxId":"52998224725"}}`:                                "nextDueDate must not be in the past",
		`{"method":"CARD_CREDIT","amount":10,"cycle":"WEEKLY","nextDueDate":"` + today + `","cardToken":"ctk_x","customer":{"name":"M","taxId":"52998224725"}}`: "cardToken is not a card token of this account",
		`{"method":"PIX","amount":10,"cycle":"WEEKLY","nextDueDate":"` + today + `","customer":{"id":"cus_nobody"}}`:                                            "customer.id is not a customer of this account",
	} {
		if r := e.call(m.Key, "POST", "/v1/subscriptions/create", body); r.Status != 400 || len(r.Message) < len(want) || r.Message[:len(want)] != want {
			t.Errorf("%s: %d %q, want 400 %q", body, r.Status, r.Message, want)
		}
	}
}

// A card subscription tokenizes the card at create (the number is stored
// nowhere: not in the subscription's row) and charges the token every
// cycle: cycle 1's billing, due today, is a card billing on that token.
func TestSubscriptionChargesTheStoredCard(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	today := domain.Today(time.Now()).Format(time.DateOnly)
	r := e.call(m.Key, "POST", "/v1/subscriptions/create", map[string]any{"method": "CARD_CREDIT", "amount": 29.90, "cycle": "WEEKLY",
		"nextDueDate": today, "customer": map[string]any{"name": "Maria Cartão", "taxId": "529.982.247-25"},
		"creditCard": map[string]any{"holderName": "MARIA CARTAO", "number": "4111 1111 1111 1111", "expiryMonth": "12",
			"expiryYear": time.Now().Year() + 2, "ccv": "123"}})
	if r.Status != 200 {
		t.Fatalf("create: %d %s", r.Status, r.Message)
	}
	var sub billing.SubscriptionRecord
	r.into(t, &sub)
	if sub.CreditCardBrand != "VISA" || sub.CreditCardNumber != "1111" {
		t.Fatalf("card shown as %q %q", sub.CreditCardBrand, sub.CreditCardNumber)
	}
	eventually(t, "cycle 1 billed", func() bool {
		e.call(m.Key, "GET", "/v1/subscriptions/get/"+sub.SubscriptionID, nil).into(t, &sub)
		return sub.CycleNumber == 2
	})
	var doc string
	if err := e.app.DB.QueryRowContext(context.Background(), `SELECT doc::text FROM subscriptions WHERE id = $1`, sub.SubscriptionID).Scan(&doc); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(doc, "4111111111111111") || strings.Contains(doc, "4111 1111") {
		t.Fatalf("the card number is in the subscription's row: %s", doc)
	}
	var b map[string]any
	eventually(t, "the card billing confirmed", func() bool {
		b = e.call(m.Key, "GET", "/v1/billings/get/"+sub.LastBillingID, nil).m(t)
		return b["status"] == billing.BillingConfirmed || b["status"] == billing.BillingReceived
	})
	if b["method"] != "CARD_CREDIT" || b["amount"] != 29.9 {
		t.Fatalf("billing %v", b)
	}
	e.verifyLedger()
}
