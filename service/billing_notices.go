package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// BillingNotice forwards the registrar's or acquirer's notice to a billing
// still payable; its workflow, deferred until the due date, is started by
// this Signal-With-Start. A payment of a CANCELED billing (taken by the
// registrar or acquirer before the void) is booked here as a late payment,
// in the database, whether or not the billing's workflow still runs; so is
// one whose workflow ended between the read and the signal.
func (s *Inbox) BillingNotice(ctx context.Context, billingID string, n processor.BillingNotice) error {
	b, err := db.BillingByID(ctx, s.DB, billingID)
	if err != nil {
		return err
	}
	if s.latePayment(b, n) {
		return s.bookLate(ctx, b, n)
	}
	if !b.Payable() {
		return domain.Invalidf("billing %s is %s: no longer payable", b.ID, b.Status)
	}
	if b.Method == domain.MethodPix && n.Outcome == processor.OutcomePaid {
		return domain.Invalidf("billing %s is paid through its PIX charge %s", b.ID, deref(b.ChargeID))
	}
	n.BillingID = b.ID // see ChargeNotice
	err = signalWithStart(ctx, s.Temporal, s.TaskQueue, billingLaunch(b), workflows.BillingSignal, n,
		fmt.Sprintf("billing %s is no longer payable", b.ID))
	if errors.Is(err, domain.ErrInvalid) && n.Outcome == processor.OutcomePaid {
		// The workflow ended meanwhile: canceled, its payment is booked here.
		if now, rerr := db.BillingByID(ctx, s.DB, billingID); rerr == nil && s.latePayment(now, n) {
			return s.bookLate(ctx, now, n)
		}
	}
	return err
}

// latePayment reports whether the notice is a payment of a CANCELED boleto
// or card billing.
func (s *Inbox) latePayment(b billing.Billing, n processor.BillingNotice) bool {
	return n.Outcome == processor.OutcomePaid && b.Status == billing.BillingCanceled && b.Method != domain.MethodPix
}

// bookLate books a CANCELED billing's payment (activities.BookBillingPayment).
func (s *Inbox) bookLate(ctx context.Context, b billing.Billing, n processor.BillingNotice) error {
	n.BillingID = b.ID
	_, err := activities.BookBillingPayment(ctx, s.DB, activities.BillingPaidInput{BillingID: b.ID, Notice: n})
	return err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
