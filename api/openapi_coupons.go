package api

import (
	"github.com/jangada/jangada/domain/store"
)

// The OpenAPI Docs of the store's coupons.
var _ = documents(merchantDocs, map[string]Doc{
	"POST /coupons/create": {Summary: "Create a coupon",
		Description: "PERCENT takes discountValue % of the amount (rounded to the centavo, halves up); FIXED takes discountValue BRL, capped at the amount. maxUses counts paid sessions.",
		Body:        store.CouponRequest{},
		Example:     map[string]any{"code": "BLACKFRIDAY", "discountType": "PERCENT", "discountValue": 15, "maxUses": 100, "expiresAt": "2035-11-30T23:59:59-03:00", "status": "ACTIVE"}, Data: store.Coupon{}},
	"GET /coupons/get/:id": {Summary: "Get a coupon", Data: store.Coupon{}},
	"GET /coupons/list":    {Summary: "List coupons", Query: searchQuery{}, Data: store.Coupon{}, List: true},
	"PATCH /coupons/update/:id": {Summary: "Update a coupon", Body: store.CouponUpdateRequest{},
		Example: map[string]any{"maxUses": 200, "status": "INACTIVE"}, Patch: true, Data: store.Coupon{}},
	"DELETE /coupons/delete/:id": {Summary: "Delete a coupon", Data: deleted{}},
	"POST /coupons/validate": {Summary: "Validate a coupon",
		Description: "Answers whether the coupon applies, the discount and the final amount, with a reason when it does not; counts no use.",
		Body:        store.CouponValidateRequest{},
		Example:     map[string]any{"code": "BLACKFRIDAY", "amount": 197, "paymentLinkId": "plink_0193c2aa-6e1d-7f40-a2b3-7c9e5d1f3a64"}, Data: store.CouponQuote{}},
})
