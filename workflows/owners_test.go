package workflows

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/mock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// wakeOwnerKind is a charge owner of these tests that asks for a wake.
const wakeOwnerKind = "workflows-test-owner"

var _ = activities.RegisterChargeOwner(wakeOwnerKind, activities.ChargeOwnerHook{
	Moved: func(context.Context, *sqlx.Tx, domain.Transaction, string) error { return nil },
	Wake:  func(id string) (string, string) { return "owner/" + id, "owner-charge-moved" },
})

func TestOwnedChargeWakesItsOwnerAfterItsTransition(t *testing.T) {
	env, f, in := newChargeEnv(t)
	in.Charge.Details = domain.SomeJSON(domain.Details{Owner: &domain.ChargeOwner{Kind: wakeOwnerKind, ID: "o1"}})
	var got []activities.ChargeMoved
	env.OnSignalExternalWorkflow(mock.Anything, "owner/o1", "", "owner-charge-moved", mock.Anything).Return(
		func(_, _, _, _ string, arg any) error {
			if f.calls["settle"] != 1 {
				t.Errorf("owner woken before the transition committed (settle ran %d times)", f.calls["settle"])
			}
			got = append(got, arg.(activities.ChargeMoved))
			return nil
		}).Once()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c1", Outcome: processor.OutcomePaid, EndToEndID: "E1"})
	}, time.Minute)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if s := result(t, env); s != domain.StatusCompleted {
		t.Fatalf("status %s", s)
	}
	want := activities.ChargeMoved{OwnerKind: wakeOwnerKind, OwnerID: "o1", ChargeID: "c1", Status: domain.StatusCompleted}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("owner signals %+v, want one %+v", got, want)
	}
	env.AssertExpectations(t)
}

func TestOwnerWhoseWorkflowEndedDoesNotFailTheCharge(t *testing.T) {
	env, _, in := newChargeEnv(t)
	in.Charge.Details = domain.SomeJSON(domain.Details{Owner: &domain.ChargeOwner{Kind: wakeOwnerKind, ID: "gone"}})
	env.OnSignalExternalWorkflow(mock.Anything, "owner/gone", "", "owner-charge-moved", mock.Anything).Return(
		func(_, _, _, _ string, _ any) error { return context.Canceled }).Once()
	env.ExecuteWorkflow(ChargeWorkflow, in) // expires at its expiresAt
	if s := result(t, env); s != domain.StatusCanceled {
		t.Fatalf("status %s", s)
	}
	env.AssertExpectations(t)
}
