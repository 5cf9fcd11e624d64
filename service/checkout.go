package service

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	checkoutdom "github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
)

// CheckoutTTL is how long a checkout session, and its PIX charge, can be
// paid.
const CheckoutTTL = 30 * time.Minute

// PageHoldTTL is how long a hosted page's checkout, which needs no key,
// holds what it sells (a coupon use, a product's line) and can be paid:
// short, so that strangers with the link cannot keep a product's stock
// or a coupon's uses from the merchant's own checkouts for long.
const PageHoldTTL = 10 * time.Minute

// Checkouts runs payment links' checkouts: the merchant's POST
// /payment-links/checkout and the hosted pay page's form. A session is
// paid through an ordinary PIX charge made by Charges.Create and owned by
// the session (domain.ChargeOwner, activities.OwnerCheckout): the charge's
// own workflow and transitions pay or expire it (activities/checkout.go),
// so a checkout starts exactly one workflow, the charge's. A CRYPTO
// session is paid the same way through its own crypto deposit, made by
// Crypto.CreateDeposit with the session as its owner
// (service/checkout_crypto.go).
type Checkouts struct {
	DB        *sqlx.DB
	Charges   *Charges
	Crypto    *Crypto
	PublicURL string
	// TTL is how long sessions stay payable (CheckoutTTL when zero).
	TTL time.Duration
}

// CheckoutResult is a session with its charge's BR Code and QR image, or
// its crypto deposit's address and amount.
type CheckoutResult struct {
	Session      checkoutdom.CheckoutSession
	CopyPaste    string
	QRCodeBase64 string
	Crypto       *CheckoutCrypto
	// LinkName and MerchantName title the hosted session page
	// (PublicSession only).
	LinkName, MerchantName string
}

// PayPage is what a link's hosted pay page shows.
type PayPage struct {
	Link         PaymentLink
	MerchantName string
	Products     []PageProduct
	// Price is what the link sells at (domain.PriceCheckout: its products'
	// prices, or its fixed amount); nil on an open-value link, whose payer
	// types the amount.
	Price *money.Cents
}

// PageProduct is a product as the pay page lists it.
type PageProduct struct {
	ID, Name, Description string
	Price                 *money.Cents
}

// Checkout makes (or, under the same Idempotency-Key, finds) a session of
// one of the account's links, for the calling key.
func (s *Checkouts) Checkout(ctx context.Context, acct domain.Account, key domain.APIKey, in checkoutdom.NewCheckout) (CheckoutResult, error) {
	id := newID("cs_", acct.ID, "checkout", in.IdempotencyKey, in.LinkID)
	if in.IdempotencyKey != "" {
		if r, found, err := s.earlier(ctx, acct.ID, id, in); found || err != nil {
			return r, err
		}
	}
	link, err := db.GetPaymentLink(ctx, s.DB, acct.ID, in.LinkID)
	if err != nil {
		return CheckoutResult{}, err
	}
	return s.checkout(ctx, acct, key.ID, link, id, in, s.ttl())
}

// PageCheckout is the hosted pay page's checkout: the link names the
// account, and the charge is the key's that made the link. nonce names the
// session: the page's key for the form (api's pageKey: the nonce the
// server drew into the form, bound to the payer), so a form sent twice
// makes one session and another payer's form another.
func (s *Checkouts) PageCheckout(ctx context.Context, nonce string, in checkoutdom.NewCheckout) (CheckoutResult, error) {
	link, err := db.PublicPaymentLink(ctx, s.DB, in.LinkID)
	if err != nil {
		return CheckoutResult{}, err
	}
	acct, err := db.GetAccount(ctx, s.DB, link.AccountID)
	if err != nil {
		return CheckoutResult{}, err
	}
	in.IdempotencyKey = "page " + nonce
	id := newID("cs_", acct.ID, "checkout", in.IdempotencyKey)
	if r, found, err := s.earlier(ctx, acct.ID, id, in); found || err != nil {
		return r, err
	}
	keyID := ""
	if link.APIKeyID != nil {
		keyID = *link.APIKeyID
	}
	return s.checkout(ctx, acct, keyID, link, id, in, min(s.ttl(), PageHoldTTL))
}

