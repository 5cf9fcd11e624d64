package domain_test

import (
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// The discount math, to the centavo: PERCENT rounds halves up, FIXED is
// capped at the amount, the payer never pays below zero.
func TestCouponDiscount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		typ           string
		value, amount money.Cents
		want          money.Cents
	}{
		{"10% of 100.00", domain.CouponPercent, 1000, 10000, 1000},
		{"15% of 0.10 = 0.015, half up", domain.CouponPercent, 1500, 10, 2},
		{"33.33% of 10.00 = 3.333", domain.CouponPercent, 3333, 1000, 333},
		{"12.5% of 0.04 = 0.005, half up", domain.CouponPercent, 1250, 4, 1},
		{"12.5% of 0.03 = 0.00375", domain.CouponPercent, 1250, 3, 0},
		{"0.01% of 49.99 = 0.004999", domain.CouponPercent, 1, 4999, 0},
		{"0.01% of 50.00 = 0.005, half up", domain.CouponPercent, 1, 5000, 1},
		{"100% is the whole amount", domain.CouponPercent, 10000, 12345, 12345},
		{"99.99% of 1000000.00", domain.CouponPercent, 9999, 100000000, 99990000},
		{"FIXED below the amount", domain.CouponFixed, 500, 2000, 500},
		{"FIXED equal to the amount", domain.CouponFixed, 2000, 2000, 2000},
		{"FIXED above the amount is capped", domain.CouponFixed, 5000, 1999, 1999},
		{"no amount, no discount", domain.CouponFixed, 500, 0, 0},
	}
	for _, tt := range tests {
		c := domain.Coupon{DiscountType: tt.typ, DiscountValue: tt.value, Status: domain.CouponActive}
		if got := c.Discount(tt.amount); got != tt.want {
			t.Errorf("%s: discount %s, want %s", tt.name, got, tt.want)
		}
		q := c.Quote(domain.CouponUse{Amount: tt.amount, Now: time.Now()})
		if !q.Valid || q.DiscountAmount != tt.want || q.FinalAmount != tt.amount-tt.want || q.FinalAmount < 0 {
			t.Errorf("%s: quote %+v", tt.name, q)
		}
	}
}

// Quote's refusals carry a reason a person can read and discount nothing.
func TestCouponQuote(t *testing.T) {
	t.Parallel()
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	three := int64(3)
	base := domain.Coupon{DiscountType: domain.CouponFixed, DiscountValue: 500, Status: domain.CouponActive, MaxUses: &three,
		ExpiresAt: domain.TimePtr(now.Add(time.Hour)), ProductIDs: domain.IDList{"prod_1"}, PaymentLinkIDs: domain.IDList{"plink_1"}}
	use := domain.CouponUse{Amount: 2000, PaymentLinkID: "plink_1", ProductIDs: []string{"prod_2", "prod_1"}, Now: now}
	tests := []struct {
		name   string
		edit   func(*domain.Coupon, *domain.CouponUse)
		reason string // "" = valid
	}{
		{"applies", func(*domain.Coupon, *domain.CouponUse) {}, ""},
		{"inactive", func(c *domain.Coupon, _ *domain.CouponUse) { c.Status = domain.CouponInactive }, "the coupon is inactive"},
		{"expired", func(_ *domain.Coupon, u *domain.CouponUse) { u.Now = now.Add(time.Hour) }, "the coupon expired at 2030-01-01T13:00:00.000Z"},
		{"used up", func(c *domain.Coupon, _ *domain.CouponUse) { c.Uses = 3 }, "the coupon has reached its maximum of 3 uses"},
		{"used up with the held sessions", func(c *domain.Coupon, u *domain.CouponUse) { c.Uses, u.Held = 1, 2 }, "the coupon has reached its maximum of 3 uses"},
		{"one use left", func(c *domain.Coupon, u *domain.CouponUse) { c.Uses, u.Held = 1, 1 }, ""},
		{"another link", func(_ *domain.Coupon, u *domain.CouponUse) { u.PaymentLinkID = "plink_2" }, "the coupon does not apply to this payment link"},
		{"no link given", func(_ *domain.Coupon, u *domain.CouponUse) { u.PaymentLinkID = "" }, "the coupon does not apply to this payment link"},
		{"other products", func(_ *domain.Coupon, u *domain.CouponUse) { u.ProductIDs = []string{"prod_9"} },
			"the coupon applies only to certain products, and not to this one"},
		{"no product given", func(_ *domain.Coupon, u *domain.CouponUse) { u.ProductIDs = nil },
			"the coupon applies only to certain products, and not to this one"},
		{"unrestricted", func(c *domain.Coupon, u *domain.CouponUse) {
			c.ProductIDs, c.PaymentLinkIDs, c.MaxUses, c.ExpiresAt = domain.IDList{}, domain.IDList{}, nil, nil
			u.PaymentLinkID, u.ProductIDs = "", nil
		}, ""},
	}
	for _, tt := range tests {
		c, u := base, use
		tt.edit(&c, &u)
		q := c.Quote(u)
		if tt.reason == "" {
			if !q.Valid || q.DiscountAmount != 500 || q.FinalAmount != 1500 || q.Reason != "" {
				t.Errorf("%s: %+v, want valid 5.00 off", tt.name, q)
			}
			continue
		}
		if q.Valid || q.Reason != tt.reason || q.DiscountAmount != 0 || q.FinalAmount != u.Amount {
			t.Errorf("%s: %+v, want refused with %q", tt.name, q, tt.reason)
		}
	}
	if q := domain.NoCoupon(1000); q.Valid || q.FinalAmount != 1000 || q.Reason == "" {
		t.Errorf("no coupon: %+v", q)
	}
}

