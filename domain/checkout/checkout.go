package checkout

import (
	"strings"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
)

// Checkout session statuses (CONTRACTS.md "Store").
const (
	SessionOpen    = "OPEN"
	SessionPaid    = "PAID"
	SessionExpired = "EXPIRED"
)

// CheckoutPayerRequest is the payer of a checkout as a request names it.
type CheckoutPayerRequest struct {
	Name     *string `json:"name"`
	Document *string `json:"document"`
	Email    *string `json:"email"`
}

// CheckoutRequest is the body of POST /payment-links/checkout (and of the
// hosted page's form).
type CheckoutRequest struct {
	LinkID            *string               `json:"linkId"`
	Method            *string               `json:"method"`
	Payer             *CheckoutPayerRequest `json:"payer"`
	Amount            *money.Cents          `json:"amount"`
	CouponCode        *string               `json:"couponCode"`
	ExternalReference *string               `json:"externalReference"`
	// PayCurrency is the coin a CRYPTO checkout is paid in (CheckoutCryptoDefault when absent).
	PayCurrency *string `json:"payCurrency" jsonschema:"description=CRYPTO only; USDT when absent"`
}

// CheckoutCryptoDefault is the payCurrency of a CRYPTO checkout that names
// none: a stablecoin, so that the payer's amount moves least with the rate.
const CheckoutCryptoDefault = "USDT"

// CheckoutPayer is a validated payer: each field is present when sent.
type CheckoutPayer struct {
	Name     string `json:"name,omitempty"`
	Document string `json:"document,omitempty"`
	Email    string `json:"email,omitempty"`
}

// Complete tells whether the payer has every field a REQUIRED link asks.
func (p *CheckoutPayer) Complete() bool {
	return p != nil && p.Name != "" && p.Document != "" && p.Email != ""
}

// NewCheckout is a validated checkout request.
type NewCheckout struct {
	// IdempotencyKey names the session (and, through it, its charge): every
	// attempt of one request finds the same session.
	IdempotencyKey    string
	LinkID            string
	Method            string
	Payer             *CheckoutPayer
	Amount            *money.Cents
	CouponCode        string
	ExternalReference *string
	// PayCurrency is a CRYPTO checkout's coin (zero for PIX).
	PayCurrency crypto.CryptoCurrency
}

// Validate checks the fields on their own; what depends on the link
// (allowed methods, amount, customer mode) is PriceCheckout's and
// PayerFor's.
func (b CheckoutRequest) Validate() (NewCheckout, error) {
	var n NewCheckout
	var err error
	if n.LinkID, err = domain.Text("linkId", b.LinkID, 1, 64, true); err != nil {
		return n, err
	}
	if b.Method == nil {
		return n, domain.Invalid("method", "is required")
	}
	var ok bool
	if n.Method, ok = Methods.Match(*b.Method); !ok {
		return n, domain.Invalid("method", "must be %s", Methods)
	}
	if b.Payer != nil {
		p := &CheckoutPayer{}
		if b.Payer.Name != nil && strings.TrimSpace(*b.Payer.Name) != "" {
			if p.Name, err = domain.Text("payer.name", b.Payer.Name, 2, 120, true); err != nil {
				return n, err
			}
		}
		if b.Payer.Document != nil && strings.TrimSpace(*b.Payer.Document) != "" {
			if p.Document, err = domain.TaxID("payer.document", b.Payer.Document); err != nil {
				return n, err
			}
		}
		if b.Payer.Email != nil && strings.TrimSpace(*b.Payer.Email) != "" {
			if p.Email, err = domain.Email("payer.email", b.Payer.Email); err != nil {
				return n, err
			}
		}
		if *p != (CheckoutPayer{}) {
			n.Payer = p
		}
	}
	if b.Amount != nil {
		v, err := domain.Amount("amount", b.Amount, domain.MinCharge, domain.MaxCharge)
		if err != nil {
			return n, err
		}
		n.Amount = &v
	}
	if b.CouponCode != nil {
		if n.CouponCode, err = domain.Text("couponCode", b.CouponCode, 0, 64, false); err != nil {
			return n, err
		}
	}
	if n.ExternalReference, err = domain.OptionalText("externalReference", b.ExternalReference, 1, 120); err != nil {
		return n, err
	}
	switch {
	case n.Method != MethodCrypto && b.PayCurrency != nil:
		return n, domain.Invalid("payCurrency", "is only for the CRYPTO method")
	case n.Method == MethodCrypto && b.PayCurrency == nil:
		n.PayCurrency = crypto.CryptoCurrencies[CheckoutCryptoDefault]
	case n.Method == MethodCrypto:
		if n.PayCurrency, err = crypto.ParseCryptoCurrency("payCurrency", b.PayCurrency); err != nil {
			return n, err
		}
	}
	return n, nil
}

