package store

import (
	"database/sql/driver"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Coupon discount types and statuses.
const (
	// CouponPercent takes a percentage of the amount.
	CouponPercent = "PERCENT"
	// CouponFixed takes a fixed value in BRL, capped at the amount.
	CouponFixed = "FIXED"

	CouponActive   = "ACTIVE"
	CouponInactive = "INACTIVE"
)

// maxCouponTargets bounds a coupon's productIds and paymentLinkIds.
const maxCouponTargets = 50

// ErrCouponExhausted is returned by db.UseCoupon when the coupon has
// already been used maxUses times: the use is refused (a 400).
var ErrCouponExhausted = &domain.Error{Kind: domain.ErrInvalid, Message: "the coupon has reached its maximum number of uses"}

// IDList is a list of ids stored as a jsonb array.
type IDList []string

// Scan implements sql.Scanner.
func (l *IDList) Scan(src any) error { return domain.ScanList(src, (*[]string)(l), "IDList") }

// Value implements driver.Valuer.
func (l IDList) Value() (driver.Value, error) { return domain.ListValue([]string(l)) }

// Coupon is a discount coupon of an account, as stored and as the API
// shows it. DiscountValue is in hundredths: centavos for FIXED (10.00 is
// R$ 10,00), hundredths of a percent for PERCENT (12.5 is 12.5%), and reads
// as the same decimal number in JSON either way.
type Coupon struct {
	ID            string      `db:"id" json:"id"`
	AccountID     string      `db:"account_id" json:"-"`
	Code          string      `db:"code" json:"code"`
	DiscountType  string      `db:"discount_type" json:"discountType"`
	DiscountValue money.Cents `db:"discount_value" json:"discountValue"`
	// Uses counts the paid sessions that used the coupon (db.UseCoupon).
	Uses           int64        `db:"uses" json:"uses"`
	MaxUses        *int64       `db:"max_uses" json:"maxUses"`
	ExpiresAt      *domain.Time `db:"expires_at" json:"expiresAt"`
	Status         string       `db:"status" json:"status"`
	ProductIDs     IDList       `db:"product_ids" json:"productIds"`
	PaymentLinkIDs IDList       `db:"payment_link_ids" json:"paymentLinkIds"`
	CreatedAt      domain.Time  `db:"created_at" json:"createdAt"`
	UpdatedAt      domain.Time  `db:"updated_at" json:"-"`
}

// Discount is what the coupon takes off amount, in exact centavos:
//
//   - PERCENT: amount × value ÷ 100, rounded to the nearest centavo with
//     halves rounded up (away from zero), as money.Cents.MulPercent rounds
//     every rate: 15% of R$ 0,10 is R$ 0,015 → R$ 0,02; 33.33% of R$ 10,00
//     is R$ 3,333 → R$ 3,33; 100% is the whole amount;
//   - FIXED: the value, capped at the amount (never more than the total).
//
// The payer pays amount − Discount(amount), never below zero.
func (c Coupon) Discount(amount money.Cents) money.Cents {
	if amount <= 0 {
		return 0
	}
	var d money.Cents
	switch c.DiscountType {
	case CouponPercent:
		d = amount.MulPercent(money.Percent(c.DiscountValue))
	case CouponFixed:
		d = c.DiscountValue
	}
	return min(max(d, 0), amount)
}

// CouponUse is what a coupon is being applied to: the amount, the payment
// link and the products of the sale, at a moment. Held counts the uses
// other sales hold and have not paid yet (a checkout counts its OPEN
// sessions); validate passes 0.
type CouponUse struct {
	Amount        money.Cents
	PaymentLinkID string
	ProductIDs    []string
	Now           time.Time
	Held          int64
}

// CouponQuote is the answer of POST /coupons/validate, and the discount a
// checkout applies: when the coupon does not apply, Valid is false, Reason
// says why in words a person can read, and nothing is discounted.
type CouponQuote struct {
	Valid          bool        `json:"valid"`
	DiscountAmount money.Cents `json:"discountAmount"`
	FinalAmount    money.Cents `json:"finalAmount"`
	Reason         string      `json:"reason,omitempty"`
}

// NoCoupon is the quote for a code that names no coupon of the account.
func NoCoupon(amount money.Cents) CouponQuote {
	return CouponQuote{FinalAmount: amount, Reason: "no coupon with this code"}
}

// Quote applies the coupon to u: the checks in the order a payer would
// want them explained (inactive, expired, used up, not for this link, not
// for these products), then the discount.
func (c Coupon) Quote(u CouponUse) CouponQuote {
	refuse := func(format string, args ...any) CouponQuote {
		return CouponQuote{FinalAmount: u.Amount, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case c.Status != CouponActive:
		return refuse("the coupon is inactive")
	case c.ExpiresAt != nil && !u.Now.Before(c.ExpiresAt.Time):
		return refuse("the coupon expired at %s", c.ExpiresAt.ISO())
	case c.MaxUses != nil && c.Uses+u.Held >= *c.MaxUses:
		return refuse("the coupon has reached its maximum of %d uses", *c.MaxUses)
	case len(c.PaymentLinkIDs) > 0 && !slices.Contains(c.PaymentLinkIDs, u.PaymentLinkID):
		return refuse("the coupon does not apply to this payment link")
	case len(c.ProductIDs) > 0 && !slices.ContainsFunc(u.ProductIDs, func(id string) bool { return slices.Contains(c.ProductIDs, id) }):
		return refuse("the coupon applies only to certain products, and not to this one")
	}
	d := c.Discount(u.Amount)
	return CouponQuote{Valid: true, DiscountAmount: d, FinalAmount: u.Amount - d}
}

// CouponRequest is the body of POST /coupons/create.
type CouponRequest struct {
	Code           *string      `json:"code" jsonschema:"required,minLength=1,maxLength=64,description=unique per account, ignoring case"`
	DiscountType   *string      `json:"discountType" jsonschema:"required"`
	DiscountValue  *money.Cents `json:"discountValue" jsonschema:"required,description=PERCENT: 0 < v <= 100; FIXED: BRL > 0"`
	MaxUses        *int64       `json:"maxUses" jsonschema:"minimum=1"`
	ExpiresAt      *string      `json:"expiresAt" jsonschema:"format=date-time,description=in the future"`
	ProductIDs     []string     `json:"productIds"`
	PaymentLinkIDs []string     `json:"paymentLinkIds"`
	Status         *string      `json:"status"`
}

// CouponUpdateRequest is the body of PATCH /coupons/update/{id}: the same
// fields, all optional.
type CouponUpdateRequest CouponRequest

// The closed sets of a coupon, read in any case.
var (
	DiscountTypes  = domain.Folded(CouponPercent, CouponFixed)
	CouponStatuses = domain.Folded(CouponActive, CouponInactive)
	couponEnums    = map[string]domain.Enum{"discountType": DiscountTypes, "status": CouponStatuses}
)

// Enums are the request's closed sets.
func (CouponRequest) Enums() map[string]domain.Enum { return couponEnums }

// Enums are the update's closed sets.
func (CouponUpdateRequest) Enums() map[string]domain.Enum { return couponEnums }

// Enums are the record's closed sets.
func (Coupon) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"discountType": domain.Exact(DiscountTypes.Values...), "status": domain.Exact(CouponStatuses.Values...)}
}