func TestCouponRequestValidate(t *testing.T) {
	t.Parallel()
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, body string
		wantField  string
	}{
		{"percent", `{"code":"PROMO-10","discountType":"percent","discountValue":12.5,"maxUses":1,"expiresAt":"2030-02-01T00:00:00Z"}`, ""},
		{"fixed", `{"code":"off_5","discountType":"FIXED","discountValue":5,"productIds":["prod_1","prod_1"],"paymentLinkIds":["plink_1"]}`, ""},
		{"percent 100", `{"code":"FREE","discountType":"PERCENT","discountValue":100}`, ""},
		{"code missing", `{"discountType":"FIXED","discountValue":5}`, "code"},
		{"code with a space", `{"code":"PRO MO","discountType":"FIXED","discountValue":5}`, "code"},
		{"code too long", `{"code":"` + string(make([]byte, 0)) + `AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","discountType":"FIXED","discountValue":5}`, "code"},
		{"type missing", `{"code":"A","discountValue":5}`, "discountType"},
		{"type unknown", `{"code":"A","discountType":"BOGO","discountValue":5}`, "discountType"},
		{"value missing", `{"code":"A","discountType":"FIXED"}`, "discountValue"},
		{"percent over 100", `{"code":"A","discountType":"PERCENT","discountValue":100.01}`, "discountValue"},
		{"percent zero", `{"code":"A","discountType":"PERCENT","discountValue":0}`, "discountValue"},
		{"percent negative", `{"code":"A","discountType":"PERCENT","discountValue":-5}`, "discountValue"},
		{"fixed zero", `{"code":"A","discountType":"FIXED","discountValue":0}`, "discountValue"},
		{"maxUses zero", `{"code":"A","discountType":"FIXED","discountValue":1,"maxUses":0}`, "maxUses"},
		{"expiresAt past", `{"code":"A","discountType":"FIXED","discountValue":1,"expiresAt":"2029-12-31T23:59:59Z"}`, "expiresAt"},
		{"expiresAt not a date", `{"code":"A","discountType":"FIXED","discountValue":1,"expiresAt":"amanhã"}`, "expiresAt"},
		{"productIds blank", `{"code":"A","discountType":"FIXED","discountValue":1,"productIds":[""]}`, "productIds"},
		{"status unknown", `{"code":"A","discountType":"FIXED","discountValue":1,"status":"PAUSED"}`, "status"},
	}
	for _, tt := range tests {
		p, err := decodeBody[domain.CouponRequest](t, tt.body).ValidateAt(now, true)
		if tt.wantField != "" {
			wantFieldErr(t, err, domain.ErrInvalid, tt.wantField)
			continue
		}
		if err != nil || *p.Status != domain.CouponActive {
			t.Errorf("%s: %+v, %v", tt.name, p, err)
		}
	}
	// An update's value is checked against the coupon's type; maxUses
	// against its uses.
	stored := domain.Coupon{Code: "A", DiscountType: domain.CouponFixed, DiscountValue: 15000, Uses: 4, Status: domain.CouponActive}
	for body, field := range map[string]string{
		`{"discountType":"PERCENT"}`: "discountValue", // 150 > 100 %
		`{"maxUses":3}`:              "maxUses",
		`{"discountValue":0}`:        "discountValue",
	} {
		p, err := decodeBody[domain.CouponUpdateRequest](t, body).Validate()
		if err == nil {
			_, err = stored.Apply(p)
		}
		wantFieldErr(t, err, domain.ErrInvalid, field)
	}
	p, _ := decodeBody[domain.CouponUpdateRequest](t, `{"maxUses":4,"discountValue":20}`).Validate()
	if c, err := stored.Apply(p); err != nil || *c.MaxUses != 4 || c.DiscountValue != 2000 {
		t.Errorf("update: %+v, %v", c, err)
	}
}

func TestCouponValidateRequest(t *testing.T) {
	t.Parallel()
	c, err := decodeBody[domain.CouponValidateRequest](t, `{"code":"promo","amount":10,"paymentLinkId":"plink_1","productId":"prod_1"}`).Validate()
	if err != nil || c.Code != "promo" || c.Use.Amount != 1000 || c.Use.PaymentLinkID != "plink_1" || len(c.Use.ProductIDs) != 1 {
		t.Fatalf("%+v, %v", c, err)
	}
	_, err = decodeBody[domain.CouponValidateRequest](t, `{"code":"promo"}`).Validate()
	wantFieldErr(t, err, domain.ErrInvalid, "amount")
	_, err = decodeBody[domain.CouponValidateRequest](t, `{"amount":1}`).Validate()
	wantFieldErr(t, err, domain.ErrInvalid, "code")
}
