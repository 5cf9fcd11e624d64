package workflows

import (
	"testing"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/processor"
)

// The payer approves and pays the first payment as the merchant cancels:
// the cancel, queued first, closes the authorization before the consent
// notice is read. The notice then books the first payment as a late
// payment (credited once), the authorization staying CANCELED.
func TestPixAutomaticFirstPaymentPaidAsTheMerchantCancels(t *testing.T) {
	env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Monthly, FixedAmount: ptrCents(500), StartDate: "2026-12-01",
		FirstPaymentAmount: 1000, FirstPaymentFee: 50})
	var cancelErr error
	var got pixauto.Authorization
	env.RegisterDelayedCallback(func() {
		pixUpdate(env, "pa1", PixAutoCancel, &cancelErr, &got)
		env.SignalWorkflow(AuthorizationSignal, processor.AuthorizationNotice{AuthorizationID: "pa1", Outcome: processor.OutcomeApproved,
			Payer: &domain.Party{Name: "Maria"}, EndToEndID: "E1", At: env.Now().Add(-time.Second)})
	}, time.Hour)
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
	if status := result(t, env); status != pixauto.StatusCanceled || cancelErr != nil {
		t.Fatalf("status %s cancel %v", status, cancelErr)
	}
	if f.credits != 950 || f.a.FirstPaymentID == "" {
		t.Fatalf("credits %d first payment %q, want 950 booked late", f.credits, f.a.FirstPaymentID)
	}
}

// A consent paid just before ConsentExpiresAt whose notice arrives within
// ConsentGrace after it still activates the authorization: the expiry
// waits the grace out. Unanswered, the consent expires at the grace's end.
func TestPixAutomaticConsentNoticeWithinTheGrace(t *testing.T) {
	env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Monthly, FixedAmount: ptrCents(500), StartDate: "2026-12-01",
		FirstPaymentAmount: 1000, FirstPaymentFee: 50})
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(AuthorizationSignal, processor.AuthorizationNotice{AuthorizationID: "pa1", Outcome: processor.OutcomeApproved,
			Payer: &domain.Party{Name: "Maria"}, EndToEndID: "E1", At: f.a.ConsentExpiresAt.Add(-time.Second)})
	}, pixauto.ConsentTTL+ConsentGrace/2)
	env.RegisterDelayedCallback(func() { pixUpdate(env, "pa1", PixAutoCancel, new(error), nil) }, pixauto.ConsentTTL+time.Hour)
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
	if status := result(t, env); status != pixauto.StatusCanceled || f.credits != 950 {
		t.Fatalf("status %s credits %d, want activated (then canceled) with 950 credited", status, f.credits)
	}
}

// Executions recorded before lateFirstPaymentChange (DefaultVersion) keep
// their rules, as their histories did: a consent notice read after the
// close is dropped, and the consent expires at ConsentExpiresAt itself.
func TestPixAutomaticBeforeLateFirstPaymentChangeKeepsOldRules(t *testing.T) {
	first := pixauto.Authorization{Frequency: pixauto.Monthly, FixedAmount: ptrCents(500), StartDate: "2026-12-01",
		FirstPaymentAmount: 1000, FirstPaymentFee: 50}
	t.Run("consent after the cancel", func(t *testing.T) {
		env, f := pixEnv(first)
		env.OnGetVersion(lateFirstPaymentChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
		env.RegisterDelayedCallback(func() {
			pixUpdate(env, "pa1", PixAutoCancel, new(error), nil)
			env.SignalWorkflow(AuthorizationSignal, processor.AuthorizationNotice{AuthorizationID: "pa1", Outcome: processor.OutcomeApproved,
				Payer: &domain.Party{Name: "Maria"}, EndToEndID: "E1", At: env.Now().Add(-time.Second)})
		}, time.Hour)
		env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
		if status := result(t, env); status != pixauto.StatusCanceled || f.credits != 0 {
			t.Fatalf("status %s credits %d, want CANCELED, the notice dropped", status, f.credits)
		}
	})
	t.Run("expiry", func(t *testing.T) {
		env, f := pixEnv(first)
		env.OnGetVersion(lateFirstPaymentChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
		env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
		if status := result(t, env); status != pixauto.StatusExpired {
			t.Fatalf("status %s", status)
		}
		if got := env.Now().Sub(time.Date(2026, 11, 25, 10, 0, 0, 0, saoPaulo)); got != pixauto.ConsentTTL {
			t.Errorf("expired after %v, want %v", got, pixauto.ConsentTTL)
		}
	})
}
