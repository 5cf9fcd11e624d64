package activities_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	storedom "github.com/jangada/jangada/domain/store"
)

// store is a link selling one TEXT_LINES product, with a coupon for it.
type store struct {
	link, product, coupon, code string
}

// newStore stores a link selling a product with lines and a coupon of
// maxUses uses.
func (f *fixture) newStore(lines []string, maxUses int64) store {
	f.t.Helper()
	s := store{product: domain.NewID("prod_"), coupon: domain.NewID("cpn_")}
	s.code = "C" + s.coupon[len(s.coupon)-10:]
	f.inTx(func(tx *sqlx.Tx) error {
		if _, err := db.InsertProduct(f.ctx, tx, storedom.Product{ID: s.product, AccountID: f.merchant.ID, Name: "Licença",
			Status: storedom.ProductActive, Deliveries: storedom.Deliveries{{Type: storedom.DeliveryTextLines}}}, lines); err != nil {
			return err
		}
		link, err := db.InsertPaymentLink(f.ctx, tx, db.PaymentLink{ID: domain.NewID("plink_"), AccountID: f.merchant.ID, Name: "Licenças",
			AllowedMethods: []string{domain.MethodPix}, ProductIDs: []string{s.product}, CustomerMode: checkout.CustomerOptional, Status: checkout.LinkActive})
		s.link = link.ID
		return err
	})
	if _, err := db.InsertCoupon(f.ctx, f.db, storedom.Coupon{ID: s.coupon, AccountID: f.merchant.ID, Code: s.code,
		DiscountType: storedom.CouponPercent, DiscountValue: 1000, MaxUses: &maxUses, Status: storedom.CouponActive}); err != nil {
		f.t.Fatal(err)
	}
	return s
}

// errNoHold is a checkout refused because the coupon's uses or the
// product's lines are all used or held.
var errNoHold = errors.New("nothing left to hold")

// holdSession is a checkout of st as service.Checkouts makes one: under
// the coupon's and the product's row locks it counts the uses and lines
// that OPEN sessions hold, and stores its OPEN session (the hold) in the
// same transaction; then its PIX charge, owned by the session. A checkout
// that finds nothing left is errNoHold, and stores nothing.
func (f *fixture) holdSession(st store) (checkout.CheckoutSession, domain.Transaction, error) {
	now := time.Now().UTC().Truncate(time.Microsecond)
	c := f.newCharge(1800, 0) // the price after the coupon's 10 %
	sess := checkout.CheckoutSession{ID: domain.NewID("cs_"), AccountID: f.merchant.ID, LinkID: st.link, Status: checkout.SessionOpen,
		Method: domain.MethodPix, OriginalAmount: 2000, ProductIDs: domain.SomeJSON([]string{st.product}), TransactionID: c.ID,
		ExpiresAt: domain.NewTime(now.Add(30 * time.Minute)), CreatedAt: domain.NewTime(now)}
	err := db.InTx(f.ctx, f.db, func(tx *sqlx.Tx) error {
		c, err := db.LockCouponByCode(f.ctx, tx, f.merchant.ID, st.code)
		if err != nil {
			return err
		}
		held, err := db.CouponHeld(f.ctx, tx, c.ID)
		if err != nil {
			return err
		}
		q := c.Quote(storedom.CouponUse{Amount: sess.OriginalAmount, PaymentLinkID: st.link, ProductIDs: sess.ProductIDs.V, Now: now, Held: int64(held)})
		if !q.Valid {
			return errNoHold
		}
		sess.CouponID, sess.CouponCode, sess.DiscountAmount, sess.Amount = &c.ID, &c.Code, q.DiscountAmount, q.FinalAmount
		ps, err := db.LockProducts(f.ctx, tx, f.merchant.ID, sess.ProductIDs.V)
		if err != nil {
			return err
		}
		if held, err = db.ProductHeld(f.ctx, tx, st.product); err != nil {
			return err
		}
		if ps[0].LinesAvailable-held <= 0 {
			return errNoHold
		}
		_, err = db.InsertSession(f.ctx, tx, sess)
		return err
	})
	if err != nil {
		return sess, domain.Transaction{}, err
	}
	d := c.Details.V
	d.Owner = &domain.ChargeOwner{Kind: activities.OwnerCheckout, ID: sess.ID}
	if _, err := f.db.ExecContext(f.ctx, `UPDATE transactions SET details = $2 WHERE id = $1`, c.ID, domain.SomeJSON(d)); err != nil {
		return sess, c, err
	}
	return sess, c, nil
}