// earlier finds the session an earlier attempt of this checkout made: the
// same one is answered, another checkout under the same key is a 400.
func (s *Checkouts) earlier(ctx context.Context, accountID, id string, in checkoutdom.NewCheckout) (CheckoutResult, bool, error) {
	sess, err := db.GetSession(ctx, s.DB, accountID, id)
	if errors.Is(err, domain.ErrNotFound) {
		return CheckoutResult{}, false, nil
	}
	if err != nil {
		return CheckoutResult{}, false, err
	}
	if !sameCheckout(sess, in) {
		return CheckoutResult{}, false, domain.Invalid("Idempotency-Key", "was already used by checkout session %s with another link, method, amount or coupon", sess.ID)
	}
	if err := ownsKey(ctx, sess.CreatedAt.Time); err != nil {
		return CheckoutResult{}, false, err
	}
	r, err := s.result(ctx, sess)
	if err == nil && r.Crypto != nil && r.Crypto.PayCurrency != in.PayCurrency.Code {
		return CheckoutResult{}, false, domain.Invalid("Idempotency-Key", "was already used by checkout session %s paid in %s", sess.ID, r.Crypto.PayCurrency)
	}
	if err == nil && r.CopyPaste == "" && r.Crypto == nil && sess.Status == checkoutdom.SessionOpen && time.Until(sess.ExpiresAt.Time) > time.Minute {
		// The first attempt stored the session and died before its
		// charge: this retry makes it.
		acct, err := db.GetAccount(ctx, s.DB, accountID)
		if err != nil {
			return r, true, err
		}
		name := "link " + sess.LinkID
		if l, err := db.GetPaymentLink(ctx, s.DB, accountID, sess.LinkID); err == nil {
			name = l.Name
		}
		r, err = s.pay(ctx, acct, name, sess, in.PayCurrency)
		return r, true, err
	}
	return r, true, err
}

// sameCheckout tells whether a stored session is the checkout in asks for.
func sameCheckout(sess checkoutdom.CheckoutSession, in checkoutdom.NewCheckout) bool {
	code := ""
	if sess.CouponCode != nil {
		code = *sess.CouponCode
	}
	return sess.LinkID == in.LinkID && sess.Method == in.Method && (in.Amount == nil || *in.Amount == sess.OriginalAmount) &&
		strings.EqualFold(code, in.CouponCode)
}

