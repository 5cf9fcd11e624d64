package api

import (
	"github.com/jangada/jangada/domain/store"
)

// The OpenAPI Docs of the store's coupons.
var _ = documents(merchantDocs, map[string]Doc{
	"POST /coupons/create": {Summary: "Create a coupon",
		Description: "PERCENT takes discountValue % of the amount (rounded to the centavo, halves up); FIXED takes discountValue BRL, capped at the amount. maxUses counts paid sessions.",
		Body:        store.CouponRequest{}, Data: store.Coupon{}},
	"GET /coupons/get/:id":       {Summary: "Get a coupon", Data: store.Coupon{}},
	"GET /coupons/list":          {Summary: "List coupons", Query: searchQuery{}, Data: store.Coupon{}, List: true},
	"PATCH /coupons/update/:id":  {Summary: "Update a coupon", Body: store.CouponUpdateRequest{}, Patch: true, Data: store.Coupon{}},
	"DELETE /coupons/delete/:id": {Summary: "Delete a coupon", Data: deleted{}},
	"POST /coupons/validate": {Summary: "Validate a coupon",
		Description: "Answers whether the coupon applies, the discount and the final amount, with a reason when it does not; counts no use.",
		Body:        store.CouponValidateRequest{}, Data: store.CouponQuote{}},
})
