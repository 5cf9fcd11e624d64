package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// CryptoInput is the input of both crypto workflows: the record, so that
// the guard step can write it if it was not committed.
type CryptoInput struct {
	Record domain.Transaction
}

// CryptoWorkflowID derives the workflow id of a deposit or a withdrawal.
func CryptoWorkflowID(id string) string { return "crypto/" + id }

// CryptoStart is how the API starts a deposit's or a withdrawal's workflow.
func CryptoStart(t domain.Transaction) Start {
	c := t.Details.V.Crypto
	what := "Crypto deposit "
	if t.Type == domain.TypeCryptoOut {
		what = "Crypto withdrawal "
	}
	return Start{
		ID: CryptoWorkflowID(t.ID), AccountID: t.AccountID, ResourceID: t.ID, ResourceType: t.Type, Status: t.Status, Amount: t.Amount,
		Summary: what + t.Amount.Format() + " in " + c.PayCurrency,
		Details: "Account `" + t.AccountID + "`, " + t.Type + " `" + t.ID + "`. Signal `" + NoticeSignal + "` with {\"id\":\"" + t.ID +
			"\",\"outcome\":\"paid\"|\"settled\"|\"failed\"} acts as the processor (a notice naming another record is ignored).",
		Memo: map[string]any{"cryptoId": t.ID, "amount": t.Amount.String(), "payCurrency": c.PayCurrency},
	}
}

// cryptoNotice waits for a notice naming id that accept takes, until
// timeout (0: no timeout).
func cryptoNotice(ctx workflow.Context, id string, timeout time.Duration, accept func(processor.CryptoNotice) bool) (processor.CryptoNotice, bool) {
	return awaitSignal(ctx, NoticeSignal, timeout,
		addressedTo(ctx, true, NoticeSignal, id, func(n processor.CryptoNotice) string { return n.ID }, accept))
}

// expiryGrace is how long after its expiry a deposit still waits: a
// payment the Inbox accepted just before expiresAt (it refuses any after)
// is in flight to the workflow, and must win over the timer.
const expiryGrace = 5 * time.Second

var _ = host(CryptoDepositWorkflow, CryptoWithdrawalWorkflow)

// CryptoDepositWorkflow waits for a deposit's payment until its quote
// expires (a durable timer): paid in time, it is credited at its quote
// (COMPLETED); otherwise it closes unpaid (CANCELED), unless a payment
// arrived while it closed, which is then credited late (COMPLETED).
func CryptoDepositWorkflow(ctx workflow.Context, in CryptoInput) (string, error) {
	var a *activities.Crypto
	id := in.Record.ID
	var status string
	if err := ensureActivity(ctx, a.EnsureCryptoDeposit, in.Record, &status); err != nil || status != domain.StatusPending {
		return status, err
	}
	wait := time.Millisecond // an expiry already past still ends through the timer
	if in.Record.ExpiresAt != nil {
		wait = max(in.Record.ExpiresAt.Sub(workflow.Now(ctx))+expiryGrace, wait)
	}
	isPaid := func(n processor.CryptoNotice) bool { return n.Outcome == processor.OutcomePaid }
	n, paid := cryptoNotice(ctx, id, wait, isPaid)
	actx := moneyActivities(ctx)
	credit := func(n processor.CryptoNotice) error {
		return workflow.ExecuteActivity(actx, a.CreditCryptoDeposit, activities.CryptoNoticeInput{ID: id, Notice: n}).Get(ctx, &status)
	}
	var err error
	if paid {
		err = credit(n)
	} else {
		err = workflow.ExecuteActivity(actx, a.ExpireCryptoDeposit, id).Get(ctx, &status)
	}
	if err != nil {
		return "", err
	}
	wakeOwner(ctx, in.Record, status) // a checkout session's deposit, say
	if err := setStatus(ctx, status); err != nil || status != domain.StatusCanceled {
		return status, err
	}
	// Coins confirmed as the deposit expired: the Inbox forwarded their
	// notice here (the deposit was still PENDING when it looked), and
	// dropping it would credit them to nobody. They are booked late, as
	// the Inbox books a notice for a deposit already CANCELED. Nothing
	// blocks between this look and the end: a notice arriving meanwhile
	// fails the completion, and the replayed task finds it here.
	if workflow.GetVersion(ctx, cryptoLateChange, workflow.DefaultVersion, 1) == 1 {
		if n, paid := receiveNow(ctx, NoticeSignal,
			addressedTo(ctx, true, NoticeSignal, id, func(n processor.CryptoNotice) string { return n.ID }, isPaid)); paid {
			if err := credit(n); err != nil {
				return "", err
			}
			wakeOwner(ctx, in.Record, status)
			return status, setStatus(ctx, status)
		}
	}
	return status, nil
}

