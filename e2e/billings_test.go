package e2e

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/jangada/jangada/boleto"
	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

var billingCustomer = map[string]any{"name": "Maria Silva", "taxId": "529.982.247-25", "email": "maria@example.com"}

func (e *env) createBilling(m merchant, body map[string]any) map[string]any {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/billings/create", body)
	if r.Status != 200 {
		e.t.Fatalf("create billing %v: %d %s", body, r.Status, r.Message)
	}
	return r.m(e.t)
}

func (e *env) waitBilling(m merchant, id, want string) map[string]any {
	e.t.Helper()
	var got map[string]any
	eventually(e.t, "billing "+id+" to be "+want, func() bool {
		got = e.call(m.Key, "GET", "/v1/billings/get/"+id, nil).m(e.t)
		return got["status"] == want
	})
	return got
}

func TestBillingBoletoPaidRefundedInPartsAndItsSlip(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	b := e.createBilling(m, map[string]any{"method": "BOLETO", "amount": 150, "customer": billingCustomer, "externalReference": "fatura-1"})
	id := b["id"].(string)
	if b["status"] != "PENDING" || b["statusLabel"] != "Pendente" || b["feeAmount"] != 1.99 || b["netAmount"] != 148.01 {
		t.Fatalf("created: %v", b)
	}
	// A real FEBRABAN boleto, due today + 3 in São Paulo.
	line := b["digitableLine"].(string)
	bar, err := boleto.BarcodeOf(line)
	if err != nil || !strings.HasSuffix(bar[:19], "0000015000") {
		t.Fatalf("digitable line %s: barcode %s, %v", line, bar, err)
	}
	if want := domain.Today(time.Now()).AddDate(0, 0, 3).Format(time.DateOnly); b["dueDate"] != want {
		t.Errorf("dueDate %v, want %s", b["dueDate"], want)
	}
	slip := b["bankSlipUrl"].(string)
	if !strings.HasPrefix(slip, "http://jangada.test/billings/slip/") {
		t.Fatalf("bankSlipUrl %s", slip)
	}
	res, err := http.Get(e.base + strings.TrimPrefix(slip, "http://jangada.test"))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), `data-barcode="`+bar+`"`) || !strings.Contains(string(page), "<svg") {
		t.Fatalf("slip page %d: %.200s", res.StatusCode, page)
	}
	// The merchant is the beneficiary (its name and CNPJ), the payer's CPF
	// is masked, the amount in reais as Brazilians write it.
	name := e.admin("GET", "/accounts/"+m.ID, nil).m(t)["name"].(string)
	for _, want := range []string{name + " — CNPJ 11.222.333/0001-81", "Maria Silva (***.982.247-**)", "R$ 150,00"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("slip page lacks %q", want)
		}
	}
	if strings.Contains(string(page), "52998224725") || strings.Contains(string(page), "529.982.247-25") {
		t.Error("the slip page prints the payer's CPF in full")
	}
	// Another account sees nothing of it.
	other := e.merchant()
	for _, r := range []resp{
		e.call(other.Key, "GET", "/v1/billings/get/"+id, nil),
		e.call(other.Key, "POST", "/v1/sandbox/billings/"+id+"/pay", nil),
		e.call(other.Key, "POST", "/v1/billings/refund", map[string]any{"id": id}),
	} {
		if r.Status != 404 {
			t.Errorf("another account: %d %s", r.Status, r.Message)
		}
	}
	// Not paid yet: nothing to refund.
	if r := e.call(m.Key, "POST", "/v1/billings/refund", map[string]any{"id": id}); r.Status != 400 {
		t.Fatalf("refund of a pending billing: %d", r.Status)
	}

	if r := e.call(m.Key, "POST", "/v1/sandbox/billings/"+id+"/pay", nil); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Message)
	}
	paid := e.waitBilling(m, id, "RECEIVED")
	if paid["statusLabel"] != "Pago" || paid["paidAt"] == nil || paid["accountTransactionId"] == nil || paid["estimatedCreditDate"] == nil {
		t.Fatalf("paid: %v", paid)
	}
	// By the processor's id too.
	if r := e.call(m.Key, "GET", "/v1/billings/get/"+paid["externalId"].(string), nil); r.Status != 200 || r.m(t)["id"] != id {
		t.Errorf("get by externalId: %d", r.Status)
	}
	wantBalance(t, e, m, 148.01, 0, 0) // the net, locked until the next day
	e.verifyLedger()

	// A partial refund, one above what is left (400, nothing moves), the rest.
	r := e.call(m.Key, "POST", "/v1/billings/refund", map[string]any{"id": id, "amount": 50, "description": "parcial"})
	if r.Status != 200 || r.m(t)["status"] != "PARTIALLY_REFUNDED" || r.m(t)["statusLabel"] != "Estornado parcial" {
		t.Fatalf("partial refund: %d %s %v", r.Status, r.Message, r.m(t))
	}
	before := e.balance(m)
	if r := e.call(m.Key, "POST", "/v1/billings/refund", map[string]any{"id": id, "amount": 100.01}); r.Status != 400 || !strings.Contains(r.Message, "amount") {
		t.Fatalf("refund above what is left: %d %s", r.Status, r.Message)
	}
	if after := e.balance(m); after["available"] != before["available"] {
		t.Fatalf("a refused refund moved money: %v → %v", before, after)
	}
	r = e.call(m.Key, "POST", "/v1/billings/refund", map[string]any{"id": id})
	if r.Status != 200 || r.m(t)["status"] != "REFUNDED" || r.m(t)["refundedAmount"] != 150.0 {
		t.Fatalf("refund of the rest: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "POST", "/v1/billings/refund", map[string]any{"id": id}); r.Status != 400 {
		t.Fatalf("refund of a refunded billing: %d", r.Status)
	}
	wantBalance(t, e, m, 0, 0, 0) // the refunds gave back exactly what the payment credited
	e.verifyLedger()

	// Listed with its filters.
	l := e.call(m.Key, "GET", "/v1/billings/list?method=BOLETO&status=REFUNDED&externalReference=fatura-1", nil).m(t)
	if l["total"] != 1.0 {
		t.Errorf("list: %v", l)
	}
}

