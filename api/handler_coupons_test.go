package api

import (
	"net/http"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

// Bad coupon input is a 400 naming the field, before any use case runs.
func TestHandlerCouponRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, method, path, body, message string
	}{
		{"percent over 100", "POST", "/v1/coupons/create", `{"code":"A","discountType":"PERCENT","discountValue":101}`, "discountValue must be at most 100"},
		{"fixed zero", "POST", "/v1/coupons/create", `{"code":"A","discountType":"FIXED","discountValue":0}`, "discountValue must be greater than 0"},
		{"maxUses zero", "POST", "/v1/coupons/create", `{"code":"A","discountType":"FIXED","discountValue":1,"maxUses":0}`, "maxUses must be at least 1"},
		{"maxUses not an integer", "POST", "/v1/coupons/create", `{"code":"A","discountType":"FIXED","discountValue":1,"maxUses":1.5}`, "maxUses must be an integer"},
		{"expiresAt in the past", "POST", "/v1/coupons/create", `{"code":"A","discountType":"FIXED","discountValue":1,"expiresAt":"2020-01-01T00:00:00Z"}`, "expiresAt must be in the future"},
		{"update with a bad type", "PATCH", "/v1/coupons/update/cpn_1", `{"discountType":"BOGO"}`, "discountType must be PERCENT or FIXED"},
		{"validate without amount", "POST", "/v1/coupons/validate", `{"code":"A"}`, "amount is required"},
		{"list with pageSize over 100", "GET", "/v1/coupons/list?pageSize=101", ``, "pageSize must be an integer from 1 to 100"},
		{"list with a bad status", "GET", "/v1/coupons/list?status=USED", ``, "status must be ACTIVE or INACTIVE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("coupons/*")
			expectFail(t, f.merchant(c.method, c.path, c.body), http.StatusBadRequest, c.message)
		})
	}
}

func TestHandlerCoupons(t *testing.T) {
	t.Parallel()
	t.Run("validate answers the quote", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("coupons/validate")
		f.coupons.EXPECT().Validate(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
			func(_ any, _ domain.Account, c store.CouponCheck) (store.CouponQuote, error) {
				if c.Code != "promo" || c.Use.Amount != 9990 || c.Use.PaymentLinkID != "plink_1" || len(c.Use.ProductIDs) != 1 {
					t.Errorf("check %+v", c)
				}
				return store.CouponQuote{FinalAmount: 9990, Reason: "the coupon is inactive"}, nil
			})
		data := expectOK(t, f.merchant("POST", "/v1/coupons/validate", `{"code":"promo","amount":99.9,"paymentLinkId":"plink_1","productId":"prod_1"}`), "Coupon validated")
		expectFields(t, data, map[string]string{"valid": `false`, "discountAmount": `0.00`, "finalAmount": `99.90`, "reason": `"the coupon is inactive"`})
	})
	t.Run("create shows the coupon", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("coupons/create")
		f.coupons.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
			func(_ any, _ domain.Account, p store.CouponPatch) (store.Coupon, error) {
				return store.Coupon{ID: "cpn_1", Code: *p.Code, DiscountType: *p.DiscountType, DiscountValue: *p.DiscountValue,
					Status: *p.Status, ProductIDs: store.IDList{}, PaymentLinkIDs: store.IDList{}, CreatedAt: routeTime}, nil
			})
		data := expectOK(t, f.merchant("POST", "/v1/coupons/create", `{"code":"Promo","discountType":"percent","discountValue":12.5}`), "Coupon created")
		expectFields(t, data, map[string]string{"code": `"Promo"`, "discountType": `"PERCENT"`, "discountValue": `12.50`,
			"uses": `0`, "maxUses": `null`, "status": `"ACTIVE"`, "productIds": `[]`})
	})
	t.Run("a code taken in another case is a 400 naming code", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("coupons/create")
		f.coupons.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).
			Return(store.Coupon{}, domain.Invalid("code", "is already used by another coupon of this account (codes ignore case)"))
		expectFail(t, f.merchant("POST", "/v1/coupons/create", `{"code":"PROMO","discountType":"FIXED","discountValue":5}`), http.StatusBadRequest, "code is already used")
	})
	t.Run("another account's coupon is a 404", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("coupons/get")
		f.coupons.EXPECT().Get(gomock.Any(), gomock.Any(), "cpn_x").Return(store.Coupon{}, domain.NotFound("coupon"))
		expectFail(t, f.merchant("GET", "/v1/coupons/get/cpn_x", ""), http.StatusNotFound, "coupon not found")
	})
}
