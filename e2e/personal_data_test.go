package e2e

import (
	"bytes"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

// historyBytes is every payload of a workflow's history as an operator
// reads it through the codec (the start's input, signals, every step's
// input and result, memos), opened with the payload key, one after the
// other.
func historyBytes(t *testing.T, e *env, workflowID string) []byte {
	t.Helper()
	var all []byte
	for _, ev := range historyEvents(t, e, workflowID) {
		for _, p := range payloadsOf(ev.ProtoReflect()) {
			if string(p.GetMetadata()["encoding"]) == "binary/encrypted" {
				out, err := payloadCodec.Decode([]*commonpb.Payload{p})
				if err != nil {
					t.Fatalf("open a payload of %s: %v", workflowID, err)
				}
				p = out[0]
			}
			all = append(append(all, p.GetData()...), '\n')
		}
	}
	return all
}

// holdsNone fails the test for each personal datum found in the opened
// payloads of a workflow's history; readable must be there (the resource's
// id): it proves the payloads opened, so a name would have been seen.
func holdsNone(t *testing.T, e *env, workflowID, readable string, personal ...string) {
	t.Helper()
	h := historyBytes(t, e, workflowID)
	if !bytes.Contains(h, []byte(readable)) {
		t.Fatalf("%s: the history's payloads did not open: this test would see no name", workflowID)
	}
	for _, p := range personal {
		if i := bytes.Index(h, []byte(p)); i >= 0 {
			t.Errorf("%s holds %q: …%s…", workflowID, p, h[max(0, i-150):min(len(h), i+60)])
		}
	}
}

// payloadsOf finds every Payload message inside m.
func payloadsOf(m protoreflect.Message) []*commonpb.Payload {
	if p, ok := m.Interface().(*commonpb.Payload); ok {
		return []*commonpb.Payload{p}
	}
	var out []*commonpb.Payload
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := range v.List().Len() {
				out = append(out, payloadsOf(v.List().Get(i).Message())...)
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				out = append(out, payloadsOf(mv.Message())...)
				return true
			})
		case fd.Message() != nil && !fd.IsList() && !fd.IsMap():
			out = append(out, payloadsOf(v.Message())...)
		}
		return true
	})
	return out
}

// Workflows carry references, not personal data: a charge created with a
// payer and paid by another (the processor's notice names them) is
// COMPLETED with the notice's payer, and its workflow's history — the
// start's input, the notice's signal, every step's input and result —
// holds neither payer's name nor document.
func TestChargeHistoryHoldsNoPersonalData(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	c := e.createCharge(m, map[string]any{"amount": 10, "description": "Venda",
		"payer": map[string]any{"name": "Ana Criadora", "document": "529.982.247-25"}})
	id := c["id"].(string)
	if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{"payerName": "Bruno Pagador",
		"payerDocument": "111.444.777-35"}); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Message)
	}
	var paid map[string]any
	eventually(t, "the charge paid", func() bool {
		paid = e.call(m.Key, "GET", "/v1/payment-pix/get/"+id, nil).m(t)
		return paid["status"] == "COMPLETED"
	})
	if p, _ := paid["payer"].(map[string]any); p["name"] != "Bruno Pagador" {
		t.Fatalf("the paid charge's payer: %v, want the notice's", paid["payer"])
	}
	personal := []string{"Ana Criadora", "52998224725", "529.982.247-25", "Bruno Pagador", "11144477735", "111.444.777-35"}
	holdsNone(t, e, workflows.ChargeWorkflowID(id), `"chargeId":"`+id+`"`, personal...)
	// Its refund's workflow carries the deposit without its payer (the
	// deposit's money is locked: the refund is paid from other funds).
	e.fund(m, 20)
	if r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": id, "amount": 10}); r.Status != 200 {
		t.Fatalf("refund: %d %s", r.Status, r.Message)
	}
	holdsNone(t, e, workflows.RefundWorkflowID(id), id, personal...)
}

