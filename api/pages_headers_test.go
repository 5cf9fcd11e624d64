package api

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/boleto"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/service"
)

// notPages are the routes of the merchant listener outside /v1 that are
// not human pages, and why: every other route there is a page and must
// answer with the pages' headers.
var notPages = map[string]string{
	"GET /livez":                         "health, plain text",
	"GET /readyz":                        "health, plain text",
	"GET /qr/:file":                      "a PNG image",
	"GET /pay/assets/*file":              "static assets (nosniff and a cache of their own)",
	"GET /pay/session/:sessionId/events": "a Server-Sent Events stream, not a document",
	"GET /docs":                          "the developers' API reference (Swagger UI)",
	"GET /docs/:file":                    "the API reference's assets",
	"GET /v1/openapi.json":               "a JSON document",
}

// assertPageHeaders fails unless w carries every header a human page must
// send: the pages' CSP (never framed), nosniff, no Referer and no cache.
func assertPageHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	if h.Get("Content-Security-Policy") != pageCSP || !strings.Contains(pageCSP, "frame-ancestors 'none'") {
		t.Errorf("%s: Content-Security-Policy %q", what, h.Get("Content-Security-Policy"))
	}
	for name, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"} {
		if got := h.Get(name); got != want {
			t.Errorf("%s: %s = %q, want %q", what, name, got, want)
		}
	}
}

// Every human page — the pay page and its form, the session page, a
// boleto's slip, a debit card billing's invoice and its form — answers
// with the pages' headers, found or not, accepted or refused. The route
// table is walked, so a page added without them fails here.
func TestEveryPageRouteSendsThePageHeaders(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	bol, err := boleto.New("999", due, 1234, strings.Repeat("7", 25))
	if err != nil {
		t.Fatal(err)
	}
	slip := routeBilling
	slip.Details = domain.SomeJSON(billing.BillingDetails{Barcode: bol.Barcode, DigitableLine: bol.DigitableLine})
	card := routeBilling
	card.Method = domain.MethodCardDebit
	page := service.PayPage{Link: routeLink, MerchantName: "Loja"}
	form := url.Values{"method": {"PIX"}}.Encode()

	// Each page route, found and not found (or refused).
	type call = pageCall
	cases := map[string][]call{
		"GET /pay/:linkId": {
			{"GET", "/pay/plink_1", "", func(f *fixture) { f.checkouts.EXPECT().PublicLink(gomock.Any(), "plink_1").Return(page, nil) }},
			{"GET", "/pay/plink_x", "", func(f *fixture) {
				f.checkouts.EXPECT().PublicLink(gomock.Any(), "plink_x").Return(service.PayPage{}, domain.NotFound("payment link"))
			}},
		},
		"POST /pay/:linkId": {
			{"POST", "/pay/plink_1", form, func(f *fixture) {
				f.checkouts.EXPECT().PageCheckout(gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CheckoutResult{Session: routeSession}, nil)
			}},
			{"POST", "/pay/plink_1", form, func(f *fixture) {
				f.checkouts.EXPECT().PageCheckout(gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CheckoutResult{}, domain.Invalid("method", "no"))
				f.checkouts.EXPECT().PublicLink(gomock.Any(), "plink_1").Return(page, nil)
			}},
		},
		"GET /pay/session/:sessionId": {
			{"GET", "/pay/session/cs_1", "", func(f *fixture) {
				f.checkouts.EXPECT().PublicSession(gomock.Any(), "cs_1").Return(service.CheckoutResult{Session: routeSession}, nil)
			}},
			{"GET", "/pay/session/cs_x", "", func(f *fixture) {
				f.checkouts.EXPECT().PublicSession(gomock.Any(), "cs_x").Return(service.CheckoutResult{}, domain.NotFound("checkout session"))
			}},
		},
		"GET /billings/slip/:token": {
			{"GET", "/billings/slip/tok", "", func(f *fixture) {
				f.billings.EXPECT().Page(gomock.Any(), "tok").Return(service.CreatedBilling{Billing: slip}, nil)
			}},
			{"GET", "/billings/slip/nope", "", func(f *fixture) {
				f.billings.EXPECT().Page(gomock.Any(), "nope").Return(service.CreatedBilling{}, domain.ErrNotFound)
			}},
		},
		"GET /billings/invoice/:token": {
			{"GET", "/billings/invoice/tok", "", func(f *fixture) {
				f.billings.EXPECT().Page(gomock.Any(), "tok").Return(service.CreatedBilling{Billing: card}, nil)
			}},
			{"GET", "/billings/invoice/nope", "", func(f *fixture) {
				f.billings.EXPECT().Page(gomock.Any(), "nope").Return(service.CreatedBilling{}, domain.ErrNotFound)
			}},
		},
		"POST /billings/invoice/:token/pay": {
			{"POST", "/billings/invoice/tok/pay", url.Values{"number": {"1"}}.Encode(), func(f *fixture) {
				f.billings.EXPECT().Page(gomock.Any(), "tok").Return(service.CreatedBilling{Billing: card}, nil)
			}},
		},
	}
	for name, calls := range portalPageCalls() {
		cases[name] = calls
	}
	for name, calls := range dashPageCalls() {
		cases[name] = calls
	}
	routes := newFixture(t).srv.engine.Routes()
	if len(routes) == 0 {
		t.Fatal("no routes")
	}
	seen := map[string]bool{}
	for _, r := range routes {
		name := r.Method + " " + r.Path
		if strings.HasPrefix(r.Path, "/v1/") && name != "GET /v1/openapi.json" {
			continue
		}
		if _, ok := notPages[name]; ok {
			continue
		}
		calls, ok := cases[name]
		if !ok {
			t.Errorf("%s is a page route without a case here: add one (or say in notPages why it is no page)", name)
			continue
		}
		seen[name] = true
		for _, c := range calls {
			f := newFixture(t)
			c.expect(f)
			var w interface{ Header() http.Header }
			if c.method == "POST" {
				w = f.postForm(c.path, mustQuery(t, c.body), testPeer+":1000")
			} else {
				w = f.serve(c.method, c.path, "")
			}
			assertPageHeaders(t, c.method+" "+c.path, w.Header())
		}
	}
	for name := range cases {
		if !seen[name] {
			t.Errorf("%s is no longer a route", name)
		}
	}
}

// pageCall is one request to a page route and what its use case answers.
type pageCall struct {
	method, path, body string
	expect             func(f *fixture)
}

func mustQuery(t *testing.T, s string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
