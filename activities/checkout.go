package activities

import (
	"context"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/store"
)

// OwnerCheckout is the charge-owner kind of a checkout session's PIX charge
// (domain.ChargeOwner.Kind; stored in charges' details, never renamed).
const OwnerCheckout = "checkout"

// A checkout session has no workflow of its own: it is paid or expires in
// its charge's transition transaction (the charge workflow's timer is its
// expiry), so a session can never be PAID without its charge COMPLETED, nor
// the other way round.
var _ = RegisterChargeOwner(OwnerCheckout, ChargeOwnerHook{Moved: CheckoutChargeMoved})

// CheckoutChargeMoved moves the OPEN session that owns charge (its PIX
// charge, or for a CRYPTO session its crypto deposit, whose transitions
// call the same hook: CreditCryptoDeposit, ExpireCryptoDeposit) with it:
// COMPLETED pays it (PaySession), FAILED or CANCELED expires it, releasing
// what it held. A session already moved is left as it is, except an
// EXPIRED one whose charge is paid: its checkout expired it when it could
// not answer with the charge (db.ExpireSession), but a charge stored anyway
// was payable, and a payer who paid has bought (the sale stands, as when
// its hold lapsed).
func CheckoutChargeMoved(ctx context.Context, tx *sqlx.Tx, charge domain.Transaction, publicURL string) error {
	s, err := db.LockSession(ctx, tx, charge.Details.V.Owner.ID)
	paidLate := s.Status == checkout.SessionExpired && charge.Status == domain.StatusCompleted && !shortOfQuote(charge)
	if err != nil || (s.Status != checkout.SessionOpen && !paidLate) {
		return err
	}
	if charge.Status != domain.StatusCompleted {
		s.Status = checkout.SessionExpired
		return db.SaveSession(ctx, tx, s)
	}
	at := time.Now().UTC()
	if charge.CompletedAt != nil {
		at = charge.CompletedAt.Time
	}
	return PaySession(ctx, tx, s, at, publicURL)
}

// shortOfQuote: a crypto deposit paid after it expired whose coins, priced
// then, brought less than the session's amount. The merchant holds what
// they brought; the sale did not happen, so the session stays EXPIRED.
func shortOfQuote(charge domain.Transaction) bool {
	c := charge.Details.V.Crypto
	return c != nil && c.LatePayment != nil && c.LatePayment.Credited < charge.Amount
}

// PaySession is a session's sale, in its payment's transaction: the
// payer becomes (or is linked to) a customer of the account, its coupon's
// use is counted, the session is PAID with its delivery, and
// payment_link.paid carries the session.
func PaySession(ctx context.Context, tx *sqlx.Tx, s checkout.CheckoutSession, at time.Time, publicURL string) error {
	if p := s.Payer.V; s.Payer.Valid && p.Document != "" && p.Name != "" {
		c := store.Customer{AccountID: s.AccountID, Name: p.Name, Document: p.Document}
		if p.Email != "" {
			c.Email = &p.Email
		}
		cust, err := db.FindOrCreateCustomer(ctx, tx, c)
		if err != nil {
			return err
		}
		if err := db.AddCustomerPayment(ctx, tx, cust.ID, s.Amount); err != nil {
			return err
		}
		s.CustomerID = &cust.ID
	}
	if s.CouponID != nil {
		// Counted once per session; a coupon deleted, or used up since the
		// checkout held its use (a payment after its hold lapsed, whose
		// use another checkout took: db.UseCoupon), does not undo a paid
		// sale: the payer paid, the money is credited, and the session
		// says the use was not counted (couponCounted false).
		err := db.UseCoupon(ctx, tx, *s.CouponID, s.ID)
		if err != nil && !errors.Is(err, store.ErrCouponExhausted) && !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		s.CouponCounted = err == nil
	}
	delivery, err := deliver(ctx, tx, s)
	if err != nil {
		return err
	}
	s.Delivery = domain.SomeJSON(delivery)
	s.Status = checkout.SessionPaid
	s.PaidAt = domain.TimePtr(at)
	if err := db.SaveSession(ctx, tx, s); err != nil {
		return err
	}
	_, err = db.InsertEvent(ctx, tx, s.AccountID, s.APIKeyID, domain.EventPaymentLinkPaid, s.ID, s.View(publicURL))
	return err
}

// noLineLeft is what a paid session shows for a TEXT_LINES product whose
// lines ran out anyway (a payment settled after its session's hold lapsed,
// db.SessionHoldGrace, when the lines left are held by the checkouts made
// since: db.TakeProductLine): the sale stands, the merchant delivers by
// hand, and the delivery says undelivered.
const noLineLeft = "Estoque esgotado no momento do pagamento: o vendedor fará a entrega."

// deliver is what a paid session hands its payer: each product's LINK
// redirect, TEXT_INFINITE content and one TEXT_LINES line taken for this
// sale (db.TakeProductLine, idempotent on the session). A product deleted
// since the checkout delivers nothing.
func deliver(ctx context.Context, tx *sqlx.Tx, s checkout.CheckoutSession) ([]checkout.SessionDelivery, error) {
	out := []checkout.SessionDelivery{}
	for _, id := range s.ProductIDs.V {
		p, err := db.GetProduct(ctx, tx, s.AccountID, id)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, d := range p.Deliveries {
			item := checkout.SessionDelivery{ProductID: p.ID, ProductName: p.Name, Type: d.Type}
			switch d.Type {
			case store.DeliveryLink:
				item.RedirectURL = d.RedirectURL
			case store.DeliveryTextInfinite:
				item.Content = d.RichContent
			case store.DeliveryTextLines:
				line, err := db.TakeProductLine(ctx, tx, p.ID, s.ID)
				switch {
				case errors.Is(err, store.ErrNoLinesLeft):
					line, item.Undelivered = noLineLeft, true
				case err != nil:
					return nil, err
				}
				item.Content = line
			}
			out = append(out, item)
		}
	}
	return out, nil
}
