package api

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/service"
)

// Page reads spend a budget per client address (a pay link's page runs a
// score of queries and needs no key): past it, a 429 page with
// Retry-After and the pages' headers; another address is untouched.
func TestPageViewsAreRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	f := newFixture(t, withConfig(func(c *config.Config) { c.PageViewsPerMinute = 2 }))
	page := service.PayPage{MerchantName: "Loja", Link: service.PaymentLink{ID: "plink_1", Name: "Ingresso",
		AllowedMethods: []string{"PIX"}, CustomerMode: checkout.CustomerNone, Status: checkout.LinkActive}}
	f.checkouts.EXPECT().PublicLink(gomock.Any(), "plink_1").Return(page, nil).Times(3)
	get := func(addr string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/pay/plink_1", nil)
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		f.srv.Handler().ServeHTTP(w, r)
		return w
	}
	for i := range 2 {
		if w := get("203.0.113.9:1"); w.Code != http.StatusOK {
			t.Fatalf("view %d: %d", i, w.Code)
		}
	}
	if w := get("203.0.113.9:2"); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" || w.Header().Get("Content-Security-Policy") != pageCSP {
		t.Fatalf("third view from the address: %d %v", w.Code, w.Header())
	}
	if w := get("198.51.100.1:1"); w.Code != http.StatusOK {
		t.Fatalf("another address: %d", w.Code)
	}
}

// One address's checkouts of one link are bounded tighter than its
// checkouts of all links (a third): each holds stock or a coupon use.
func TestPageCheckoutsOfOneLinkAreBoundedPerAddress(t *testing.T) {
	t.Parallel()
	f := newFixture(t, withConfig(func(c *config.Config) { c.PageCheckoutsPerMinute = 9 }))
	f.checkouts.EXPECT().PageCheckout(gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CheckoutResult{Session: routeSession}, nil).Times(4)
	form := url.Values{"method": {"PIX"}}
	for i := range 3 {
		if w := f.postForm("/pay/plink_1", form, "203.0.113.7:1000"); w.Code != http.StatusSeeOther {
			t.Fatalf("checkout %d of the link: %d", i, w.Code)
		}
	}
	if w := f.postForm("/pay/plink_1", form, "203.0.113.7:1000"); w.Code != http.StatusTooManyRequests {
		t.Fatalf("fourth checkout of the link from the address: %d, want 429", w.Code)
	}
	if w := f.postForm("/pay/plink_2", form, "203.0.113.7:1000"); w.Code != http.StatusSeeOther {
		t.Fatalf("another link from the same address: %d", w.Code)
	}
}
