package workflows

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/domain"
	fiscaldom "github.com/jangada/jangada/domain/fiscal"
	"github.com/jangada/jangada/processor"
)

// invoiceEnv runs a fiscal invoice over fake activities: the submission
// answers submitted, and the conclusion records the notice it applied.
func invoiceEnv(t *testing.T, submitted string) (*testsuite.TestWorkflowEnvironment, *[]processor.InvoiceNotice) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var concluded []processor.InvoiceNotice
	env.RegisterActivityWithOptions(func(_ context.Context, id string) (fiscaldom.FiscalInvoice, error) {
		return fiscaldom.FiscalInvoice{ID: id, Status: submitted}, nil
	}, activity.RegisterOptions{Name: actName(fa.SubmitInvoice)})
	env.RegisterActivityWithOptions(func(_ context.Context, n processor.InvoiceNotice) (fiscaldom.FiscalInvoice, error) {
		concluded = append(concluded, n)
		status := fiscaldom.InvoiceIssued
		if n.Outcome == processor.OutcomeFailed {
			status = fiscaldom.InvoiceFailed
		}
		return fiscaldom.FiscalInvoice{ID: n.InvoiceID, Status: status}, nil
	}, activity.RegisterOptions{Name: actName(fa.ConcludeInvoice)})
	return env, &concluded
}

var invoiceInput = FiscalInvoiceInput{Invoice: fiscaldom.FiscalInvoice{ID: "inv_1", Status: fiscaldom.InvoiceCreated}}

// The issuer's answer concludes the invoice; a notice naming another
// invoice, or one that concludes nothing, is ignored.
func TestFiscalInvoiceWaitsForTheIssuer(t *testing.T) {
	for outcome, want := range map[string]string{processor.OutcomeIssued: fiscaldom.InvoiceIssued, processor.OutcomeFailed: fiscaldom.InvoiceFailed} {
		t.Run(outcome, func(t *testing.T) {
			env, concluded := invoiceEnv(t, fiscaldom.InvoiceProcessing)
			env.RegisterDelayedCallback(func() {
				env.SignalWorkflow(NoticeSignal, processor.InvoiceNotice{InvoiceID: "inv_other", Outcome: processor.OutcomeIssued})
				env.SignalWorkflow(NoticeSignal, processor.InvoiceNotice{InvoiceID: "inv_1", Outcome: "queued"})
			}, time.Minute)
			env.RegisterDelayedCallback(func() {
				env.SignalWorkflow(NoticeSignal, processor.InvoiceNotice{InvoiceID: "inv_1", Outcome: outcome, Number: "N1"})
			}, time.Hour)
			env.ExecuteWorkflow(FiscalInvoiceWorkflow, invoiceInput)
			if got := result(t, env); got != want {
				t.Fatalf("status %s, want %s", got, want)
			}
			if len(*concluded) != 1 || (*concluded)[0].InvoiceID != "inv_1" || (*concluded)[0].Outcome != outcome {
				t.Fatalf("concluded with %+v", *concluded)
			}
		})
	}
}

// An issuer that never answers fails the invoice at InvoiceAnswerTimeout
// (a durable timer, skipped here).
func TestFiscalInvoiceUnansweredFails(t *testing.T) {
	env, concluded := invoiceEnv(t, fiscaldom.InvoiceProcessing)
	start := env.Now()
	env.ExecuteWorkflow(FiscalInvoiceWorkflow, invoiceInput)
	if got := result(t, env); got != fiscaldom.InvoiceFailed {
		t.Fatalf("status %s", got)
	}
	if len(*concluded) != 1 || (*concluded)[0].Outcome != processor.OutcomeFailed || !strings.Contains((*concluded)[0].Reason, "did not answer") {
		t.Fatalf("concluded with %+v", *concluded)
	}
	if waited := env.Now().Sub(start); waited < InvoiceAnswerTimeout {
		t.Fatalf("failed after %v, before the timeout", waited)
	}
}

// An invoice cancelled before its submission (its charge refunded) ends
// at once: nothing to wait for.
func TestFiscalInvoiceCancelledFirstEnds(t *testing.T) {
	env, concluded := invoiceEnv(t, fiscaldom.InvoiceCancelled)
	env.ExecuteWorkflow(FiscalInvoiceWorkflow, invoiceInput)
	if got := result(t, env); got != fiscaldom.InvoiceCancelled || len(*concluded) != 0 {
		t.Fatalf("status %s, concluded %+v", got, *concluded)
	}
}

// A paid charge that asked for a fiscal invoice starts the invoice's
// workflow (invoice/<derived id>) after its transition; one that did not,
// or was not paid, starts none.
func TestPaidChargeStartsItsFiscalInvoice(t *testing.T) {
	cases := []struct {
		name    string
		fiscal  bool
		outcome string
		starts  int
	}{
		{"paid with invoice", true, processor.OutcomePaid, 1},
		{"paid without", false, processor.OutcomePaid, 0},
		{"failed with invoice", true, processor.OutcomeFailed, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, f, in := newChargeEnv(t)
			in.Charge.Type = domain.TypePixIn
			in.Charge.Details = domain.SomeJSON(domain.Details{FiscalInvoice: c.fiscal})
			env.RegisterWorkflow(FiscalInvoiceWorkflow)
			var started []string
			env.OnWorkflow(FiscalInvoiceWorkflow, mock.Anything, mock.Anything).Return(
				func(_ workflow.Context, got FiscalInvoiceInput) (string, error) {
					if f.calls["settle"] != 1 {
						t.Errorf("invoice started before the paid transition (settle ran %d times)", f.calls["settle"])
					}
					if got.Invoice.ID != fiscaldom.FiscalInvoiceID("c1") || got.Invoice.ChargeID != "c1" {
						t.Errorf("invoice input %+v", got.Invoice)
					}
					return fiscaldom.InvoiceIssued, nil
				})
			env.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, _ converter.EncodedValues) {
				started = append(started, info.WorkflowExecution.ID)
			})
			env.RegisterDelayedCallback(func() {
				env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c1", Outcome: c.outcome, EndToEndID: "E1"})
			}, time.Minute)
			env.ExecuteWorkflow(ChargeWorkflow, in)
			result(t, env)
			if len(started) != c.starts || (c.starts == 1 && started[0] != FiscalInvoiceWorkflowID(fiscaldom.FiscalInvoiceID("c1"))) {
				t.Fatalf("started %v, want %d invoice workflow(s)", started, c.starts)
			}
		})
	}
}