// A PIX out's history holds neither the PIX key it was sent to nor the
// recipient the processor's settle notice names (the DICT's name and
// document): the transfer is COMPLETED with that recipient all the same.
func TestTransferHistoryHoldsNoPersonalData(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	e.fund(m, 50)
	tr := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 5, "pixKey": "chave.pessoal@example.com",
		"pixKeyType": "EMAIL", "description": "Fornecedor"})
	if tr.Status != 200 {
		t.Fatalf("transfer: %d %s", tr.Status, tr.Message)
	}
	id := tr.m(t)["id"].(string)
	eventually(t, "the PIX out submitted", func() bool {
		return e.call(m.Key, "GET", "/v1/transfer-pix/get/"+id, nil).m(t)["status"] == "PROCESSING"
	})
	if r := e.call(m.Key, "POST", "/v1/sandbox/transfer-pix/"+id+"/settle", nil); r.Status != 200 {
		t.Fatalf("settle: %d %s", r.Status, r.Message)
	}
	var done map[string]any
	eventually(t, "the PIX out settled", func() bool {
		done = e.call(m.Key, "GET", "/v1/transfer-pix/get/"+id, nil).m(t)
		return done["status"] == "COMPLETED"
	})
	recipient, _ := done["recipient"].(map[string]any)
	name, _ := recipient["name"].(string)
	doc, _ := recipient["document"].(string)
	if name == "" || doc == "" {
		t.Fatalf("the settled transfer's recipient: %v, want the notice's name and document", done["recipient"])
	}
	holdsNone(t, e, workflows.TransferWorkflowID(id), id, "chave.pessoal@example.com", name, doc)
}

// A billing's workflow and a checkout's charge hold neither the customer's
// nor the payer's name, document or e-mail.
func TestBillingAndCheckoutHistoriesHoldNoPersonalData(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	b := e.createBilling(m, map[string]any{"method": "BOLETO", "amount": 30, "customer": map[string]any{
		"name": "Carla Cliente", "taxId": "111.444.777-35", "email": "carla.cliente@example.com", "phone": "11987654321"}})
	bid := b["id"].(string)
	if r := e.call(m.Key, "POST", "/v1/sandbox/billings/"+bid+"/pay", nil); r.Status != 200 {
		t.Fatalf("pay billing: %d %s", r.Status, r.Message)
	}
	e.waitBilling(m, bid, "RECEIVED")
	linkID := e.link(m, map[string]any{"name": "Curso", "fixedAmount": 12, "customerMode": "REQUIRED"})
	_, txID, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX", "payer": map[string]any{
		"name": "Davi Comprador", "document": "529.982.247-25", "email": "davi.comprador@example.com"}})
	if r.Status != 200 {
		t.Fatalf("checkout: %d %s", r.Status, r.Message)
	}
	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+txID+"/pay", nil); p.Status != 200 {
		t.Fatalf("pay checkout: %d %s", p.Status, p.Message)
	}
	e.waitStatus(m, txID, "COMPLETED")
	holdsNone(t, e, workflows.BillingWorkflowID(bid), bid,
		"Carla Cliente", "11144477735", "111.444.777-35", "carla.cliente@example.com", "11987654321")
	holdsNone(t, e, workflows.ChargeWorkflowID(txID), txID, "Davi Comprador", "52998224725", "529.982.247-25", "davi.comprador@example.com")
}

// A mobile recharge's history holds no phone number: the operator's
// request reads it from the stored recharge.
func TestRechargeHistoryHoldsNoPhone(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.rechargeMerchant(100)
	r := e.createRecharge(m, "11937654321", 20)
	id := r["id"].(string)
	eventually(t, "the recharge submitted", func() bool {
		got := e.call(m.Key, "GET", "/v1/mobile-recharge/get/"+id, nil).m(t)
		ref, _ := got["referenceId"].(string)
		return ref != ""
	})
	holdsNone(t, e, workflows.RechargeWorkflowID(id), id, "11937654321", "937654321")
}

// A subscription's workflow (its input, each cycle's and the cancel's
// results, the cancel's answer) holds none of its customer's data; the
// cancel still answers with the customer, read from PostgreSQL.
func TestSubscriptionHistoryHoldsNoPersonalData(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	r := e.call(m.Key, "POST", "/v1/subscriptions/create", map[string]any{"method": "PIX", "amount": 19.90, "cycle": "MONTHLY",
		"nextDueDate": domain.Today(time.Now()).Format(time.DateOnly), "description": "Plano",
		"customer": map[string]any{"name": "Erica Assinante", "taxId": "111.444.777-35", "email": "erica.assinante@example.com"}})
	if r.Status != 200 {
		t.Fatalf("subscription: %d %s", r.Status, r.Message)
	}
	id := r.m(t)["subscriptionId"].(string)
	eventually(t, "the first cycle billed", func() bool {
		s := e.call(m.Key, "GET", "/v1/subscriptions/get/"+id, nil).m(t)
		last, _ := s["lastBillingId"].(string)
		return last != ""
	})
	c := e.call(m.Key, "POST", "/v1/subscriptions/cancel/"+id, nil)
	if c.Status != 200 || c.m(t)["status"] != "CANCELED" || c.m(t)["customer"].(map[string]any)["name"] != "Erica Assinante" {
		t.Fatalf("cancel: %d %s %s", c.Status, c.Message, c.Data)
	}
	holdsNone(t, e, workflows.SubscriptionWorkflowID(id), id, "Erica Assinante", "11144477735", "111.444.777-35", "erica.assinante@example.com")
}
