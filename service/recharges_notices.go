package service

import (
	"context"
	"fmt"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// The mobile recharge's side of the Inbox (the operator's notices) and of
// the Sandbox (the simulated operator's delivery).

// RechargeNotice forwards an operator's notice to a PENDING recharge's
// workflow (starting it if its create's start has not happened yet).
func (s *Inbox) RechargeNotice(ctx context.Context, rechargeID string, n processor.RechargeNotice) error {
	t, err := db.TransactionByID(ctx, s.DB, rechargeID, domain.TypeMobileRecharge)
	if err != nil {
		return err
	}
	if t.Status != domain.StatusPending {
		return domain.Invalidf("recharge %s is %s, not PENDING", t.ID, t.Status)
	}
	n.RechargeID = t.ID // the workflow ignores a notice naming another recharge
	return signalWithStart(ctx, s.Temporal, s.TaskQueue, rechargeLaunch(t), workflows.NoticeSignal, n,
		fmt.Sprintf("recharge %s is no longer PENDING", t.ID))
}

// CompleteRecharge has the operator deliver the account's recharge (or
// fail it, for the sandbox's inactive numbers).
func (s *Sandbox) CompleteRecharge(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	t, err := db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypeMobileRecharge)
	if err != nil {
		return Simulated{}, err
	}
	outcome, err := s.Simulator.CompleteRecharge(ctx, t.ID, t.Details.V.Recharge.Phone)
	return simulated(t, outcome, err)
}