func TestBillingBoletoOverdueStillPayable(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	id := e.createBilling(m, map[string]any{"method": "BOLETO", "amount": 20, "customer": billingCustomer})["id"].(string)
	if r := e.call(m.Key, "POST", "/v1/sandbox/billings/"+id+"/overdue", nil); r.Status != 200 {
		t.Fatalf("overdue: %d %s", r.Status, r.Message)
	}
	if got := e.waitBilling(m, id, "OVERDUE"); got["statusLabel"] != "Vencido" {
		t.Fatalf("overdue: %v", got)
	}
	e.call(m.Key, "POST", "/v1/sandbox/billings/"+id+"/pay", nil)
	e.waitBilling(m, id, "RECEIVED")
	wantBalance(t, e, m, 18.01, 0, 0)
	e.verifyLedger()
}

func TestBillingPixPaidThroughItsCharge(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	b := e.createBilling(m, map[string]any{"method": "PIX", "amount": 100, "customer": billingCustomer, "description": "Plano"})
	id := b["id"].(string)
	code, _ := b["pixCopyPaste"].(string)
	if p, err := brcode.Parse(code); err != nil || p.Amount != 10000 {
		t.Fatalf("pixCopyPaste %q: %+v, %v", code, p, err)
	}
	if img, _ := b["pixEncodedImage"].(string); !strings.HasPrefix(img, "data:image/png;base64,") {
		t.Fatalf("pixEncodedImage %.40q", img)
	}
	// The billing's charge is an ordinary charge: the PIX sandbox pays it.
	stored, err := db.BillingByID(context.Background(), e.app.DB, id)
	if err != nil || stored.ChargeID == nil {
		t.Fatalf("stored: %+v, %v", stored, err)
	}
	if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+*stored.ChargeID+"/pay", nil); r.Status != 200 {
		t.Fatalf("pay the charge: %d %s", r.Status, r.Message)
	}
	paid := e.waitBilling(m, id, "RECEIVED")
	if paid["accountTransactionId"] != *stored.ChargeID || paid["pixCopyPaste"] != nil {
		t.Fatalf("paid: %v", paid)
	}
	if evs := eventTypes(t, e, *stored.ChargeID); len(evs) != 2 || evs[1] != "payment.paid" {
		t.Errorf("charge events %v", evs)
	}
	wantBalance(t, e, m, 99.5, 0, 0)
	// A partial refund goes back through PIX.
	if r := e.call(m.Key, "POST", "/v1/billings/refund", map[string]any{"id": id, "amount": 40}); r.Status != 200 || r.m(t)["status"] != "PARTIALLY_REFUNDED" {
		t.Fatalf("refund: %d %s", r.Status, r.Message)
	}
	e.verifyLedger()

	// The billing's own sandbox route pays a PIX billing the same way.
	b2 := e.createBilling(m, map[string]any{"method": "PIX", "amount": 10, "customer": billingCustomer})
	e.call(m.Key, "POST", "/v1/sandbox/billings/"+b2["id"].(string)+"/pay", nil)
	e.waitBilling(m, b2["id"].(string), "RECEIVED")
	// Past due: its charge expires and the billing is OVERDUE.
	b3 := e.createBilling(m, map[string]any{"method": "PIX", "amount": 10, "customer": billingCustomer})
	if r := e.call(m.Key, "POST", "/v1/sandbox/billings/"+b3["id"].(string)+"/overdue", nil); r.Status != 200 {
		t.Fatalf("overdue: %d %s", r.Status, r.Message)
	}
	e.waitBilling(m, b3["id"].(string), "OVERDUE")
	e.verifyLedger()
}

