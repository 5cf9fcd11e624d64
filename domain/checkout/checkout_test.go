package checkout

import (
	"errors"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
)

func cents(v money.Cents) *money.Cents { return &v }

func TestPriceCheckout(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name         string
		fixed, asked *money.Cents
		products     []store.Product
		want         money.Cents
		err          string
	}{
		{"fixed link, nothing asked", cents(1000), nil, nil, 1000, ""},
		{"fixed link, the same amount sent", cents(1000), cents(1000), nil, 1000, ""},
		{"fixed link, another amount sent", cents(1000), cents(900), nil, 0, "amount must not be sent"},
		{"open link, amount typed", nil, cents(4321), nil, 4321, ""},
		{"open link, no amount", nil, nil, nil, 0, "amount is required"},
		{"products, priced by them", nil, nil, []store.Product{{Price: cents(50000)}, {Price: cents(1250)}}, 51250, ""},
		{"products, the payer's amount refused", nil, cents(200), []store.Product{{Price: cents(50000)}}, 0, "amount must not be sent"},
		{"products, even the right amount refused", nil, cents(50000), []store.Product{{Price: cents(50000)}}, 0, "amount must not be sent"},
		{"products win over a fixed amount", cents(100), nil, []store.Product{{Price: cents(50000)}}, 50000, ""},
		{"an unpriced product, the fixed amount", cents(700), nil, []store.Product{{Price: cents(50000)}, {}}, 700, ""},
		{"an unpriced product, no fixed amount", nil, nil, []store.Product{{}}, 0, "linkId sells a product without a price"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := PriceCheckout(tc.fixed, tc.asked, tc.products)
			if tc.err != "" {
				if err == nil || !errors.Is(err, domain.ErrInvalid) || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("= %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}

func TestCheckoutPayerPerCustomerMode(t *testing.T) {
	t.Parallel()
	full := &CheckoutPayer{Name: "Ana", Document: "52998224725", Email: "ana@example.com"}
	partial := &CheckoutPayer{Name: "Ana"}
	cases := []struct {
		mode  string
		payer *CheckoutPayer
		want  *CheckoutPayer
		err   bool
	}{
		{CustomerNone, full, nil, false},
		{CustomerOptional, nil, nil, false},
		{CustomerOptional, partial, partial, false},
		{CustomerRequired, full, full, false},
		{CustomerRequired, partial, nil, true},
		{CustomerRequired, nil, nil, true},
	}
	for _, tc := range cases {
		got, err := NewCheckout{Payer: tc.payer}.PayerFor(tc.mode)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("%s with %+v = %+v, %v", tc.mode, tc.payer, got, err)
		}
	}
}

func TestCheckoutRequestValidate(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	cases := []struct {
		name string
		req  CheckoutRequest
		err  string
	}{
		{"ok", CheckoutRequest{LinkID: s("plink_1"), Method: s("pix")}, ""},
		{"no link", CheckoutRequest{Method: s("PIX")}, "linkId is required"},
		{"no method", CheckoutRequest{LinkID: s("plink_1")}, "method is required"},
		{"boleto", CheckoutRequest{LinkID: s("plink_1"), Method: s("BOLETO")}, "method must be PIX or CRYPTO"},
		{"bad document", CheckoutRequest{LinkID: s("plink_1"), Method: s("PIX"), Payer: &CheckoutPayerRequest{Document: s("123")}}, "payer.document"},
		{"bad email", CheckoutRequest{LinkID: s("plink_1"), Method: s("PIX"), Payer: &CheckoutPayerRequest{Email: s("x")}}, "payer.email"},
		{"amount too small", CheckoutRequest{LinkID: s("plink_1"), Method: s("PIX"), Amount: cents(50)}, "amount must be between"},
		{"long coupon", CheckoutRequest{LinkID: s("plink_1"), Method: s("PIX"), CouponCode: s(strings.Repeat("c", 65))}, "couponCode"},
	}
	for _, tc := range cases {
		_, err := tc.req.Validate()
		if tc.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.err)
		}
	}
}

func TestPaymentLinkValidate(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	p, err := PaymentLinkRequest{Name: s("Curso")}.Validate()
	if err != nil || *p.CustomerMode != CustomerNone || *p.Status != LinkActive || len(p.AllowedMethods) != 1 || p.AllowedMethods[0] != domain.MethodPix || p.FixedAmount != nil {
		t.Fatalf("defaults = %+v, %v", p, err)
	}
	if _, err := (PaymentLinkRequest{}).Validate(); err == nil || err.Error() != "name is required" {
		t.Errorf("no name: %v", err)
	}
	u, err := PaymentLinkUpdate{Status: s("inactive")}.Validate()
	if err != nil || u.Name != nil || *u.Status != LinkInactive {
		t.Errorf("update = %+v, %v", u, err)
	}
	if got := PayPageURL("https://pay.example.com/", "plink_1"); got != "https://pay.example.com/pay/plink_1" {
		t.Errorf("PayPageURL = %s", got)
	}
}

func TestEligible(t *testing.T) {
	t.Parallel()
	verified := domain.Account{Verified: true}
	withCrypto := domain.Account{Verified: true, Features: domain.Features{Crypto: true}}
	pix := []string{domain.MethodPix}
	both := []string{domain.MethodPix, MethodCrypto}
	tests := []struct {
		name    string
		acct    domain.Account
		status  string
		allowed []string
		method  string
		want    error // the kind; nil = eligible
		field   string
	}{
		{"pix on an active link", verified, LinkActive, pix, domain.MethodPix, nil, ""},
		{"inactive link", verified, LinkInactive, pix, domain.MethodPix, domain.ErrInvalid, "linkId"},
		{"unverified account", domain.Account{}, LinkActive, pix, domain.MethodPix, domain.ErrForbidden, ""},
		{"method the link refuses", verified, LinkActive, pix, MethodCrypto, domain.ErrInvalid, "method"},
		{"crypto without the feature", verified, LinkActive, both, MethodCrypto, domain.ErrForbidden, ""},
		{"crypto with the feature", withCrypto, LinkActive, both, MethodCrypto, nil, ""},
	}
	for _, tt := range tests {
		err := Eligible(tt.acct, tt.status, tt.allowed, tt.method)
		if tt.want == nil {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
			continue
		}
		if tt.field != "" && !strings.HasPrefix(err.Error(), tt.field+" ") {
			t.Errorf("%s: error %q does not name %s", tt.name, err, tt.field)
		}
	}
}
