package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/api/enums/v1"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/workflows"
)

// PIX automatic retries end to end (HTTP, Temporal, PostgreSQL,
// the sandbox's network): an instruction of R$ x,67, whose first debit the
// sandbox fails for want of funds, waits SCHEDULED with its retry the next
// day and nothing credited; on that day the retry is sent and paid, and
// the instruction is PAID, credited exactly once. The days themselves
// cannot pass in this test: the authorization's workflow is started again
// as its continue-as-new would carry it, with the instruction's days moved
// back (its due date today, then yesterday with its retry today); the
// timers that cross them are proven with time skipping in
// workflows/pixauto_retry_test.go.
func TestPixAutomaticDebitRetriedThenPaid(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	ctx := context.Background()
	m, customer := e.pixMerchant()
	today := pixauto.Today(time.Now())
	create := e.call(m.Key, "POST", "/v1/pix-automatic/authorizations/create", map[string]any{"customerId": customer,
		"description": "Mensalidade", "frequency": "MONTHLY", "maxAmount": 300, "startDate": string(today)})
	pixWant(t, "create", create, 200, "")
	id := create.m(t)["id"].(string)
	pixWant(t, "approve", e.call(m.Key, "POST", "/v1/sandbox/pix-automatic/authorizations/"+id+"/approve", nil), 200, "")
	eventually(t, "the authorization ACTIVE", func() bool {
		return e.call(m.Key, "GET", "/v1/pix-automatic/authorizations/get/"+id, nil).m(t)["status"] == pixauto.StatusActive
	})
	made := e.call(m.Key, "POST", "/v1/pix-automatic/payment-instructions/create",
		map[string]any{"authorizationId": id, "amount": 123.67, "dueDate": string(today.AddDays(3))})
	pixWant(t, "instruction", made, 200, "")
	inID, net := made.m(t)["id"].(string), made.m(t)["netAmount"].(float64)
	if inID != activities.InstructionID(id, 0) || net != 123.17 {
		t.Fatalf("instruction %v", made.m(t))
	}
	get := func() map[string]any {
		return e.call(m.Key, "GET", "/v1/pix-automatic/payment-instructions/get/"+inID, nil).m(t)
	}

	// Its due date comes: attempt 1 is sent and fails.
	restart := func(due, retry pixauto.Date, attempts int) {
		t.Helper()
		err := db.InTx(ctx, e.app.DB, func(tx *sqlx.Tx) error {
			r, err := db.LockTransaction(ctx, tx, inID)
			if err != nil {
				return err
			}
			d := r.Details.V.PixAutomatic
			d.DueDate, d.RetryDate = string(due), string(retry)
			for i := range d.Attempts {
				d.Attempts[i].Date = string(due.AddDays(i))
			}
			_, err = db.UpdateTransaction(ctx, tx, r)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		a, err := db.GetAuthorization(ctx, e.app.DB, m.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		opts := workflows.AuthorizationStart(a).Options(e.app.Cfg.TaskQueue)
		opts.WorkflowIDReusePolicy = enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
		opts.WorkflowIDConflictPolicy = enums.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING
		open := workflows.OpenInstruction{ID: inID, DueDate: due, Attempt: attempts, Retry: retry}
		if _, err := e.app.Temporal.ExecuteWorkflow(ctx, opts, workflows.AuthorizationWorkflow, workflows.AuthorizationInput{
			Authorization: a, NextCycle: 1, Open: []workflows.OpenInstruction{open}, Continued: true}); err != nil {
			t.Fatal(err)
		}
	}
	restart(today, "", 0)
	var in map[string]any
	eventually(t, "attempt 1 failed, its retry tomorrow", func() bool {
		in = get()
		attempts, _ := in["attempts"].([]any)
		return len(attempts) == 1 && attempts[0].(map[string]any)["status"] == domain.AttemptFailed
	})
	if in["status"] != pixauto.InstructionScheduled || in["retryDate"] != string(today.AddDays(1)) ||
		in["failureReason"] != "insufficient funds in the payer's account" {
		t.Fatalf("after the failed attempt %v", in)
	}
	if b := e.balance(m); b["available"] != 0.0 {
		t.Fatalf("balance after the failed attempt %v, want nothing credited", b)
	}
	e.verifyLedger()

	// The next day: the retry (attempt 2) is sent and paid.
	restart(today.AddDays(-1), today, 1)
	eventually(t, "the instruction PAID on its retry", func() bool {
		in = get()
		return in["status"] == pixauto.InstructionPaid
	})
	attempts := in["attempts"].([]any)
	if len(attempts) != 2 || attempts[1].(map[string]any)["status"] != domain.AttemptPaid ||
		attempts[1].(map[string]any)["date"] != string(today) || in["retryDate"] != nil || in["endToEndId"] == nil {
		t.Fatalf("paid %v", in)
	}
	if b := e.balance(m); b["available"] != net || b["locked24h"] != net {
		t.Fatalf("balance after the retry paid %v, want %.2f available, all locked", b, net)
	}
	pixWant(t, "cancel a PAID instruction", e.call(m.Key, "DELETE", "/v1/pix-automatic/payment-instructions/cancel/"+inID, nil), 400, "")
	e.verifyLedger()
}
