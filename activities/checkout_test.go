package activities_test

import (
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	storedom "github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
)

// checkoutSession stores a link selling a TEXT_LINES product, an OPEN
// session of it and the session's PENDING charge, owned by the session.
func (f *fixture) checkoutSession(amount money.Cents) (checkout.CheckoutSession, domain.Transaction, string) {
	f.t.Helper()
	prodID := domain.NewID("prod_")
	var sess checkout.CheckoutSession
	c := f.newCharge(amount, 0)
	f.inTx(func(tx *sqlx.Tx) error {
		if _, err := db.InsertProduct(f.ctx, tx, storedom.Product{ID: prodID, AccountID: f.merchant.ID, Name: "Licença", Status: storedom.ProductActive,
			Deliveries: storedom.Deliveries{{Type: storedom.DeliveryTextLines}, {Type: storedom.DeliveryTextInfinite, RichContent: "Obrigado!"}}},
			[]string{"LIC-1", "LIC-2"}); err != nil {
			return err
		}
		link, err := db.InsertPaymentLink(f.ctx, tx, db.PaymentLink{ID: domain.NewID("plink_"), AccountID: f.merchant.ID, Name: "Licenças",
			AllowedMethods: []string{domain.MethodPix}, ProductIDs: []string{prodID}, CustomerMode: checkout.CustomerOptional, Status: checkout.LinkActive})
		if err != nil {
			return err
		}
		now := time.Now().UTC()
		sess = checkout.CheckoutSession{ID: domain.NewID("cs_"), AccountID: f.merchant.ID, LinkID: link.ID, Status: checkout.SessionOpen,
			Method: domain.MethodPix, OriginalAmount: amount, Amount: amount, ProductIDs: domain.SomeJSON([]string{prodID}),
			Payer:         domain.SomeJSON(checkout.CheckoutPayer{Name: "Ana Lima", Document: "52998224725", Email: "ana@example.com"}),
			TransactionID: c.ID, ExpiresAt: domain.NewTime(now.Add(time.Hour)), CreatedAt: domain.NewTime(now)}
		_, err = db.InsertSession(f.ctx, tx, sess)
		return err
	})
	d := c.Details.V
	d.Owner = &domain.ChargeOwner{Kind: activities.OwnerCheckout, ID: sess.ID}
	if _, err := f.db.ExecContext(f.ctx, `UPDATE transactions SET details = $2 WHERE id = $1`, c.ID, domain.SomeJSON(d)); err != nil {
		f.t.Fatal(err)
	}
	return sess, f.get(c.ID, domain.TypePixIn), prodID
}

func (f *fixture) session(id string) checkout.CheckoutSession {
	f.t.Helper()
	s, err := db.GetSession(f.ctx, f.db, f.merchant.ID, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

// A session is paid in its charge's settle transaction, once
// however often the step is retried: one line handed out, the customer
// made and counted once, one payment_link.paid.
func TestCheckoutSessionPaidOnceWithItsCharge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	sess, charge, _ := f.checkoutSession(2500)
	max := int64(5)
	coupon, err := db.InsertCoupon(f.ctx, f.db, storedom.Coupon{ID: domain.NewID("cpn_"), AccountID: f.merchant.ID, Code: "C" + sess.ID[3:11],
		DiscountType: storedom.CouponPercent, DiscountValue: 1000, MaxUses: &max, Status: storedom.CouponActive})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.ExecContext(f.ctx, `UPDATE checkout_sessions SET coupon_id = $2 WHERE id = $1`, sess.ID, coupon.ID); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second call is a retried activity
		if _, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: charge.ID, Notice: paidNotice()}); err != nil {
			t.Fatal(err)
		}
	}
	got := f.session(sess.ID)
	f.wantEqual("status", got.Status, checkout.SessionPaid)
	f.wantEqual("delivery", got.Delivery.V, []checkout.SessionDelivery{
		{ProductID: sess.ProductIDs.V[0], ProductName: "Licença", Type: storedom.DeliveryTextLines, Content: "LIC-1"},
		{ProductID: sess.ProductIDs.V[0], ProductName: "Licença", Type: storedom.DeliveryTextInfinite, Content: "Obrigado!"}})
	f.wantEqual("session events", f.events(sess.ID), []string{domain.EventPaymentLinkPaid})
	f.wantEqual("charge events", f.events(charge.ID), []string{domain.EventPaymentCreated, domain.EventPaymentPaid})
	if got.CustomerID == nil {
		t.Fatal("no customer linked")
	}
	cust, err := db.GetCustomer(f.ctx, f.db, f.merchant.ID, *got.CustomerID)
	if err != nil {
		t.Fatal(err)
	}
	f.wantEqual("customer", []any{cust.Document, cust.Transactions, cust.Volume}, []any{"52998224725", int64(1), money.Cents(2500)})
	used, err := db.GetCoupon(f.ctx, f.db, f.merchant.ID, coupon.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.wantEqual("coupon uses", used.Uses, int64(1))
	f.verifyLedger()
}

// An expired (or failed) charge expires its session and frees
// what it held; a retry changes nothing and nothing is emitted.
func TestCheckoutSessionExpiresWithItsCharge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	expired, c1, prod := f.checkoutSession(1000)
	failed, c2, _ := f.checkoutSession(1000)
	for range 2 {
		if _, err := a.ExpireCharge(f.ctx, c1.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := a.FailCharge(f.ctx, c2.ID); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("expired", f.session(expired.ID).Status, checkout.SessionExpired)
	f.wantEqual("failed", f.session(failed.ID).Status, checkout.SessionExpired)
	f.wantEqual("events", f.events(expired.ID), []string{})
	var held int
	f.inTx(func(tx *sqlx.Tx) error {
		var err error
		held, err = db.ProductHeld(f.ctx, tx, prod)
		return err
	})
	f.wantEqual("lines held after the expiry", held, 0)
}

// A session expired because its checkout could not answer with its charge
// (db.ExpireSession) whose charge was stored anyway and is paid: the payer
// paid, so the session is PAID with its delivery (not left EXPIRED with
// the money credited and nothing handed out).
func TestCheckoutSessionExpiredByItsCheckoutIsPaidWithItsCharge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	sess, charge, _ := f.checkoutSession(2500)
	if err := db.ExpireSession(f.ctx, f.db, sess.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: charge.ID, Notice: paidNotice()}); err != nil {
		t.Fatal(err)
	}
	got := f.session(sess.ID)
	f.wantEqual("status", got.Status, checkout.SessionPaid)
	f.wantEqual("session events", f.events(sess.ID), []string{domain.EventPaymentLinkPaid})
	f.wantEqual("delivered", len(got.Delivery.V), 2)
}