// PayerFor is the payer a session keeps under the link's customer mode:
// none for NONE (the page asks nothing), all three fields for REQUIRED.
func (n NewCheckout) PayerFor(mode string) (*CheckoutPayer, error) {
	switch mode {
	case CustomerNone:
		return nil, nil
	case CustomerRequired:
		if !n.Payer.Complete() {
			return nil, domain.Invalid("payer", "needs name, document and email: this payment link requires the customer's data")
		}
	}
	return n.Payer, nil
}

// PriceCheckout is the amount a checkout sells before any discount. A
// link that sells products (products: the link's live products) is priced
// by them: the sum of their prices, or, when one has no price, the link's
// fixed amount; an amount the payer sends there is refused, so no payer
// sets the price of what is delivered. A link without products sells its
// fixed amount, or the amount the payer typed on an open-value link (and
// only there).
func PriceCheckout(fixed, asked *money.Cents, products []store.Product) (money.Cents, error) {
	if len(products) > 0 {
		if asked != nil {
			return 0, domain.Invalid("amount", "must not be sent: this payment link sells products at their prices")
		}
		if sum, ok := ProductsPrice(products); ok {
			return sum, nil
		}
		if fixed == nil {
			return 0, domain.Invalid("linkId", "sells a product without a price and has no fixedAmount: it cannot be priced")
		}
		return *fixed, nil
	}
	switch {
	case fixed != nil && asked != nil && *asked != *fixed:
		return 0, domain.Invalid("amount", "must not be sent: this payment link has a fixed amount of %s", *fixed)
	case fixed != nil:
		return *fixed, nil
	case asked == nil:
		return 0, domain.Invalid("amount", "is required: this payment link lets the payer choose the amount")
	}
	return *asked, nil
}

// Eligible decides whether a payment link takes a checkout by method for
// its account: the link ACTIVE, the account verified, a method the link
// accepts (allowed) and, for CRYPTO, the account's crypto feature.
func Eligible(acct domain.Account, linkStatus string, allowed []string, method string) error {
	switch {
	case linkStatus != LinkActive:
		return domain.Invalid("linkId", "names an inactive payment link: it takes no checkouts")
	case !acct.Verified:
		return domain.Forbidden("checkout needs a verified account")
	case !Allows(allowed, method):
		return domain.Invalid("method", "is not accepted by this payment link (it accepts %s)", strings.Join(allowed, " and "))
	case method == MethodCrypto && !acct.Features.Enabled(domain.FeatureCrypto):
		return domain.Forbidden("CRYPTO checkout needs the crypto feature enabled on the account")
	}
	return nil
}

// Allows tells whether methods (a link's allowedMethods) holds method.
func Allows(methods []string, method string) bool {
	for _, m := range methods {
		if m == method {
			return true
		}
	}
	return false
}

// Enums are the delivery's closed sets (the product's delivery types).
func (SessionDelivery) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"type": domain.Exact(store.DeliveryTypes.Values...)}
}

// SessionDelivery is what a paid session hands its payer for one product:
// a LINK's redirect, a TEXT_INFINITE's content, or the TEXT_LINES line
// handed out to this sale.
type SessionDelivery struct {
	ProductID   string `json:"productId"`
	ProductName string `json:"productName"`
	Type        string `json:"type"`
	RedirectURL string `json:"redirectUrl,omitempty"`
	Content     string `json:"content,omitempty"`
	// Undelivered is set when a TEXT_LINES product had no line left for
	// this sale (a payment that arrived after its session's hold lapsed,
	// when the other checkouts held or took every line): the sale stands,
	// content says the seller will deliver, and no line was handed out.
	Undelivered bool `json:"undelivered,omitempty" jsonschema:"description=true when a TEXT_LINES product had no line left for this sale (paid after its session's hold lapsed): no line was handed out; content says the seller delivers"`
}

