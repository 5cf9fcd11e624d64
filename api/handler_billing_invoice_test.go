package api

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
	billingdom "github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/service"
)

// debitBilling is a debit card billing in status, holding a card when
// withCard.
func debitBilling(status string, withCard bool) billingdom.Billing {
	b := routeBilling
	b.Method, b.Status = domain.MethodCardDebit, status
	b.Customer = domain.SomeJSON(billingdom.BillingCustomer{ID: "cus_1", Name: "Maria Silva", TaxID: "52998224725"})
	if withCard {
		b.Details = domain.SomeJSON(billingdom.BillingDetails{CardToken: "ctk_1", CardBrand: "VISA", CardLast4: "1111"})
	}
	return b
}

// invoiceBody is a form: a good approving card with the changes given.
func invoiceBody(change map[string]string) url.Values {
	v := url.Values{"holderName": {"MARIA SILVA"}, "number": {"4111 1111 1111 1111"}, "expiryMonth": {"12"}, "expiryYear": {"2035"}, "ccv": {"321"}}
	for k, x := range change {
		v.Set(k, x)
	}
	return v
}

// The invoice page: the form while payable, the hosted pages' headers.
func TestInvoicePageShowsTheFormOnlyWhilePayable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		billing billingdom.Billing
		form    bool
		want    string
	}{
		{"pending", debitBilling(billingdom.BillingPending, false), true, `action="/billings/invoice/tok/pay"`},
		{"overdue", debitBilling(billingdom.BillingOverdue, false), true, "Vencido"},
		{"processing", debitBilling(billingdom.BillingPending, true), false, `id="processando"`},
		{"paid", debitBilling(billingdom.BillingConfirmed, true), false, `id="pago"`},
		{"failed", debitBilling(billingdom.BillingFailed, true), false, `id="recusado"`},
		{"canceled", debitBilling(billingdom.BillingCanceled, false), false, "Cancelado"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.billings.EXPECT().Page(gomock.Any(), "tok").Return(service.CreatedBilling{Billing: tc.billing}, nil)
			w := f.serve("GET", "/billings/invoice/tok", "")
			page := w.Body.String()
			if w.Code != http.StatusOK || !strings.Contains(page, tc.want) || strings.Contains(page, "<form") != tc.form {
				t.Fatalf("%d, form %v, want %q: %s", w.Code, strings.Contains(page, "<form"), tc.want, page)
			}
			for h, want := range map[string]string{"Content-Security-Policy": pageCSP, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"} {
				if got := w.Header().Get(h); got != want {
					t.Errorf("%s = %q", h, got)
				}
			}
			if tc.name == "pending" && !strings.Contains(page, "Maria Silva (***.982.247-**)") {
				t.Error("the page does not show the payer on the billing")
			}
			if (w.Header().Get("Refresh") != "") != (tc.name == "processing") {
				t.Errorf("Refresh = %q", w.Header().Get("Refresh"))
			}
		})
	}
}