// lapse moves a session's expiry back beyond its hold's grace: what it
// held is free for other checkouts. expire also expires its charge (and so
// the session), as the charge's workflow does at the expiry; otherwise the
// session stays OPEN, its charge's expiry not yet run (a busy worker).
func (f *fixture) lapse(sess checkout.CheckoutSession, charge domain.Transaction, expire bool) {
	f.t.Helper()
	if _, err := f.db.ExecContext(f.ctx, `UPDATE checkout_sessions SET expires_at = now() - interval '10 minutes' WHERE id = $1`, sess.ID); err != nil {
		f.t.Fatal(err)
	}
	if expire {
		if _, err := (&activities.Charges{Base: f.base()}).ExpireCharge(f.ctx, charge.ID); err != nil {
			f.t.Fatal(err)
		}
	}
}

// pay settles a session's charge, twice (the second is a retried step).
func (f *fixture) pay(charge domain.Transaction) error {
	a := &activities.Charges{Base: f.base()}
	for range 2 {
		if _, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: charge.ID, Notice: paidNotice()}); err != nil {
			return err
		}
	}
	return nil
}

// paidView is the session's payment_link.paid event's data.
func (f *fixture) paidView(sessionID string) checkout.SessionView {
	f.t.Helper()
	evs, err := db.EventsFor(f.ctx, f.db, sessionID)
	if err != nil || len(evs) != 1 || evs[0].Type != domain.EventPaymentLinkPaid {
		f.t.Fatalf("session %s events %v (%v), want one payment_link.paid", sessionID, evs, err)
	}
	var v checkout.SessionView
	if err := json.Unmarshal(evs[0].Data, &v); err != nil {
		f.t.Fatal(err)
	}
	return v
}

// sale is what a paid session got: its coupon use counted, its line.
type sale struct {
	counted bool
	line    string
}

// saleOf reads what a PAID session got, as its view says and as its
// payment_link.paid event said (the two must agree).
func (f *fixture) saleOf(sessionID string) sale {
	f.t.Helper()
	s := f.session(sessionID)
	v := s.View(publicURL)
	if v.Status != checkout.SessionPaid || v.CouponCounted == nil || len(v.Delivery) != 1 {
		f.t.Fatalf("session %s: status %s, couponCounted %v, delivery %+v", sessionID, v.Status, v.CouponCounted, v.Delivery)
	}
	ev := f.paidView(sessionID)
	if ev.CouponCounted == nil || *ev.CouponCounted != *v.CouponCounted || len(ev.Delivery) != 1 || ev.Delivery[0] != v.Delivery[0] {
		f.t.Fatalf("session %s: its event says couponCounted %v, delivery %+v; the session %v, %+v",
			sessionID, ev.CouponCounted, ev.Delivery, *v.CouponCounted, v.Delivery)
	}
	d := v.Delivery[0]
	if d.Undelivered {
		return sale{counted: *v.CouponCounted}
	}
	if d.Content == "" {
		f.t.Fatalf("session %s: delivery %+v has no line and does not say undelivered", sessionID, d)
	}
	return sale{counted: *v.CouponCounted, line: d.Content}
}

// couponUses is the coupon's counted uses.
func (f *fixture) couponUses(st store) int64 {
	f.t.Helper()
	c, err := db.GetCoupon(f.ctx, f.db, f.merchant.ID, st.coupon)
	if err != nil {
		f.t.Fatal(err)
	}
	return c.Uses
}

// A payment that arrives after its session's hold lapsed is credited (the
// payer paid), but it gets only what no other checkout holds: when a fresh
// checkout took the coupon's last use and the product's last line in the
// meantime, the late payment counts no use and gets no line, and says so
// on its session and its payment_link.paid event (couponCounted false,
// undelivered); the fresh session, paid after it, gets both. Whether the
// late session was expired with its charge or was still OPEN (its
// charge's expiry not run yet), the result is the same.
func TestLatePaymentDoesNotTakeWhatAFreshCheckoutHolds(t *testing.T) {
	t.Parallel()
	for _, expire := range []bool{true, false} {
		t.Run(fmt.Sprintf("expired=%v", expire), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			st := f.newStore([]string{"LIC-1"}, 1)
			late, lateCharge, err := f.holdSession(st)
			if err != nil {
				t.Fatal(err)
			}
			f.lapse(late, lateCharge, expire)
			fresh, freshCharge, err := f.holdSession(st)
			if err != nil {
				t.Fatalf("a checkout after the hold lapsed: %v", err)
			}
			if _, _, err := f.holdSession(st); !errors.Is(err, errNoHold) {
				t.Fatalf("a second checkout while the fresh one holds: %v, want refused", err)
			}

			if err := f.pay(lateCharge); err != nil {
				t.Fatal(err)
			}
			f.wantEqual("late payment credited", f.get(lateCharge.ID, domain.TypePixIn).Status, domain.StatusCompleted)
			f.wantEqual("late sale", f.saleOf(late.ID), sale{counted: false})
			f.wantEqual("uses after the late payment", f.couponUses(st), int64(0))

			if err := f.pay(freshCharge); err != nil {
				t.Fatal(err)
			}
			f.wantEqual("fresh sale", f.saleOf(fresh.ID), sale{counted: true, line: "LIC-1"})
			f.wantEqual("uses", f.couponUses(st), int64(1))
		})
	}
}