// cryptoLateChange versions the late-payment step after a deposit expired.
const cryptoLateChange = "crypto-deposit-paid-late"

// cryptoQuoteExpiredChange versions the re-pricing step of a withdrawal
// never held (histories from before it send at the stored quote).
const cryptoQuoteExpiredChange = "crypto-reprice-expired-quote"

// cryptoRepriceChange versions the re-pricing step after an approved hold.
const cryptoRepriceChange = "crypto-reprice-after-review"

// CryptoWithdrawalWorkflow drives one withdrawal: reserved → (held for
// security review, as a PIX out: approved and re-priced if its quote
// expired meanwhile, or rejected → FAILED with the reserve returned →) submitted to the processor (PROCESSING) → COMPLETED
// or FAILED (reserve returned), as the processor's notice says.
func CryptoWithdrawalWorkflow(ctx workflow.Context, in CryptoInput) (string, error) {
	var a *activities.Crypto
	id := in.Record.ID
	var status string
	if err := ensureActivity(ctx, a.EnsureCryptoWithdrawal, in.Record, &status); err != nil || status == domain.StatusFailed || status == domain.StatusCompleted {
		return status, err
	}
	actx := moneyActivities(ctx)
	// reprice prices the withdrawal again if its quote expired (the step
	// changes nothing while it holds); failed: its amount buys nothing now.
	reprice := func() (failed bool, err error) {
		if err := workflow.ExecuteActivity(actx, a.RepriceCryptoWithdrawal, id).Get(ctx, &status); err != nil {
			return false, err
		}
		if status != domain.StatusFailed {
			return false, nil
		}
		return true, setStatus(ctx, status)
	}
	if r := in.Record.Details.V.SecurityReview; r != nil && r.Pending {
		// Withdrawals were held only once every execution named its
		// resource (addressedChange): no older history reaches this wait.
		approved, err := awaitReview(ctx, true, id)
		if err != nil {
			return "", err
		}
		if !approved {
			err := workflow.ExecuteActivity(actx, a.FailCryptoWithdrawal, activities.CryptoNoticeInput{ID: id,
				Notice: processor.CryptoNotice{ID: id, Outcome: processor.OutcomeFailed, Reason: "rejected by security review"}}).Get(ctx, nil)
			if err != nil {
				return "", err
			}
			return domain.StatusFailed, setStatus(ctx, domain.StatusFailed)
		}
		// A hold outlives the 2-minute quote: price again before sending
		// (histories from before this step skip it).
		if workflow.GetVersion(ctx, cryptoRepriceChange, workflow.DefaultVersion, 1) == 1 {
			if failed, err := reprice(); err != nil || failed {
				return status, err
			}
		}
	} else if workflow.GetVersion(ctx, cryptoQuoteExpiredChange, workflow.DefaultVersion, 1) == 1 {
		// A withdrawal never held may still start after its quote expired
		// (the sweeper starting it after an outage): the same step prices
		// it again then, and does nothing while the quote holds.
		if failed, err := reprice(); err != nil || failed {
			return status, err
		}
	}
	if err := workflow.ExecuteActivity(actx, a.SubmitCryptoWithdrawal, id).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := setStatus(ctx, domain.StatusProcessing); err != nil {
		return "", err
	}
	n, _ := cryptoNotice(ctx, id, 0, func(n processor.CryptoNotice) bool {
		return n.Outcome == processor.OutcomeSettled || n.Outcome == processor.OutcomeFailed
	})
	in2 := activities.CryptoNoticeInput{ID: id, Notice: n}
	status = domain.StatusCompleted
	step := a.CompleteCryptoWithdrawal
	if n.Outcome != processor.OutcomeSettled {
		status, step = domain.StatusFailed, a.FailCryptoWithdrawal
	}
	if err := workflow.ExecuteActivity(actx, step, in2).Get(ctx, nil); err != nil {
		return "", err
	}
	return status, setStatus(ctx, status)
}
