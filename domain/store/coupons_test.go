package store_test

import (
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
	"github.com/jangada/jangada/domain/store"
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
		{"10% of 100.00", store.CouponPercent, 1000, 10000, 1000},
		{"15% of 0.10 = 0.015, half up", store.CouponPercent, 1500, 10, 2},
		{"33.33% of 10.00 = 3.333", store.CouponPercent, 3333, 1000, 333},
		{"12.5% of 0.04 = 0.005, half up", store.CouponPercent, 1250, 4, 1},
		{"12.5% of 0.03 = 0.00375", store.CouponPercent, 1250, 3, 0},
		{"0.01% of 49.99 = 0.004999", store.CouponPercent, 1, 4999, 0},
		{"0.01% of 50.00 = 0.005, half up", store.CouponPercent, 1, 5000, 1},
		{"100% is the whole amount", store.CouponPercent, 10000, 12345, 12345},
		{"99.99% of 1000000.00", store.CouponPercent, 9999, 100000000, 99990000},
		{"FIXED below the amount", store.CouponFixed, 500, 2000, 500},
		{"FIXED equal to the amount", store.CouponFixed, 2000, 2000, 2000},
		{"FIXED above the amount is capped", store.CouponFixed, 5000, 1999, 1999},
		{"no amount, no discount", store.CouponFixed, 500, 0, 0},
	}
	for _, tt := range tests {
		c := store.Coupon{DiscountType: tt.typ, DiscountValue: tt.value, Status: store.CouponActive}
		if got := c.Discount(tt.amount); got != tt.want {
			t.Errorf("%s: discount %s, want %s", tt.name, got, tt.want)
		}
		q := c.Quote(store.CouponUse{Amount: tt.amount, Now: time.Now()})
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
	base := store.Coupon{DiscountType: store.CouponFixed, DiscountValue: 500, Status: store.CouponActive, MaxUses: &three,
		ExpiresAt: domain.TimePtr(now.Add(time.Hour)), ProductIDs: store.IDList{"prod_1"}, PaymentLinkIDs: store.IDList{"plink_1"}}
	use := store.CouponUse{Amount: 2000, PaymentLinkID: "plink_1", ProductIDs: []string{"prod_2", "prod_1"}, Now: now}
	tests := []struct {
		name   string
		edit   func(*store.Coupon, *store.CouponUse)
		reason string // "" = valid
	}{
		{"applies", func(*store.Coupon, *store.CouponUse) {}, ""},
		{"inactive", func(c *store.Coupon, _ *store.CouponUse) { c.Status = store.CouponInactive }, "the coupon is inactive"},
		{"expired", func(_ *store.Coupon, u *store.CouponUse) { u.Now = now.Add(time.Hour) }, "the coupon expired at 2030-01-01T13:00:00.000Z"},
		{"used up", func(c *store.Coupon, _ *store.CouponUse) { c.Uses = 3 }, "the coupon has reached its maximum of 3 uses"},
		{"used up with the held sessions", func(c *store.Coupon, u *store.CouponUse) { c.Uses, u.Held = 1, 2 }, "the coupon has reached its maximum of 3 uses"},
		{"one use left", func(c *store.Coupon, u *store.CouponUse) { c.Uses, u.Held = 1, 1 }, ""},
		{"another link", func(_ *store.Coupon, u *store.CouponUse) { u.PaymentLinkID = "plink_2" }, "the coupon does not apply to this payment link"},
		{"no link given", func(_ *store.Coupon, u *store.CouponUse) { u.PaymentLinkID = "" }, "the coupon does not apply to this payment link"},
		{"other products", func(_ *store.Coupon, u *store.CouponUse) { u.ProductIDs = []string{"prod_9"} },
			"the coupon applies only to certain products, and not to this one"},
		{"no product given", func(_ *store.Coupon, u *store.CouponUse) { u.ProductIDs = nil },
			"the coupon applies only to certain products, and not to this one"},
		{"unrestricted", func(c *store.Coupon, u *store.CouponUse) {
			c.ProductIDs, c.PaymentLinkIDs, c.MaxUses, c.ExpiresAt = store.IDList{}, store.IDList{}, nil, nil
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
	if q := store.NoCoupon(1000); q.Valid || q.FinalAmount != 1000 || q.Reason == "" {
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
		p, err := domaintest.DecodeBody[store.CouponRequest](t, tt.body).ValidateAt(now, true)
		if tt.wantField != "" {
			domaintest.WantFieldErr(t, err, domain.ErrInvalid, tt.wantField)
			continue
		}
		if err != nil || *p.Status != store.CouponActive {
			t.Errorf("%s: %+v, %v", tt.name, p, err)
		}
	}
	// An update's value is checked against the coupon's type; maxUses
	// against its uses.
	stored := store.Coupon{Code: "A", DiscountType: store.CouponFixed, DiscountValue: 15000, Uses: 4, Status: store.CouponActive}
	for body, field := range map[string]string{
		`{"discountType":"PERCENT"}`: "discountValue", // 150 > 100 %
		`{"maxUses":3}`:              "maxUses",
		`{"discountValue":0}`:        "discountValue",
	} {
		p, err := domaintest.DecodeBody[store.CouponUpdateRequest](t, body).Validate()
		if err == nil {
			_, err = stored.Apply(p)
		}
		domaintest.WantFieldErr(t, err, domain.ErrInvalid, field)
	}
	p, _ := domaintest.DecodeBody[store.CouponUpdateRequest](t, `{"maxUses":4,"discountValue":20}`).Validate()
	if c, err := stored.Apply(p); err != nil || *c.MaxUses != 4 || c.DiscountValue != 2000 {
		t.Errorf("update: %+v, %v", c, err)
	}
}

func TestCouponValidateRequest(t *testing.T) {
	t.Parallel()
	c, err := domaintest.DecodeBody[store.CouponValidateRequest](t, `{"code":"promo","amount":10,"paymentLinkId":"plink_1","productId":"prod_1"}`).Validate()
	if err != nil || c.Code != "promo" || c.Use.Amount != 1000 || c.Use.PaymentLinkID != "plink_1" || len(c.Use.ProductIDs) != 1 {
		t.Fatalf("%+v, %v", c, err)
	}
	_, err = domaintest.DecodeBody[store.CouponValidateRequest](t, `{"code":"promo"}`).Validate()
	domaintest.WantFieldErr(t, err, domain.ErrInvalid, "amount")
	_, err = domaintest.DecodeBody[store.CouponValidateRequest](t, `{"amount":1}`).Validate()
	domaintest.WantFieldErr(t, err, domain.ErrInvalid, "code")
}
