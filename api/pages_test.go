package api

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

// postForm sends the pay page's form from addr.
func (f *fixture) postForm(path string, form url.Values, addr string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = addr
	w := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(w, r)
	return w
}

func TestPayPageCheckoutIsRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	f := newFixture(t, withConfig(func(c *config.Config) { c.PageCheckoutsPerMinute = 2 }))
	f.checkouts.EXPECT().PageCheckout(gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CheckoutResult{Session: routeSession}, nil).Times(3)
	form := url.Values{"method": {"PIX"}}
	for i := range 2 {
		if w := f.postForm("/pay/plink_1", form, "203.0.113.7:1000"); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/pay/session/cs_1" {
			t.Fatalf("checkout %d from one address: %d %q", i, w.Code, w.Header().Get("Location"))
		}
	}
	w := f.postForm("/pay/plink_1", form, "203.0.113.7:1001")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Content-Security-Policy") == "" || !strings.Contains(w.Body.String(), "Muitas tentativas") {
		t.Fatalf("third checkout from the address: %d %s", w.Code, w.Body.String())
	}
	if w := f.postForm("/pay/plink_1", form, "198.51.100.9:1000"); w.Code != http.StatusSeeOther {
		t.Fatalf("another address: %d", w.Code)
	}
}

func TestPayPageFormErrorsAndEscaping(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	amt := money.Cents(1990)
	page := service.PayPage{MerchantName: "Loja <i>", Link: service.PaymentLink{ID: "plink_1", Name: "<script>alert(1)</script>",
		AllowedMethods: []string{"PIX"}, FixedAmount: &amt, CustomerMode: checkout.CustomerRequired, Status: checkout.LinkActive},
		Products: []service.PageProduct{{ID: "prod_1", Name: "<script>x</script>"}}, Price: &amt}
	f.checkouts.EXPECT().PublicLink(gomock.Any(), "plink_1").Return(page, nil).Times(2)
	f.checkouts.EXPECT().PageCheckout(gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CheckoutResult{},
		domain.Invalid("payer", "needs name, document and email: this payment link requires the customer's data"))

	w := f.serve("GET", "/pay/plink_1", "")
	body := w.Body.String()
	if w.Code != 200 || strings.Contains(body, "<script>alert") || strings.Contains(body, "<script>x") || !strings.Contains(body, "&lt;script&gt;x&lt;/script&gt;") ||
		!strings.Contains(body, "R$ 19,90") || !strings.Contains(body, "Loja &lt;i&gt;") || w.Header().Get("Content-Security-Policy") != pageCSP {
		t.Fatalf("pay page: %d\n%s", w.Code, body)
	}
	w = f.postForm("/pay/plink_1", url.Values{"method": {"PIX"}, "name": {"\"><b>"}}, "192.0.2.1:5")
	if w.Code != 400 || !strings.Contains(w.Body.String(), "needs name, document and email") || !strings.Contains(w.Body.String(), `value="&#34;&gt;&lt;b&gt;"`) {
		t.Fatalf("refused checkout: %d\n%s", w.Code, w.Body.String())
	}
}

func TestPayPagesOfUnknownResources(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.checkouts.EXPECT().PublicLink(gomock.Any(), "plink_x").Return(service.PayPage{}, domain.NotFound("payment link"))
	f.checkouts.EXPECT().PublicSession(gomock.Any(), "cs_x").Return(service.CheckoutResult{}, domain.NotFound("checkout session")).Times(2)
	for _, path := range []string{"/pay/plink_x", "/pay/session/cs_x", "/pay/session/cs_x/events"} {
		if w := f.serve("GET", path, ""); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d", path, w.Code)
		}
	}
	if w := f.serve("GET", "/pay/assets/session.js", ""); w.Code != 200 || !strings.Contains(w.Body.String(), "EventSource") {
		t.Errorf("asset: %d", w.Code)
	}
}

func TestBRL(t *testing.T) {
	t.Parallel()
	for in, want := range map[money.Cents]string{5: "R$ 0,05", 100: "R$ 1,00", 123456: "R$ 1.234,56", 100000000: "R$ 1.000.000,00"} {
		if got := brl(in); got != want {
			t.Errorf("brl(%d) = %q, want %q", in, got, want)
		}
	}
}