// A late payment with nothing held by others gets what is left: the
// coupon's use is counted and the line delivered while there is room.
func TestLatePaymentGetsWhatIsLeft(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	st := f.newStore([]string{"LIC-1"}, 1)
	late, lateCharge, err := f.holdSession(st)
	if err != nil {
		t.Fatal(err)
	}
	f.lapse(late, lateCharge, true)
	if err := f.pay(lateCharge); err != nil {
		t.Fatal(err)
	}
	f.wantEqual("late sale", f.saleOf(late.ID), sale{counted: true, line: "LIC-1"})
	f.wantEqual("uses", f.couponUses(st), int64(1))
	if _, _, err := f.holdSession(st); !errors.Is(err, errNoHold) {
		t.Fatalf("a checkout after the late sale took everything: %v, want refused", err)
	}
}

// uses ≤ maxUses and one line, one buyer, whatever the order: late
// payments of sessions whose holds lapsed are paid concurrently with fresh
// checkouts and the payments of the sessions those made. Every checkout
// that held gets its coupon use and its line; the late payments share
// what was left; the coupon never passes maxUses and no line has two
// buyers; each session's couponCounted and delivery say what it got.
func TestCouponAndLinesAreHardCapsUnderEveryOrdering(t *testing.T) {
	t.Parallel()
	const (
		maxUses = 3
		lines   = 3
		lates   = 4
		fresh   = 4
		rounds  = 3
	)
	for round := range rounds {
		t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			var stock []string
			for i := range lines {
				stock = append(stock, fmt.Sprintf("LIC-%d", i+1))
			}
			st := f.newStore(stock, maxUses)
			// The late sessions held, then lapsed: some expired with
			// their charges, some still OPEN; one lapsed before the others
			// were made, so that more sessions than uses exist.
			type paid struct {
				sess   checkout.CheckoutSession
				charge domain.Transaction
			}
			var late []paid
			for i := range lates {
				s, c, err := f.holdSession(st)
				if err != nil {
					t.Fatalf("late session %d: %v", i, err)
				}
				f.lapse(s, c, i%2 == 0)
				late = append(late, paid{s, c})
			}

			var (
				mu    sync.Mutex
				held  []paid
				wg    sync.WaitGroup
				start = make(chan struct{})
				errs  = make(chan error, lates+fresh)
			)
			for _, p := range late {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					errs <- f.pay(p.charge)
				}()
			}
			for range fresh {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					s, c, err := f.holdSession(st)
					if errors.Is(err, errNoHold) {
						return
					}
					if err == nil {
						mu.Lock()
						held = append(held, paid{s, c})
						mu.Unlock()
						err = f.pay(c) // paid at once, racing the late payments
					}
					errs <- err
				}()
			}
			close(start)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}

			counted, buyers := 0, map[string]string{}
			for _, p := range held {
				got := f.saleOf(p.sess.ID)
				if !got.counted || got.line == "" {
					t.Errorf("fresh session %s held a use and a line but got %+v", p.sess.ID, got)
				}
			}
			for _, p := range append(append([]paid{}, late...), held...) {
				f.wantEqual("charge credited", f.get(p.charge.ID, domain.TypePixIn).Status, domain.StatusCompleted)
				got := f.saleOf(p.sess.ID)
				if got.counted {
					counted++
				}
				if got.line != "" {
					if other, dup := buyers[got.line]; dup {
						t.Errorf("line %s sold to %s and %s", got.line, other, p.sess.ID)
					}
					buyers[got.line] = p.sess.ID
				}
			}
			uses := f.couponUses(st)
			if uses > maxUses || int(uses) != counted {
				t.Errorf("coupon uses %d (max %d), sessions that say counted %d", uses, maxUses, counted)
			}
			var taken int
			if err := f.db.GetContext(f.ctx, &taken, `SELECT count(*) FROM product_lines WHERE product_id = $1 AND sale_id IS NOT NULL`, st.product); err != nil {
				t.Fatal(err)
			}
			if taken > lines || taken != len(buyers) {
				t.Errorf("lines taken %d (stock %d), sessions that got one %d", taken, lines, len(buyers))
			}
			// Nothing held is left over: every use and line went to a buyer.
			if uses != maxUses || taken != lines {
				t.Errorf("uses %d, lines taken %d: want all %d and %d sold", uses, taken, maxUses, lines)
			}
		})
	}
}