// checkout runs the checks a new session needs, holds what it sells (a
// coupon use, product lines) by storing it OPEN, makes its charge and
// answers. A charge that cannot be made expires the session at once.
func (s *Checkouts) checkout(ctx context.Context, acct domain.Account, keyID string, link PaymentLink, id string, in checkoutdom.NewCheckout,
	ttl time.Duration) (CheckoutResult, error) {
	if err := checkoutdom.Eligible(acct, link.Status, link.AllowedMethods, in.Method); err != nil {
		return CheckoutResult{}, err
	}
	var products []store.Product
	if len(link.ProductIDs) > 0 {
		var err error
		if products, err = db.ProductsOf(ctx, s.DB, acct.ID, link.ProductIDs); err != nil {
			return CheckoutResult{}, err
		}
		if len(products) != len(link.ProductIDs) {
			return CheckoutResult{}, domain.Invalid("linkId", "sells a product that no longer exists")
		}
	}
	price, err := checkoutdom.PriceCheckout(link.FixedAmount, in.Amount, products)
	if err != nil {
		return CheckoutResult{}, err
	}
	payer, err := in.PayerFor(link.CustomerMode)
	if err != nil {
		return CheckoutResult{}, err
	}
	now := time.Now().UTC().Truncate(time.Microsecond) // PostgreSQL's precision: the payment expires when the session does
	sess := checkoutdom.CheckoutSession{
		ID: id, AccountID: acct.ID, LinkID: link.ID, Method: in.Method, OriginalAmount: price, Amount: price,
		ProductIDs:    domain.SomeJSON([]string(link.ProductIDs)),
		TransactionID: sessionPaymentID(acct.ID, id, in.Method), ExternalReference: in.ExternalReference,
		Status: checkoutdom.SessionOpen, ExpiresAt: domain.NewTime(now.Add(ttl)), CreatedAt: domain.NewTime(now), UpdatedAt: domain.NewTime(now),
	}
	if keyID != "" {
		sess.APIKeyID = &keyID
	}
	if payer != nil {
		sess.Payer = domain.SomeJSON(*payer)
	}
	if in.Method != checkoutdom.MethodCrypto && in.CouponCode == "" && len(link.ProductIDs) == 0 {
		// Nothing to hold: the session commits with its charge, in one
		// transaction (Charges.CreateWith). A CRYPTO session's payment is a
		// deposit, made after the session is stored (pay). A concurrent attempt of the
		// same checkout that stored it first leaves this one nothing to
		// write: it answers with that session.
		r, written, err := s.chargeWith(ctx, acct, link.Name, sess, in.IdempotencyKey == "", func(domain.Transaction) db.OwnerRow {
			return db.SessionRow(sess)
		})
		if err == nil && !written {
			return s.storedSession(ctx, acct.ID, id)
		}
		return r, err
	}
	// What it sells is held under row locks in a transaction of its own:
	// the processor is not asked for a charge while they are held.
	var stored bool
	err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if err := s.hold(ctx, tx, &sess, in.CouponCode); err != nil {
			return err
		}
		if sess.Amount < domain.MinCharge {
			return domain.Invalid("couponCode", "leaves %s to pay: a PIX charge is at least %s", sess.Amount, domain.MinCharge)
		}
		var err error
		stored, err = db.InsertSession(ctx, tx, sess)
		return err
	})
	if err != nil {
		return CheckoutResult{}, err
	}
	if !stored { // a concurrent attempt of the same checkout stored it
		return s.storedSession(ctx, acct.ID, id)
	}
	return s.pay(ctx, acct, link.Name, sess, in.PayCurrency)
}

// charge makes the session's charge (or finds it: its id derives from the
// session's) and answers with both. A charge that cannot be made expires
// the session at once: nothing can pay it, and it holds nothing any more.
// (A session whose request died before its charge stops holding at its
// expiry; a retry under the same key makes the charge.)
func (s *Checkouts) charge(ctx context.Context, acct domain.Account, linkName string, sess checkoutdom.CheckoutSession) (CheckoutResult, error) {
	r, _, err := s.chargeWith(ctx, acct, linkName, sess, false, nil)
	return r, err
}

// chargeWith is charge whose charge commits with the row makeRow makes
// (the session itself, when nothing is held), in one statement: a charge
// refused then leaves no session behind, and one that cannot be made after
// a stored session expires that session. fresh says this request made the
// session under a new random id (no Idempotency-Key): no earlier charge
// can exist. written says makeRow's row was written with the charge
// (false: an attempt of the same checkout stored them first).
func (s *Checkouts) chargeWith(ctx context.Context, acct domain.Account, linkName string, sess checkoutdom.CheckoutSession, fresh bool, makeRow OwnerRowOf) (r CheckoutResult, written bool, err error) {
	keyID := ""
	if sess.APIKeyID != nil {
		keyID = *sess.APIKeyID
	}
	var payer *checkoutdom.CheckoutPayer
	if sess.Payer.Valid {
		payer = &sess.Payer.V
	}
	created, err := s.Charges.CreateWith(ctx, acct, domain.APIKey{ID: keyID}, domain.NewCharge{
		IdempotencyKey: "checkout " + sess.ID, Amount: sess.Amount, Description: chargeDescription(linkName),
		ExpiresIn: time.Until(sess.ExpiresAt.Time), Payer: payerParty(payer),
		Owner: &domain.ChargeOwner{Kind: activities.OwnerCheckout, ID: sess.ID}, OwnerIsNew: fresh,
	}, makeRow)
	if err != nil {
		if makeRow != nil || retryable(ctx, err) { // nothing to expire, or the retry's to finish
			return CheckoutResult{}, false, err
		}
		if xerr := db.ExpireSession(context.WithoutCancel(ctx), s.DB, sess.ID); xerr != nil {
			err = errors.Join(err, xerr)
		}
		return CheckoutResult{}, false, err
	}
	return CheckoutResult{Session: sess, CopyPaste: *created.Charge.CopyPaste, QRCodeBase64: created.QRCodeBase64}, created.OwnerRowWritten, nil
}