func TestBillingCardsApprovedDeclinedAndNeverStored(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	logged := logs.capture(t)
	m := e.merchant()
	approve := map[string]any{"holderName": "MARIA SILVA", "number": "4111 1111 1111 1111", "expiryMonth": "12", "expiryYear": "2035", "ccv": "321"}
	decline := map[string]any{"holderName": "MARIA SILVA", "number": "4000000000000002", "expiryMonth": "12", "expiryYear": "2035", "ccv": "321"}
	r := e.call(m.Key, "POST", "/v1/billings/tokenize-card", map[string]any{"customer": billingCustomer, "creditCard": approve})
	if r.Status != 200 {
		t.Fatalf("tokenize: %d %s", r.Status, r.Message)
	}
	tok := r.m(t)
	if tok["creditCardBrand"] != "VISA" || tok["creditCardNumber"] != "1111" || tok["creditCardToken"] == "" {
		t.Fatalf("token: %v", tok)
	}
	credit := e.createBilling(m, map[string]any{"method": "CARD_CREDIT", "amount": 300, "installmentCount": 3, "customer": billingCustomer,
		"cardToken": tok["creditCardToken"]})
	first := e.createBilling(m, map[string]any{"method": "CARD_VOUCHER", "amount": 50, "customer": billingCustomer, "creditCard": approve, "remoteIp": "203.0.113.9"})
	if first["creditCardNumber"] != "1111" || first["creditCardToken"] == nil {
		t.Errorf("first charge with a card answers its token: %v", first)
	}
	declined := e.createBilling(m, map[string]any{"method": "CARD_CREDIT", "amount": 80, "customer": billingCustomer, "creditCard": decline})
	debit := e.createBilling(m, map[string]any{"method": "CARD_DEBIT", "amount": 40, "customer": billingCustomer})
	if u, _ := debit["invoiceUrl"].(string); !strings.HasPrefix(u, "http://jangada.test/billings/invoice/") {
		t.Errorf("invoiceUrl %v", debit["invoiceUrl"])
	}

	got := e.waitBilling(m, credit["id"].(string), "CONFIRMED")
	if want := domain.Today(time.Now().AddDate(0, 0, 30)).Format(time.DateOnly); got["estimatedCreditDate"] != want || got["installmentCount"] != 3.0 {
		t.Errorf("confirmed credit card: %v (want credit on %s)", got, want)
	}
	e.waitBilling(m, first["id"].(string), "CONFIRMED")
	if f := e.waitBilling(m, declined["id"].(string), "FAILED"); f["statusLabel"] != "Falhou" {
		t.Errorf("declined: %v", f)
	}
	e.call(m.Key, "POST", "/v1/sandbox/billings/"+debit["id"].(string)+"/pay", nil)
	e.waitBilling(m, debit["id"].(string), "CONFIRMED")
	// 300 − (0.49 + 2.99%) + 50 − (0.50 + 3.5%) + 40 − (0.35 + 1.89%), all locked.
	wantBalance(t, e, m, 300-0.49-8.97+50-0.5-1.75+40-0.35-0.76, 0, 0)
	// A refund of a confirmed card billing.
	if r := e.call(m.Key, "POST", "/v1/billings/refund", map[string]any{"id": credit["id"]}); r.Status != 200 || r.m(t)["status"] != "REFUNDED" {
		t.Fatalf("card refund: %d %s", r.Status, r.Message)
	}
	e.verifyLedger()

	// Another account cannot use the token.
	other := e.merchant()
	if r := e.call(other.Key, "POST", "/v1/billings/create", map[string]any{"method": "CARD_CREDIT", "amount": 10, "customer": billingCustomer,
		"cardToken": tok["creditCardToken"]}); r.Status != 400 || !strings.Contains(r.Message, "cardToken") {
		t.Errorf("another account's token: %d %s", r.Status, r.Message)
	}

	e.wantNoCardData(logged, credit["id"].(string), first["id"].(string), declined["id"].(string), debit["id"].(string))
}