// CouponPatch is a validated coupon request: nil leaves a field alone.
type CouponPatch struct {
	IdempotencyKey string
	Code           *string
	DiscountType   *string
	DiscountValue  *money.Cents
	MaxUses        *int64
	ExpiresAt      *domain.Time
	ProductIDs     []string
	PaymentLinkIDs []string
	Status         *string
}

var couponCode = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Validate checks a create: code, discountType and discountValue are
// required; status defaults to ACTIVE.
func (b CouponRequest) Validate() (CouponPatch, error) { return b.ValidateAt(time.Now(), true) }

// Validate checks an update: only what is sent.
func (b CouponUpdateRequest) Validate() (CouponPatch, error) {
	return CouponRequest(b).ValidateAt(time.Now(), false)
}

// ValidateAt checks a create (or an update) as of now (expiresAt must be
// after it).
func (b CouponRequest) ValidateAt(now time.Time, create bool) (CouponPatch, error) {
	var p CouponPatch
	if b.Code != nil || create {
		code, err := domain.Text("code", b.Code, 1, 64, true)
		if err != nil {
			return p, err
		}
		if !couponCode.MatchString(code) {
			return p, domain.Invalid("code", "must have only letters, digits, - and _")
		}
		p.Code = &code
	}
	if b.DiscountType != nil || create {
		if b.DiscountType == nil {
			return p, domain.Invalid("discountType", "is required (PERCENT or FIXED)")
		}
		t, ok := DiscountTypes.Match(*b.DiscountType)
		if !ok {
			return p, domain.Invalid("discountType", "must be %s", DiscountTypes)
		}
		p.DiscountType = &t
	}
	if b.DiscountValue == nil && create {
		return p, domain.Invalid("discountValue", "is required")
	}
	p.DiscountValue = b.DiscountValue
	if b.MaxUses != nil {
		if *b.MaxUses < 1 {
			return p, domain.Invalid("maxUses", "must be at least 1")
		}
		p.MaxUses = b.MaxUses
	}
	if b.ExpiresAt != nil {
		at, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(*b.ExpiresAt))
		if err != nil {
			return p, domain.Invalid("expiresAt", "must be an ISO 8601 date and time, such as 2030-12-31T23:59:59Z")
		}
		if !at.After(now) {
			return p, domain.Invalid("expiresAt", "must be in the future")
		}
		p.ExpiresAt = domain.TimePtr(at)
	}
	var err error
	if p.ProductIDs, err = idList("productIds", b.ProductIDs); err != nil {
		return p, err
	}
	if p.PaymentLinkIDs, err = idList("paymentLinkIds", b.PaymentLinkIDs); err != nil {
		return p, err
	}
	if b.Status != nil {
		st, ok := CouponStatuses.Match(*b.Status)
		if !ok {
			return p, domain.Invalid("status", "must be %s", CouponStatuses)
		}
		p.Status = &st
	} else if create {
		st := CouponActive
		p.Status = &st
	}
	if create {
		// The value's bounds depend on the type: checked on the whole
		// coupon, as an update's are (Coupon.Apply).
		if _, err := (Coupon{}).Apply(p); err != nil {
			return p, err
		}
	}
	return p, nil
}

