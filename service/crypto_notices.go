package service

import (
	"context"
	"fmt"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// Crypto's side of the Inbox (the processor's notices) and of the Sandbox
// (a payer paying a deposit, the network settling or failing a withdrawal).

// CryptoDepositNotice forwards a processor's notice to a PENDING deposit's
// workflow. Coins confirmed after the deposit expired are not refused (the
// payer's coins arrived): a CANCELED deposit's payment is booked here, late
// (activities.BookCryptoDeposit), and a deposit still PENDING past its
// expiry is its workflow's to book, which looks for such a notice as it
// closes. A deposit already credited refuses a second notice.
func (s *Inbox) CryptoDepositNotice(ctx context.Context, depositID string, n processor.CryptoNotice) error {
	t, err := db.TransactionByID(ctx, s.DB, depositID, domain.TypeCryptoIn)
	if err != nil {
		return err
	}
	if n.Outcome != processor.OutcomePaid {
		return domain.Invalidf("crypto deposit %s: a deposit is only paid, not %q", t.ID, n.Outcome)
	}
	n.ID = t.ID // the workflow ignores a notice naming another deposit
	return s.forwardOrBookLate(ctx, t, "crypto deposit", true, func(t domain.Transaction) error {
		return signalWithStart(ctx, s.Temporal, s.TaskQueue, cryptoLaunch(t), workflows.NoticeSignal, n,
			fmt.Sprintf("crypto deposit %s is no longer PENDING", t.ID))
	}, func() (string, error) {
		return activities.BookCryptoDeposit(ctx, s.base(), activities.CryptoNoticeInput{ID: t.ID, Notice: n})
	})
}

// CryptoWithdrawalNotice forwards a processor's notice to a withdrawal's
// workflow.
func (s *Inbox) CryptoWithdrawalNotice(ctx context.Context, withdrawalID string, n processor.CryptoNotice) error {
	t, err := db.TransactionByID(ctx, s.DB, withdrawalID, domain.TypeCryptoOut)
	if err != nil {
		return err
	}
	if t.Status == domain.StatusCompleted || t.Status == domain.StatusFailed {
		return domain.Invalidf("crypto withdrawal %s is %s already", t.ID, t.Status)
	}
	if r := t.Details.V.SecurityReview; r != nil && r.Pending {
		// Nothing was sent: a notice now would wait in the workflow and
		// settle the withdrawal the moment an operator approved it.
		return domain.Invalidf("crypto withdrawal %s is held for security review: nothing was sent yet", t.ID)
	}
	n.ID = t.ID
	return signalWithStart(ctx, s.Temporal, s.TaskQueue, cryptoLaunch(t), workflows.NoticeSignal, n,
		fmt.Sprintf("crypto withdrawal %s is no longer in progress", t.ID))
}

// PayCrypto notifies that the account's crypto deposit was paid.
func (s *Sandbox) PayCrypto(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	t, err := db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypeCryptoIn)
	if err != nil {
		return Simulated{}, err
	}
	return simulated(t, processor.OutcomePaid, s.Simulator.PayCrypto(ctx, t.ID))
}

// SettleCrypto notifies that the account's crypto withdrawal settled.
func (s *Sandbox) SettleCrypto(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	t, err := db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypeCryptoOut)
	if err != nil {
		return Simulated{}, err
	}
	return simulated(t, processor.OutcomeSettled, s.Simulator.SettleCrypto(ctx, t.ID))
}

// FailCrypto notifies that the account's crypto withdrawal failed.
func (s *Sandbox) FailCrypto(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	t, err := db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypeCryptoOut)
	if err != nil {
		return Simulated{}, err
	}
	return simulated(t, processor.OutcomeFailed, s.Simulator.FailCrypto(ctx, t.ID))
}