// Session reads one of the account's sessions.
func (s *Checkouts) Session(ctx context.Context, acct domain.Account, id string) (checkoutdom.CheckoutSession, error) {
	return db.GetSession(ctx, s.DB, acct.ID, id)
}

// PublicSession is a session with its charge's BR Code, for its hosted
// page (the session id is the page's address).
func (s *Checkouts) PublicSession(ctx context.Context, id string) (CheckoutResult, error) {
	sess, err := db.PublicSession(ctx, s.DB, id)
	if err != nil {
		return CheckoutResult{}, err
	}
	r, err := s.result(ctx, sess)
	if err != nil {
		return r, err
	}
	acct, err := db.GetAccount(ctx, s.DB, sess.AccountID)
	if err != nil {
		return r, err
	}
	r.MerchantName = acct.Name
	// A link deleted since keeps its sessions' pages.
	r.LinkName = "Pagamento"
	if l, err := db.GetPaymentLink(ctx, s.DB, sess.AccountID, sess.LinkID); err == nil {
		r.LinkName = l.Name
	}
	return r, nil
}

// PublicLink is a live link with what its hosted pay page shows.
func (s *Checkouts) PublicLink(ctx context.Context, id string) (PayPage, error) {
	l, err := db.PublicPaymentLink(ctx, s.DB, id)
	if err != nil {
		return PayPage{}, err
	}
	acct, err := db.GetAccount(ctx, s.DB, l.AccountID)
	if err != nil {
		return PayPage{}, err
	}
	page := PayPage{Link: l, MerchantName: acct.Name}
	products, err := db.ProductsOf(ctx, s.DB, l.AccountID, l.ProductIDs)
	if err != nil {
		return PayPage{}, err
	}
	if price, err := checkoutdom.PriceCheckout(l.FixedAmount, nil, products); err == nil {
		page.Price = &price
	}
	for _, p := range products {
		pp := PageProduct{ID: p.ID, Name: p.Name, Price: p.Price}
		if p.Description != nil {
			pp.Description = *p.Description
		}
		page.Products = append(page.Products, pp)
	}
	return page, nil
}

func (s *Checkouts) storedSession(ctx context.Context, accountID, id string) (CheckoutResult, error) {
	sess, err := db.GetSession(ctx, s.DB, accountID, id)
	if err != nil {
		return CheckoutResult{}, err
	}
	return s.result(ctx, sess)
}

func (s *Checkouts) ttl() time.Duration {
	if s.TTL > 0 {
		return s.TTL
	}
	return CheckoutTTL
}

// chargeDescription is the session's charge's description (3 to 180
// characters): the link's name.
func chargeDescription(name string) string {
	d := "Pagamento: " + name
	if r := []rune(d); len(r) > 180 {
		d = string(r[:180])
	}
	return d
}

// payerParty is the charge's payer of a session's payer (nil when it
// gave neither name nor document).
func payerParty(p *checkoutdom.CheckoutPayer) *domain.Party {
	if p == nil || (p.Name == "" && p.Document == "") {
		return nil
	}
	return &domain.Party{Name: p.Name, Document: p.Document}
}

// retryable tells whether a stored session's payment failed for a reason
// its request's retry gets past: the caller went away (its context ended)
// or a dependency is down. Such a session stays OPEN, so the retry finds it
// and makes its payment (Checkouts.earlier); expiring it would answer the
// retry with a dead session. A refusal (a rule, the processor) expires it.
func retryable(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, domain.ErrUnavailable) || Unavailable(err)
}
