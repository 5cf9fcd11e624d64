package e2e

import (
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
)

// The customer sent is the customer billed: a billing and a subscription
// for "Maria Silva" with the taxId of the store's customer "João Souza"
// are made out to Maria, linked to João's record by the taxId, and João's
// record is not changed; a billing naming João's id alone bills João.
func TestBillingBillsTheCustomerSent(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	joao := e.call(m.Key, "POST", "/v1/customers/create", map[string]any{"name": "João Souza", "email": "joao@example.com",
		"document": "529.982.247-25"})
	if joao.Status != 200 {
		t.Fatalf("customer: %d %s", joao.Status, joao.Message)
	}
	joaoID := joao.m(t)["id"].(string)
	maria := map[string]any{"name": "Maria Silva", "taxId": "529.982.247-25", "email": "maria@example.com"}

	b := e.createBilling(m, map[string]any{"method": "BOLETO", "amount": 150, "customer": maria})
	if c := b["customer"].(map[string]any); c["name"] != "Maria Silva" || c["id"] != joaoID || c["taxId"] != "52998224725" {
		t.Fatalf("billing for Maria with João's taxId: customer %v", c)
	}
	got := e.call(m.Key, "GET", "/v1/billings/get/"+b["id"].(string), nil).m(t)
	if got["customer"].(map[string]any)["name"] != "Maria Silva" {
		t.Fatalf("billing read back: %v", got["customer"])
	}
	if c := e.call(m.Key, "GET", "/v1/customers/get/"+joaoID, nil).m(t); c["name"] != "João Souza" || c["email"] != "joao@example.com" {
		t.Fatalf("the store's customer was changed by a billing: %v", c)
	}
	byID := e.createBilling(m, map[string]any{"method": "BOLETO", "amount": 10, "customer": map[string]any{"id": joaoID}})
	if c := byID["customer"].(map[string]any); c["name"] != "João Souza" || c["id"] != joaoID {
		t.Fatalf("billing for customer.id alone: %v", c)
	}

	today := domain.Today(time.Now()).Format(time.DateOnly)
	r := e.call(m.Key, "POST", "/v1/subscriptions/create", map[string]any{"method": "PIX", "amount": 49.90, "cycle": "MONTHLY",
		"nextDueDate": today, "description": "Plano", "customer": maria})
	if r.Status != 200 {
		t.Fatalf("subscription: %d %s", r.Status, r.Message)
	}
	sub := r.m(t)
	if c := sub["customer"].(map[string]any); c["name"] != "Maria Silva" || c["id"] != joaoID {
		t.Fatalf("subscription for Maria with João's taxId: customer %v", c)
	}
	var last string
	eventually(t, "the subscription's first cycle billed", func() bool {
		s := e.call(m.Key, "GET", "/v1/subscriptions/get/"+sub["subscriptionId"].(string), nil).m(t)
		last, _ = s["lastBillingId"].(string)
		return last != ""
	})
	if c := e.call(m.Key, "GET", "/v1/billings/get/"+last, nil).m(t)["customer"].(map[string]any); c["name"] != "Maria Silva" || c["id"] != joaoID {
		t.Fatalf("the first cycle's billing: customer %v", c)
	}
}
