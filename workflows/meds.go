package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	meddom "github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/processor"
)

// MEDEvidenceSignal tells a dispute's workflow that the merchant's evidence
// was recorded (service.MEDs.Evidence): it forwards the defence.
const MEDEvidenceSignal = "med-evidence"

// MEDEvidence is the evidence signal's payload: the dispute it is for.
type MEDEvidence struct {
	MEDID string `json:"medId"`
}

// MEDInput is the dispute workflow's input: the dispute as opened (the
// workflow's guard opens it if no Inbox committed it).
type MEDInput struct {
	MED domain.Transaction
}

// MEDWorkflowID derives the workflow id from the dispute.
func MEDWorkflowID(id string) string { return "med/" + id }

// MEDStart is how the Inbox (and the sweeper) start a dispute's workflow.
func MEDStart(m domain.Transaction) Start {
	return Start{
		ID: MEDWorkflowID(m.ID), AccountID: m.AccountID, ResourceID: m.ID, ResourceType: domain.TypeMED,
		Status: meddom.MedOpen, Amount: m.Amount,
		Summary: "MED dispute " + m.Amount.Format() + " of deposit " + m.Details.V.Med.DepositID,
		Details: "Account `" + m.AccountID + "`. Signal `" + NoticeSignal + "` with {\"medId\":\"" + m.ID +
			"\",\"status\":\"ACCEPTED\"|\"REJECTED\"|\"CANCELED\"|\"EXPIRED\"} acts as the processor's decision " +
			"(a notice naming another dispute is ignored).",
		Memo: map[string]any{"medId": m.ID, "depositId": m.Details.V.Med.DepositID},
	}
}

var _ = host(MEDWorkflow)

// MEDWorkflow drives one dispute under the BCB MED deadlines
// (domain/meds.go), each a durable timer: OPEN (the disputed value is
// blocked) → UNDER_REVIEW when a defence is sent (the merchant's evidence,
// or at once the automatic contest) or at the defence deadline → the
// processor's decision, or EXPIRED at the return limit: ACCEPTED returns
// the block to the payer, the others release it.
func MEDWorkflow(ctx workflow.Context, in MEDInput) (string, error) {
	var a *activities.MEDs
	id, med := in.MED.ID, in.MED.Details.V.Med
	var status string
	if err := ensureActivity(ctx, a.EnsureMED, in.MED, &status); err != nil || meddom.MedClosed(status) {
		return status, err
	}
	actx := moneyActivities(ctx)
	defend := func() error {
		if err := workflow.ExecuteActivity(actx, a.SendMEDDefence, id).Get(ctx, nil); err != nil {
			return err
		}
		return setStatus(ctx, meddom.MedUnderReview)
	}
	if status == meddom.MedOpen && med.AutoContest {
		if err := workflow.ExecuteActivity(actx, a.AutoContestMED, id).Get(ctx, nil); err != nil {
			return "", err
		}
		if err := defend(); err != nil {
			return "", err
		}
	}
	notices := workflow.GetSignalChannel(ctx, NoticeSignal)
	evidence := workflow.GetSignalChannel(ctx, MEDEvidenceSignal)
	defence := timerAt(ctx, med.DefenceDeadline.Time)
	limit := timerAt(ctx, med.ExpiresAt.Time)
	var outcome processor.MEDNotice
	for outcome.Status == "" {
		var sendDefence, closeDefence bool
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(notices, func(c workflow.ReceiveChannel, _ bool) {
			// ReceiveAsync: an undecodable value is dropped (see awaitSignal).
			var n processor.MEDNotice
			if c.ReceiveAsync(&n) && n.MEDID == id && isMedOutcome(n.Status) {
				outcome = n
			} else {
				workflow.GetLogger(ctx).Warn("ignoring a MED notice", "med", id, "addressedTo", n.MEDID, "status", n.Status)
			}
		})
		sel.AddReceive(evidence, func(c workflow.ReceiveChannel, _ bool) {
			var e MEDEvidence
			sendDefence = c.ReceiveAsync(&e) && e.MEDID == id
		})
		if defence != nil {
			sel.AddFuture(defence, func(workflow.Future) { defence, closeDefence = nil, true })
		}
		sel.AddFuture(limit, func(workflow.Future) {
			outcome = processor.MEDNotice{MEDID: id, Status: meddom.MedExpired, At: workflow.Now(ctx)}
		})
		sel.Select(ctx)
		if closeDefence {
			if err := workflow.ExecuteActivity(actx, a.CloseMEDDefence, id).Get(ctx, nil); err != nil {
				return "", err
			}
			// A defence recorded whose signal was lost is forwarded now.
			sendDefence = true
		}
		if sendDefence && outcome.Status == "" {
			if err := defend(); err != nil {
				return "", err
			}
		}
	}
	err := workflow.ExecuteActivity(actx, a.ResolveMED, activities.ResolveMEDInput{ID: id, Status: outcome.Status, At: outcome.At}).Get(ctx, nil)
	if err != nil {
		return "", err
	}
	return outcome.Status, setStatus(ctx, outcome.Status)
}

// isMedOutcome reports whether status is a final decision.
func isMedOutcome(status string) bool { return meddom.MedClosed(status) }

// timerAt is a durable timer that fires at t (at once if t has passed).
func timerAt(ctx workflow.Context, t time.Time) workflow.Future {
	d := t.Sub(workflow.Now(ctx))
	if d <= 0 {
		f, s := workflow.NewFuture(ctx)
		s.Set(nil, nil)
		return f
	}
	return workflow.NewTimer(ctx, d)
}