// idList checks a list of ids (nil stays nil: not sent), deduplicated.
func idList(field string, ids []string) ([]string, error) {
	if ids == nil {
		return nil, nil
	}
	if len(ids) > maxCouponTargets {
		return nil, domain.Invalid(field, "must list at most %d ids", maxCouponTargets)
	}
	out := []string{}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || len(id) > 64 {
			return nil, domain.Invalid(field, "must list ids")
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// Apply returns c changed by p, and checks the result: the discount value
// within its type's bounds, maxUses not below the uses so far.
func (c Coupon) Apply(p CouponPatch) (Coupon, error) {
	if p.Code != nil {
		c.Code = *p.Code
	}
	if p.DiscountType != nil {
		c.DiscountType = *p.DiscountType
	}
	if p.DiscountValue != nil {
		c.DiscountValue = *p.DiscountValue
	}
	if p.MaxUses != nil {
		if *p.MaxUses < c.Uses {
			return c, domain.Invalid("maxUses", "must be at least the %d uses the coupon already has", c.Uses)
		}
		n := *p.MaxUses
		c.MaxUses = &n
	}
	if p.ExpiresAt != nil {
		at := *p.ExpiresAt
		c.ExpiresAt = &at
	}
	if p.ProductIDs != nil {
		c.ProductIDs = p.ProductIDs
	}
	if p.PaymentLinkIDs != nil {
		c.PaymentLinkIDs = p.PaymentLinkIDs
	}
	if p.Status != nil {
		c.Status = *p.Status
	}
	switch {
	case c.DiscountValue <= 0:
		return c, domain.Invalid("discountValue", "must be greater than 0")
	case c.DiscountType == CouponPercent && c.DiscountValue > money.Cents(money.OneHundredPercent):
		return c, domain.Invalid("discountValue", "must be at most 100 for a PERCENT coupon")
	case c.DiscountType == CouponFixed && c.DiscountValue > maxProductPrice:
		return c, domain.Invalid("discountValue", "must be at most %s for a FIXED coupon", maxProductPrice)
	}
	if c.ProductIDs == nil {
		c.ProductIDs = IDList{}
	}
	if c.PaymentLinkIDs == nil {
		c.PaymentLinkIDs = IDList{}
	}
	return c, nil
}

// CouponValidateRequest is the body of POST /coupons/validate.
type CouponValidateRequest struct {
	Code          *string      `json:"code" jsonschema:"required"`
	Amount        *money.Cents `json:"amount" jsonschema:"required,minimum=0.01"`
	PaymentLinkID *string      `json:"paymentLinkId"`
	ProductID     *string      `json:"productId" jsonschema:"description=when the coupon is restricted to products"`
}

// CouponCheck is a validated validate request.
type CouponCheck struct {
	Code string
	Use  CouponUse
}

// Validate checks a validate request; the coupon is quoted as of now.
func (b CouponValidateRequest) Validate() (CouponCheck, error) {
	var c CouponCheck
	code, err := domain.Text("code", b.Code, 1, 64, true)
	if err != nil {
		return c, err
	}
	amount, err := domain.Amount("amount", b.Amount, 1, maxProductPrice)
	if err != nil {
		return c, err
	}
	c.Code, c.Use = code, CouponUse{Amount: amount, Now: time.Now()}
	if b.PaymentLinkID != nil {
		c.Use.PaymentLinkID = strings.TrimSpace(*b.PaymentLinkID)
	}
	if b.ProductID != nil && strings.TrimSpace(*b.ProductID) != "" {
		c.Use.ProductIDs = []string{strings.TrimSpace(*b.ProductID)}
	}
	return c, nil
}

// CouponFilter selects a page of an account's coupons: Search matches the
// code partially (ignoring case); Status exactly ("" means any).
type CouponFilter struct {
	Page, PageSize int
	Search, Status string
}

// NewCouponFilter reads the list query's search and status.
func NewCouponFilter(page, pageSize int, search, status string) (CouponFilter, error) {
	f := CouponFilter{Page: page, PageSize: pageSize, Search: strings.TrimSpace(search)}
	var err error
	f.Status, err = domain.OneOf("status", status, CouponActive, CouponInactive)
	return f, err
}
