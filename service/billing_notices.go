package service

import (
	"context"
	"fmt"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// BillingNotice forwards the registrar's or acquirer's notice to a billing
// still payable; its workflow, deferred until the due date, is started by
// this Signal-With-Start.
func (s *Inbox) BillingNotice(ctx context.Context, billingID string, n processor.BillingNotice) error {
	b, err := db.BillingByID(ctx, s.DB, billingID)
	if err != nil {
		return err
	}
	if !b.Payable() {
		return domain.Invalidf("billing %s is %s: no longer payable", b.ID, b.Status)
	}
	if b.Method == domain.MethodPix && n.Outcome == processor.OutcomePaid {
		return domain.Invalidf("billing %s is paid through its PIX charge %s", b.ID, deref(b.ChargeID))
	}
	n.BillingID = b.ID // see ChargeNotice
	return signalWithStart(ctx, s.Temporal, s.TaskQueue, billingLaunch(b), workflows.BillingSignal, n,
		fmt.Sprintf("billing %s is no longer payable", b.ID))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