// wantNoCardData fails the test if a sandbox card's number or its CVV
// (321) is in the log output captured (logged: logs.capture), in any
// table, or in the histories of the billings' workflows (their payloads
// decoded with the codec too).
func (e *env) wantNoCardData(logged func() string, billingIDs ...string) {
	t := e.t
	t.Helper()
	// The apps' logger writes into the capture: the line below proves it
	// is attached.
	slog.Info("card billing test: the log capture is attached", "test", t.Name())
	out := logged()
	if !strings.Contains(out, "the log capture is attached") {
		t.Fatalf("the log capture saw nothing (%d bytes)", len(out))
	}
	for _, secret := range []string{"4111111111111111", "4000000000000002", "4111 1111 1111 1111", `"321"`, "ccv=321"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log output holds %q", secret)
		}
	}
	for _, secret := range []string{"4111111111111111", "4000000000000002", "4111 1111 1111 1111"} {
		var tables []string
		if err := e.app.DB.SelectContext(context.Background(), &tables,
			`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`); err != nil {
			t.Fatal(err)
		}
		for _, tbl := range tables {
			var n int
			if err := e.app.DB.GetContext(context.Background(), &n, `SELECT count(*) FROM "`+tbl+`" x WHERE x::text LIKE '%' || $1 || '%'`, secret); err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				t.Errorf("table %s holds a card number", tbl)
			}
		}
	}
	for _, id := range billingIDs {
		it := e.app.Temporal.GetWorkflowHistory(context.Background(), workflows.BillingWorkflowID(id), "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(ev)
			text := string(raw)
			// The payloads decoded with the codec too.
			if a := ev.GetWorkflowExecutionStartedEventAttributes(); a != nil {
				var in workflows.BillingInput
				if err := dataConverter.FromPayloads(a.GetInput(), &in); err != nil {
					t.Fatal(err)
				}
				dec, _ := json.Marshal(in)
				text += string(dec)
			}
			if a := ev.GetWorkflowExecutionSignaledEventAttributes(); a != nil {
				var v map[string]any
				_ = dataConverter.FromPayloads(a.GetInput(), &v)
				dec, _ := json.Marshal(v)
				text += string(dec)
			}
			for _, secret := range []string{"4111111111111111", "4000000000000002", `"321"`} {
				if strings.Contains(text, secret) {
					t.Errorf("history of %s holds %s", id, secret)
				}
			}
		}
	}
}

func TestBillingBadInput(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	for body, field := range map[string]string{
		`{"method":"CHEQUE","amount":10,"customer":{"name":"A","taxId":"52998224725"}}`:                                            "method",
		`{"method":"BOLETO","amount":0,"customer":{"name":"A","taxId":"52998224725"}}`:                                             "amount",
		`{"method":"BOLETO","amount":10,"dueDate":"2020-01-01","customer":{"name":"A","taxId":"52998224725"}}`:                     "dueDate",
		`{"method":"BOLETO","amount":10,"customer":{"name":"A","taxId":"11111111111"}}`:                                            "customer.taxId",
		`{"method":"CARD_DEBIT","amount":10,"cardToken":"x","customer":{"name":"A","taxId":"52998224725"}}`:                        "cardToken",
		`{"method":"CARD_CREDIT","amount":10,"installmentCount":25,"cardToken":"x","customer":{"name":"A","taxId":"52998224725"}}`: "installmentCount",
		`{"method":"BOLETO","amount":1,"customer":{"name":"A","taxId":"52998224725"}}`:                                             "amount",
	} {
		var v map[string]any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		if r := e.call(m.Key, "POST", "/v1/billings/create", v); r.Status != 400 || !strings.Contains(r.Message, field) {
			t.Errorf("%s: %d %s (want 400 naming %s)", body, r.Status, r.Message, field)
		}
	}
}