// The form's POST: bad input is the page again naming the field (the use
// case is not called, the number is not written back), a wrong token 404,
// a billing paid or holding a card refuses the card (409), a good card
// goes to the use case, checked and cleaned, and answers the page (303).
func TestInvoicePay(t *testing.T) {
	t.Parallel()
	pending := debitBilling(billingdom.BillingPending, false)
	paid := debitBilling(billingdom.BillingConfirmed, true)
	for _, tc := range []struct {
		name    string
		token   string
		change  map[string]string
		page    *billingdom.Billing // the page read a bad input renders
		pageErr error
		pay     func(*fixture) // expectations of PayInvoice
		status  int
		want    string
	}{
		{name: "bad number", token: "tok", change: map[string]string{"number": "4111 1111 1111 1112"}, page: &pending,
			status: 400, want: "number is not a valid card number"},
		{name: "no number", token: "tok", change: map[string]string{"number": ""}, page: &pending, status: 400, want: "number is required"},
		{name: "past expiry", token: "tok", change: map[string]string{"expiryMonth": "01", "expiryYear": "2020"}, page: &pending,
			status: 400, want: "expiryYear the card has expired"},
		{name: "bad month", token: "tok", change: map[string]string{"expiryMonth": "13"}, page: &pending, status: 400, want: "expiryMonth"},
		{name: "bad cvv", token: "tok", change: map[string]string{"ccv": "12a"}, page: &pending, status: 400, want: "ccv must be 3 or 4 digits"},
		{name: "no holder", token: "tok", change: map[string]string{"holderName": ""}, page: &pending, status: 400, want: "holderName"},
		{name: "wrong token, bad input", token: "nope", change: map[string]string{"number": "1"}, pageErr: domain.ErrNotFound, status: 404,
			want: "não existe"},
		{name: "wrong token", token: "nope", pay: func(f *fixture) {
			f.billings.EXPECT().PayInvoice(gomock.Any(), "nope", gomock.Any()).Return(service.CreatedBilling{}, domain.ErrNotFound)
		}, status: 404, want: "não existe"},
		{name: "paid billing", token: "tok", pay: func(f *fixture) {
			f.billings.EXPECT().PayInvoice(gomock.Any(), "tok", gomock.Any()).Return(service.CreatedBilling{Billing: paid}, service.ErrInvoiceClosed)
		}, status: 409, want: "não aceita mais pagamentos (Confirmado)"},
		{name: "paid billing, bad input", token: "tok", change: map[string]string{"number": "1"}, page: &paid, status: 409,
			want: "não aceita mais pagamentos"},
		{name: "a card already given", token: "tok", pay: func(f *fixture) {
			f.billings.EXPECT().PayInvoice(gomock.Any(), "tok", gomock.Any()).
				Return(service.CreatedBilling{Billing: debitBilling(billingdom.BillingPending, true)}, service.ErrInvoiceHasCard)
		}, status: 409, want: "já foi enviado"},
		{name: "temporal away", token: "tok", page: &pending, pay: func(f *fixture) {
			f.billings.EXPECT().PayInvoice(gomock.Any(), "tok", gomock.Any()).Return(service.CreatedBilling{}, domain.ErrUnavailable)
		}, status: 503, want: "Tente novamente"},
		{name: "paid", token: "tok", pay: func(f *fixture) {
			f.billings.EXPECT().PayInvoice(gomock.Any(), "tok", gomock.Any()).DoAndReturn(
				func(_ any, _ string, in billingdom.NewInvoicePayment) (service.CreatedBilling, error) {
					c := in.Card
					if c.Number != "4111111111111111" || c.Brand != "VISA" || c.Last4 != "1111" || c.ExpiryMonth != 12 || c.ExpiryYear != 2035 ||
						c.CCV != "321" || c.HolderName != "MARIA SILVA" || in.RemoteIP == "" {
						t.Errorf("payment %+v from %q", c, in.RemoteIP)
					}
					return service.CreatedBilling{Billing: debitBilling(billingdom.BillingPending, true)}, nil
				})
		}, status: 303},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if tc.page != nil || tc.pageErr != nil {
				var b billingdom.Billing
				if tc.page != nil {
					b = *tc.page
				}
				f.billings.EXPECT().Page(gomock.Any(), tc.token).Return(service.CreatedBilling{Billing: b}, tc.pageErr)
			}
			if tc.pay != nil {
				tc.pay(f)
			}
			res := f.postForm("/billings/invoice/"+tc.token+"/pay", invoiceBody(tc.change), "203.0.113.7:1000").Result()
			raw, _ := io.ReadAll(res.Body)
			page := string(raw)
			if res.StatusCode != tc.status || !strings.Contains(page, tc.want) {
				t.Fatalf("%d, want %d with %q: %s", res.StatusCode, tc.status, tc.want, page)
			}
			if tc.status == 303 && res.Header.Get("Location") != "/billings/invoice/tok" {
				t.Errorf("Location %q", res.Header.Get("Location"))
			}
			for _, secret := range []string{"4111 1111 1111 111", "4111111111111", "321"} {
				if strings.Contains(page, secret) {
					t.Errorf("the page writes back %q", secret)
				}
			}
			if tc.status == 400 && (!strings.Contains(page, "<form") || !strings.Contains(page, `value="MARIA SILVA"`) && tc.name != "no holder") {
				t.Errorf("a bad input's page lacks the form or what the payer typed: %s", page)
			}
			if tc.status == 409 && strings.Contains(page, "<form") {
				t.Error("a refused payment's page shows the form")
			}
		})
	}
}

// The form is rate-limited per client address, as the payment link's.
func TestInvoicePayIsRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	f := newFixture(t, withConfig(func(c *config.Config) { c.PageCheckoutsPerMinute = 2 }))
	f.billings.EXPECT().PayInvoice(gomock.Any(), "tok", gomock.Any()).Return(service.CreatedBilling{}, nil).Times(3)
	for i := range 2 {
		if w := f.postForm("/billings/invoice/tok/pay", invoiceBody(nil), "203.0.113.7:1000"); w.Code != http.StatusSeeOther {
			t.Fatalf("post %d = %d", i+1, w.Code)
		}
	}
	if w := f.postForm("/billings/invoice/tok/pay", invoiceBody(nil), "203.0.113.7:1001"); w.Code != http.StatusTooManyRequests ||
		w.Header().Get("Retry-After") == "" {
		t.Fatalf("third post = %d", w.Code)
	}
	if w := f.postForm("/billings/invoice/tok/pay", invoiceBody(nil), "198.51.100.9:1000"); w.Code != http.StatusSeeOther {
		t.Fatalf("another address = %d", w.Code)
	}
}