// CheckoutSession is a stored checkout session: one checkout of a payment
// link, paid through its own ordinary PIX charge or, for CRYPTO, its own
// crypto deposit (TransactionID).
type CheckoutSession struct {
	ID                string                          `db:"id"`
	AccountID         string                          `db:"account_id"`
	LinkID            string                          `db:"link_id"`
	APIKeyID          *string                         `db:"api_key_id"`
	Status            string                          `db:"status"`
	Method            string                          `db:"method"`
	OriginalAmount    money.Cents                     `db:"original_amount"`
	DiscountAmount    money.Cents                     `db:"discount_amount"`
	Amount            money.Cents                     `db:"amount"`
	CouponID          *string                         `db:"coupon_id"`
	CouponCode        *string                         `db:"coupon_code"`
	ProductIDs        domain.JSONB[[]string]          `db:"product_ids_json"`
	Payer             domain.JSONB[CheckoutPayer]     `db:"payer"`
	CustomerID        *string                         `db:"customer_id"`
	TransactionID     string                          `db:"transaction_id"`
	ExternalReference *string                         `db:"external_reference"`
	Delivery          domain.JSONB[[]SessionDelivery] `db:"delivery"`
	// CouponCounted tells whether the session's sale counted a use of its
	// coupon (a row of coupon_uses, read with the session): a payment
	// that arrived after its hold lapsed counts one only if the coupon
	// still had a use no other session held.
	CouponCounted bool         `db:"coupon_counted"`
	ExpiresAt     domain.Time  `db:"expires_at"`
	PaidAt        *domain.Time `db:"paid_at"`
	CreatedAt     domain.Time  `db:"created_at"`
	UpdatedAt     domain.Time  `db:"updated_at"`
}

// SessionStatuses are a session's status values.
var SessionStatuses = []string{SessionOpen, SessionPaid, SessionExpired}

// Enums are the request's closed sets.
func (CheckoutRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"method": Methods, "payCurrency": crypto.CurrencyEnum}
}

// Enums are the session's closed sets.
func (SessionView) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(SessionStatuses...), "method": domain.Exact(Methods.Values...)}
}

// SessionView is a session's public form: the checkout's answer, GET
// /payment-links/sessions/get and the payment_link.paid event's data.
// amount is what the payer pays (after the discount); delivery appears
// once the session is paid.
type SessionView struct {
	SessionID         string            `json:"sessionId"`
	LinkID            string            `json:"linkId"`
	Status            string            `json:"status"`
	Method            string            `json:"method"`
	OriginalAmount    money.Cents       `json:"originalAmount"`
	DiscountAmount    money.Cents       `json:"discountAmount"`
	Amount            money.Cents       `json:"amount"`
	CouponCode        *string           `json:"couponCode,omitempty"`
	ProductIDs        []string          `json:"productIds"`
	Payer             *CheckoutPayer    `json:"payer,omitempty"`
	CustomerID        *string           `json:"customerId,omitempty"`
	TransactionID     string            `json:"transactionId"`
	ExternalReference *string           `json:"externalReference,omitempty"`
	PayCheckoutURL    string            `json:"payCheckoutUrl"`
	Delivery          []SessionDelivery `json:"delivery,omitempty"`
	// CouponCounted is present on a PAID session with a coupon: false
	// when its sale did not count a use of the coupon (paid after its
	// hold lapsed, with every use taken or held by other checkouts); the
	// payer still paid the discounted amount.
	CouponCounted *bool        `json:"couponCounted,omitempty" jsonschema:"description=on a PAID session with a coupon: whether its sale counted a use of the coupon; false when it was paid after its hold lapsed and every use was taken or held by other checkouts (the discounted amount was still paid)"`
	ExpiresAt     domain.Time  `json:"expiresAt"`
	PaidAt        *domain.Time `json:"paidAt,omitempty"`
	CreatedAt     domain.Time  `json:"createdAt"`
}

// View is the session's public form.
func (s CheckoutSession) View(publicURL string) SessionView {
	v := SessionView{SessionID: s.ID, LinkID: s.LinkID, Status: s.Status, Method: s.Method, OriginalAmount: s.OriginalAmount,
		DiscountAmount: s.DiscountAmount, Amount: s.Amount, CouponCode: s.CouponCode, ProductIDs: s.ProductIDs.V,
		CustomerID: s.CustomerID, TransactionID: s.TransactionID, ExternalReference: s.ExternalReference,
		PayCheckoutURL: CheckoutPageURL(publicURL, s.ID), ExpiresAt: s.ExpiresAt, PaidAt: s.PaidAt, CreatedAt: s.CreatedAt}
	if v.ProductIDs == nil {
		v.ProductIDs = []string{}
	}
	if s.Payer.Valid {
		p := s.Payer.V
		v.Payer = &p
	}
	if s.Status == SessionPaid {
		v.Delivery = s.Delivery.V
		if s.CouponID != nil {
			counted := s.CouponCounted
			v.CouponCounted = &counted
		}
	}
	return v
}

// ProductsPrice is the sum of products' prices, and whether every one has
// a price.
func ProductsPrice(products []store.Product) (money.Cents, bool) {
	var sum money.Cents
	for _, p := range products {
		if p.Price == nil {
			return 0, false
		}
		sum += *p.Price
	}
	return sum, true
}
