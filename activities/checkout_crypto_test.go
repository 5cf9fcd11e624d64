package activities_test

import (
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	storedom "github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// cryptoCheckoutSession is checkoutSession paid in CRYPTO: the session's
// payment is a PENDING crypto deposit it owns (as service.Checkouts makes
// it through Crypto.CreateDeposit).
func (f *fixture) cryptoCheckoutSession(amount money.Cents) (checkout.CheckoutSession, domain.Transaction) {
	f.t.Helper()
	sess, _, _ := f.checkoutSession(amount)
	dep := f.cryptoRecord(domain.TypeCryptoIn, amount)
	dep.Details.V.Owner = &domain.ChargeOwner{Kind: activities.OwnerCheckout, ID: sess.ID}
	f.inTx(func(tx *sqlx.Tx) error {
		if err := activities.InsertCryptoDeposit(f.ctx, tx, dep); err != nil {
			return err
		}
		_, err := tx.ExecContext(f.ctx, `UPDATE checkout_sessions SET method = 'CRYPTO', transaction_id = $2 WHERE id = $1`, sess.ID, dep.ID)
		return err
	})
	return f.session(sess.ID), dep
}

// A CRYPTO session is paid in its deposit's credit transaction,
// through the same hook as a PIX session (line handed out, customer made
// and counted, payment_link.paid), once however often the step is retried;
// its deposit's expiry expires it.
func TestCryptoCheckoutSessionMovesWithItsDeposit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Crypto{Base: f.base()}
	paid, dep := f.cryptoCheckoutSession(5500)
	unpaid, dep2 := f.cryptoCheckoutSession(5500)
	for range 2 { // the second call is a retried activity
		if _, err := a.CreditCryptoDeposit(f.ctx, activities.CryptoNoticeInput{ID: dep.ID, Notice: processor.CryptoNotice{Outcome: processor.OutcomePaid}}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.ExpireCryptoDeposit(f.ctx, dep2.ID); err != nil {
			t.Fatal(err)
		}
	}
	got := f.session(paid.ID)
	f.wantEqual("status", got.Status, checkout.SessionPaid)
	f.wantEqual("delivery", got.Delivery.V, []checkout.SessionDelivery{
		{ProductID: paid.ProductIDs.V[0], ProductName: "Licença", Type: storedom.DeliveryTextLines, Content: "LIC-1"},
		{ProductID: paid.ProductIDs.V[0], ProductName: "Licença", Type: storedom.DeliveryTextInfinite, Content: "Obrigado!"}})
	f.wantEqual("session events", f.events(paid.ID), []string{domain.EventPaymentLinkPaid})
	f.wantEqual("deposit events", f.events(dep.ID), []string{})
	if got.CustomerID == nil || got.PaidAt == nil {
		t.Fatalf("paid session %+v", got)
	}
	f.wantEqual("expired", f.session(unpaid.ID).Status, checkout.SessionExpired)
	f.wantEqual("expired session events", f.events(unpaid.ID), []string{})
	f.wantEqual("credited", f.balance(f.merchant.ID).Available, money.Cents(5500))
	f.verifyLedger()
}
