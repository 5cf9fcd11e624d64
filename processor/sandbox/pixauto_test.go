package sandbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/sandbox"
)

// A debit sent on a due date is armed once per attempt, even with
// auto-settlement off, and settles through the simulated network: paid
// with an endToEndId, or failed for want of funds: on every attempt for an
// amount ending in ,66, on the first only for one ending in ,67.
func TestDebitInstructionSettles(t *testing.T) {
	t.Parallel()
	id := domain.NewID("")
	noFunds := "insufficient funds in the payer's account"
	for _, c := range []struct {
		amount  money.Cents
		attempt int
		reason  string
		wid     string
	}{
		{4966, 1, noFunds, ""}, {4966, 4, noFunds, "/4"}, {4967, 1, noFunds, ""}, {4967, 2, "", "/2"}, {4900, 1, "", ""},
	} {
		tc := &fakeTemporal{}
		sub, err := (&sandbox.Sandbox{Temporal: tc, TaskQueue: "q"}).DebitInstruction(t.Context(),
			processor.DebitRequest{ID: id, Amount: c.amount, Attempt: c.attempt})
		if err != nil || sub.ReferenceID == "" {
			t.Fatalf("DebitInstruction = %+v, %v", sub, err)
		}
		want := sandbox.Delivery{Kind: sandbox.KindDebit, ID: id, Attempt: c.attempt, Reason: c.reason}
		if len(tc.options) != 1 || tc.options[0].ID != "sandbox/"+sandbox.KindDebit+"/"+id+c.wid || tc.args[0] != want {
			t.Fatalf("%d attempt %d: armed %+v with %+v, want %+v", c.amount, c.attempt, tc.options, tc.args, want)
		}
	}
	for _, c := range []struct {
		reason, outcome string
	}{{"", processor.OutcomePaid}, {"no funds", processor.OutcomeFailed}} {
		env, inbox := networkEnv(t)
		inbox.EXPECT().InstructionNotice(gomock.Any(), id, gomock.Any()).DoAndReturn(
			func(_ context.Context, _ string, n processor.InstructionNotice) error {
				if n.Outcome != c.outcome || (c.outcome == processor.OutcomePaid) != (len(n.EndToEndID) == 32) || n.Reason != c.reason || n.Attempt != 2 {
					t.Errorf("notice %+v, want %s", n, c.outcome)
				}
				return nil
			}).Times(1)
		env.ExecuteWorkflow(sandbox.NetworkWorkflow, sandbox.Delivery{Kind: sandbox.KindDebit, ID: id, Attempt: 2, Reason: c.reason, After: time.Minute})
		if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
			t.Fatalf("workflow: %v", env.GetWorkflowError())
		}
	}
}

// The consent QR: the recurrence in field 80 with the sandbox's idRec, and
// the first payment as an immediate charge of the same code when asked.
func TestNewAuthorizationQR(t *testing.T) {
	t.Parallel()
	id := domain.NewID("")
	sb := &sandbox.Sandbox{}
	for _, first := range []money.Cents{0, 1990} {
		qr, err := sb.NewAuthorization(t.Context(), processor.AuthorizationRequest{ID: id, FirstPayment: first, MerchantName: "Loja", MerchantKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		p, err := brcode.Parse(qr.CopyPaste)
		if err != nil {
			t.Fatal(err)
		}
		if len(qr.ReferenceID) != 29 || !strings.HasPrefix(qr.ReferenceID, "RR"+sandbox.ISPB) || p.RecurrenceURL != sandbox.RecurrenceHost+qr.ReferenceID {
			t.Errorf("idRec %q, recurrence URL %q", qr.ReferenceID, p.RecurrenceURL)
		}
		if p.Amount != first || (first > 0) != (p.Key == "k" && p.TxID == processor.TxID(id)) {
			t.Errorf("first payment %d: parsed %+v", first, p)
		}
	}
}

// Approving notifies the default payer, with the first payment's
// endToEndId only when the QR carried one; rejecting notifies a refusal.
func TestAuthorizationSimulations(t *testing.T) {
	t.Parallel()
	_, inbox := networkEnv(t)
	sb := &sandbox.Sandbox{Inbox: inbox}
	var got []processor.AuthorizationNotice
	inbox.EXPECT().AuthorizationNotice(gomock.Any(), "pa", gomock.Any()).DoAndReturn(
		func(_ context.Context, _ string, n processor.AuthorizationNotice) error {
			got = append(got, n)
			return nil
		}).Times(3)
	if sb.ApproveAuthorization(t.Context(), "pa", true) != nil || sb.ApproveAuthorization(t.Context(), "pa", false) != nil ||
		sb.RejectAuthorization(t.Context(), "pa") != nil {
		t.Fatal("simulation failed")
	}
	if got[0].Outcome != processor.OutcomeApproved || got[0].Payer == nil || len(got[0].EndToEndID) != 32 ||
		got[1].EndToEndID != "" || got[2].Outcome != processor.OutcomeRejected {
		t.Fatalf("notices %+v", got)
	}
}
