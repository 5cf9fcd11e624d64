package workflows

import (
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// heldWithdrawal is a crypto withdrawal over the account's security review
// threshold, as service.Crypto.CreateWithdrawal stores it.
func heldWithdrawal() CryptoInput {
	return CryptoInput{Record: domain.Transaction{ID: "w1", Type: domain.TypeCryptoOut, Status: domain.StatusPending,
		Details: domain.SomeJSON(domain.Details{SecurityReview: &domain.SecurityReview{Pending: true}})}}
}

// A held crypto withdrawal is sent only after the operator approves it, by
// the same decision a held PIX out takes; decisions naming another
// withdrawal, or no decision at all, send nothing.
func TestHeldCryptoWithdrawalIsSentOnlyAfterApproval(t *testing.T) {
	t.Parallel()
	env, f := cryptoEnv(t)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ReviewSignal, ReviewDecision{TransferID: "other", Decision: DecisionApprove})
		env.SignalWorkflow(ReviewSignal, DecisionApprove) // the bare legacy form names nothing
		env.SignalWorkflow(ReviewSignal, ReviewDecision{TransferID: "w1", Decision: "perhaps"})
	}, time.Hour)
	env.RegisterDelayedCallback(func() {
		if f.calls["submit"] != 0 {
			t.Errorf("submitted before any decision: %v", f.calls)
		}
		env.SignalWorkflow(ReviewSignal, ReviewDecision{TransferID: "w1", Decision: DecisionApprove})
	}, 2*time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "w1", Outcome: processor.OutcomeSettled})
	}, 3*time.Hour)
	env.ExecuteWorkflow(CryptoWithdrawalWorkflow, heldWithdrawal())
	var status string
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusCompleted {
		t.Fatalf("result %s, %v", status, err)
	}
	if f.calls["decide approve"] != 1 || f.calls["submit"] != 1 || f.calls["complete"] != 1 || f.calls["fail"] != 0 {
		t.Fatalf("calls %v", f.calls)
	}
	// The hold outlived the quote: it was priced again, once, before the send.
	if f.calls["reprice"] != 1 || f.calls["reprice after submit"] != 0 {
		t.Fatalf("re-pricing calls %v", f.calls)
	}
}

// A withdrawal never held goes through the re-pricing step too (it may
// start after its quote expired, the sweeper starting it after an outage:
// the step prices it again then, and changes nothing while the quote
// holds), before it is sent; one whose re-pricing failed it (its amount
// buys no unit any more) is never sent, held or not.
func TestCryptoWithdrawalRepricedBeforeItIsSent(t *testing.T) {
	t.Parallel()
	env, f := cryptoEnv(t)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "w1", Outcome: processor.OutcomeSettled})
	}, time.Minute)
	in := heldWithdrawal()
	in.Record.Details.V.SecurityReview = nil
	env.ExecuteWorkflow(CryptoWithdrawalWorkflow, in)
	var status string
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusCompleted || f.calls["reprice"] != 1 ||
		f.calls["reprice after submit"] != 0 || f.calls["submit"] != 1 {
		t.Fatalf("not held: result %s, %v, calls %v", status, err, f.calls)
	}

	env, f = cryptoEnv(t)
	env.OnActivity(cryptoActs.RepriceCryptoWithdrawal, mock.Anything, "w1").Return(domain.StatusFailed, nil)
	env.ExecuteWorkflow(CryptoWithdrawalWorkflow, in)
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusFailed || f.calls["submit"] != 0 {
		t.Fatalf("not held, re-pricing failed it: result %s, %v, calls %v", status, err, f.calls)
	}

	env, f = cryptoEnv(t)
	env.OnActivity(cryptoActs.RepriceCryptoWithdrawal, mock.Anything, "w1").Return(domain.StatusFailed, nil)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ReviewSignal, ReviewDecision{TransferID: "w1", Decision: DecisionApprove})
	}, time.Hour)
	env.ExecuteWorkflow(CryptoWithdrawalWorkflow, heldWithdrawal())
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusFailed || f.calls["submit"] != 0 {
		t.Fatalf("re-pricing failed it: result %s, %v, calls %v", status, err, f.calls)
	}
}

// Rejected, or left undecided for ReviewTimeout, the withdrawal fails
// (its reserve returned by FailCryptoWithdrawal) and nothing is sent.
func TestHeldCryptoWithdrawalRejectedOrTimedOutIsNeverSent(t *testing.T) {
	t.Parallel()
	for name, signal := range map[string]bool{"rejected": true, "timed out": false} {
		env, f := cryptoEnv(t)
		if signal {
			env.RegisterDelayedCallback(func() {
				env.SignalWorkflow(ReviewSignal, ReviewDecision{TransferID: "w1", Decision: DecisionReject})
			}, time.Hour)
		}
		start := env.Now()
		env.ExecuteWorkflow(CryptoWithdrawalWorkflow, heldWithdrawal())
		var status string
		if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusFailed {
			t.Fatalf("%s: result %s, %v", name, status, err)
		}
		if f.calls["decide reject"] != 1 || f.calls["fail"] != 1 || f.calls["submit"] != 0 {
			t.Fatalf("%s: calls %v", name, f.calls)
		}
		if waited := env.Now().Sub(start); !signal && waited < ReviewTimeout {
			t.Fatalf("timed out after %v, before ReviewTimeout", waited)
		}
	}
}
