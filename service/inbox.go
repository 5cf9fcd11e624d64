package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// Inbox is where processor notices arrive (processor.Inbox): each one is
// checked against the resource's state and signalled to its workflow. A
// resource that has already concluded refuses a notice with a 400.
type Inbox struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	// PublicURL is what the events a notice writes carry (a MED opening
	// writes med.created).
	PublicURL string
}

var _ processor.Inbox = (*Inbox)(nil)

// ChargeNotice forwards a notice to a PENDING charge's workflow. A paid
// notice for a charge that expired first (the payer paid at the last
// second) is not refused: the processor holds the payer's money. The
// workflow books one that reaches it as it closes; one for a charge already
// CANCELED is booked here, late (activities.Charges.SettleCharge), and its
// owner woken.
func (s *Inbox) ChargeNotice(ctx context.Context, chargeID string, n processor.ChargeNotice) error {
	t, err := db.TransactionByID(ctx, s.DB, chargeID, domain.TypePixIn)
	if err != nil {
		return err
	}
	// The notice names its charge: the workflow ignores one naming another,
	// so a sealed notice copied out of one history pays no other charge.
	n.ChargeID = t.ID
	if err := s.keepParty(ctx, t.ID, &n.Payer); err != nil {
		return err
	}
	return s.forwardOrBookLate(ctx, t, "charge", n.Outcome == processor.OutcomePaid, func(t domain.Transaction) error {
		// Signal-With-Start: a charge's workflow is started deferred until its
		// expiry, and only this ends the delay (see workflows.ChargeStart).
		return signalWithStart(ctx, s.Temporal, s.TaskQueue, chargeLaunch(t), workflows.ChargeSignal, n,
			fmt.Sprintf("charge %s is no longer PENDING", t.ID))
	}, func() (string, error) {
		return (&activities.Charges{Base: s.base()}).SettleCharge(ctx, activities.SettleChargeInput{ChargeID: t.ID, Notice: n})
	})
}

// forwardOrBookLate is the one path of a notice for a record that expires
// (a charge, a crypto deposit): a PENDING record's notice goes to its
// workflow (forward); a paid one for a record that expired first (CANCELED
// when read, or meanwhile: its workflow closed, its id not reusable) is
// booked here, late (book, under the record's row lock and its one posting
// key), and the record's owner woken. Anything else is a 400.
func (s *Inbox) forwardOrBookLate(ctx context.Context, t domain.Transaction, what string, paid bool,
	forward func(domain.Transaction) error, book func() (string, error)) error {
	if t.Status == domain.StatusPending {
		err := forward(t)
		if err == nil || !errors.Is(err, domain.ErrInvalid) || !paid {
			return err
		}
		if t, err = db.TransactionByID(ctx, s.DB, t.ID, t.Type); err != nil {
			return err
		}
	}
	if t.Status != domain.StatusCanceled || !paid {
		return domain.Invalidf("%s %s is %s, not PENDING", what, t.ID, t.Status)
	}
	status, err := book()
	if err == nil {
		t.Status = status
		s.wakeOwner(ctx, t)
	}
	return err
}

// keepParty keeps the party a notice names (a charge's payer, a PIX out's
// recipient) in PostgreSQL and takes it off the notice: the notice reaches
// the workflow without it, and the step that settles reads it there
// (activities.noticeParty).
func (s *Inbox) keepParty(ctx context.Context, id string, p **domain.Party) error {
	if *p == nil {
		return nil
	}
	if err := db.SaveNoticeParty(ctx, s.DB, id, **p); err != nil {
		return err
	}
	*p = nil
	return nil
}

// base is what the Inbox's own bookings need of the activities.
func (s *Inbox) base() activities.Base { return activities.Base{DB: s.DB, PublicURL: s.PublicURL} }

// wakeOwner sends the wake a charge's workflow would have sent its owner
// (activities.ChargeOwnerWake) for a move the Inbox booked itself; the
// owner's row already moved in that transaction, so a failure is logged.
func (s *Inbox) wakeOwner(ctx context.Context, t domain.Transaction) {
	id, name, moved, ok := activities.ChargeOwnerWake(t, t.Status)
	if !ok {
		return
	}
	if err := signal(ctx, s.Temporal, id, name, moved, "the owner's workflow "+id+" has ended"); err != nil {
		slog.Info("charge owner's workflow not signalled", "workflowId", id, "error", err)
	}
}

// TransferNotice forwards a notice to a PIX out's workflow.
func (s *Inbox) TransferNotice(ctx context.Context, transferID string, n processor.TransferNotice) error {
	t, err := db.TransactionByID(ctx, s.DB, transferID, domain.TypePixOut)
	if err != nil {
		return err
	}
	if r := t.Details.V.SecurityReview; r != nil && r.Pending {
		// Nothing was sent (see CryptoWithdrawalNotice): a notice buffered
		// now would settle or fail the transfer once an operator approved it.
		return domain.Invalidf("transfer %s is held for security review: nothing was sent yet", t.ID)
	}
	n.TransferID = t.ID // see ChargeNotice
	if err := s.keepParty(ctx, t.ID, &n.Recipient); err != nil {
		return err
	}
	return signalTransfer(ctx, s.Temporal, t, workflows.NoticeSignal, n)
}

// RefundNotice forwards a notice to the deposit's refund workflow.
func (s *Inbox) RefundNotice(ctx context.Context, depositID string, n processor.RefundNotice) error {
	d, err := db.TransactionByID(ctx, s.DB, depositID, domain.TypePixIn)
	if err != nil {
		return err
	}
	r := d.Details.V.Refund
	if r == nil || r.Status == domain.StatusCompleted || r.Status == domain.StatusFailed {
		return domain.Invalidf("deposit %s has no refund in progress", d.ID)
	}
	n.DepositID = d.ID // see ChargeNotice
	return signal(ctx, s.Temporal, workflows.RefundWorkflowID(d.ID), workflows.NoticeSignal, n,
		fmt.Sprintf("the refund of %s is no longer in progress", d.ID))
}

// signalTransfer sends a review decision or a processor notice to a PIX
// out that has not concluded.
func signalTransfer(ctx context.Context, c Temporal, t domain.Transaction, name string, arg any) error {
	if t.Status == domain.StatusCompleted || t.Status == domain.StatusFailed {
		return domain.Invalidf("transfer %s is %s already", t.ID, t.Status)
	}
	return signal(ctx, c, workflows.TransferWorkflowID(t.ID), name, arg, fmt.Sprintf("transfer %s is no longer in progress", t.ID))
}
