package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
)

// invoiceCard is the invoice page's form with a sandbox card number.
func invoiceCard(number string) url.Values {
	return url.Values{"holderName": {"MARIA SILVA"}, "number": {number}, "expiryMonth": {"12"}, "expiryYear": {"2035"}, "ccv": {"321"}}
}

// A debit card billing is paid on its hosted invoice page. The
// page shows the form while payable (the hosted pages' headers), a bad card
// is the page again naming the field, the approving sandbox card confirms
// the billing (its net locked until the credit date, its statement line),
// a second payment is refused and charges nothing, the declining card
// fails another billing, a wrong token is a 404, and no card number or CVV
// reaches the logs, the tables or the workflows' histories.
func TestBillingDebitCardPaidOnItsInvoicePage(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	logged := logs.capture(t)
	m := e.merchant()
	debit := e.createBilling(m, map[string]any{"method": "CARD_DEBIT", "amount": 40, "customer": billingCustomer})
	declined := e.createBilling(m, map[string]any{"method": "CARD_DEBIT", "amount": 25, "customer": billingCustomer})
	invoice := func(b map[string]any) string {
		u, _ := b["invoiceUrl"].(string)
		if !strings.HasPrefix(u, "http://jangada.test/billings/invoice/") {
			t.Fatalf("invoiceUrl %q", u)
		}
		return strings.TrimPrefix(u, "http://jangada.test")
	}
	path := invoice(debit)

	res, page := e.page("GET", path, nil)
	if res.StatusCode != 200 || !strings.Contains(page, `<form method="post" action="`+path+`/pay"`) || !strings.Contains(page, "Maria Silva") ||
		!strings.Contains(page, "R$ 40,00") {
		t.Fatalf("invoice page %d: %s", res.StatusCode, page)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self'") ||
		res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("invoice page headers %v", res.Header)
	}

	// Bad cards: the page again, 400, naming the field; nothing charged.
	// (The form takes PAGE_CHECKOUTS_PER_MINUTE posts a minute per address,
	// 10 here: this test makes 8.)
	for field, form := range map[string]url.Values{
		"number":     invoiceCard("4111 1111 1111 1112"),
		"expiryYear": {"holderName": {"MARIA SILVA"}, "number": {"4111111111111111"}, "expiryMonth": {"01"}, "expiryYear": {"2020"}, "ccv": {"321"}},
		"ccv":        {"holderName": {"MARIA SILVA"}, "number": {"4111111111111111"}, "expiryMonth": {"12"}, "expiryYear": {"2035"}},
	} {
		res, page := e.page("POST", path+"/pay", form)
		if res.StatusCode != 400 || !strings.Contains(page, `id="erro">`+field) || !strings.Contains(page, "<form") {
			t.Errorf("bad %s: %d %s", field, res.StatusCode, page)
		}
	}
	if res, _ := e.page("POST", "/billings/invoice/"+strings.Repeat("0", 32)+"/pay", invoiceCard("4111111111111111")); res.StatusCode != 404 {
		t.Errorf("a wrong token: %d", res.StatusCode)
	}

	// The approving card: 303 to the page, which is in processing or paid.
	res, _ = e.page("POST", path+"/pay", invoiceCard("4111 1111 1111 1111"))
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != path {
		t.Fatalf("pay: %d %v", res.StatusCode, res.Header)
	}
	// Asked again (a double click): refused, no second charge.
	if res, page := e.page("POST", path+"/pay", invoiceCard("4111111111111111")); res.StatusCode != http.StatusConflict || strings.Contains(page, "<form") {
		t.Errorf("second payment: %d %s", res.StatusCode, page)
	}
	id := debit["id"].(string)
	got := e.waitBilling(m, id, "CONFIRMED")
	credit := domain.Today(domain.BillingCreditAt(domain.MethodCardDebit, time.Now())).Format(time.DateOnly)
	if got["estimatedCreditDate"] != credit || got["accountTransactionId"] == nil || got["paidAt"] == nil || got["externalId"] == nil {
		t.Errorf("confirmed debit billing: %v (want credit on %s)", got, credit)
	}
	if res, page := e.page("GET", path, nil); res.StatusCode != 200 || strings.Contains(page, "<form") || !strings.Contains(page, `id="pago"`) ||
		!strings.Contains(page, "final 1111") {
		t.Errorf("paid invoice page %d: %s", res.StatusCode, page)
	}
	if res, _ := e.page("POST", path+"/pay", invoiceCard("4111111111111111")); res.StatusCode != http.StatusConflict {
		t.Errorf("a paid billing took a card: %d", res.StatusCode)
	}

	// The declining card fails the other billing; no money moves.
	if res, _ := e.page("POST", invoice(declined)+"/pay", invoiceCard("4000000000000002")); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("declined pay: %d", res.StatusCode)
	}
	if f := e.waitBilling(m, declined["id"].(string), "FAILED"); f["statusLabel"] != "Falhou" || f["accountTransactionId"] != nil {
		t.Errorf("declined: %v", f)
	}
	if res, page := e.page("GET", invoice(declined), nil); strings.Contains(page, "<form") || !strings.Contains(page, `id="recusado"`) {
		t.Errorf("declined invoice page %d: %s", res.StatusCode, page)
	}

	// 40 − (0.35 + 1.89%), once, locked until the credit date.
	wantBalance(t, e, m, 40-0.35-0.76, 0, 0)
	e.verifyLedger()
	e.wantNoCardData(logged, id, declined["id"].(string))
}
