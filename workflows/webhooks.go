package workflows

import (
	"strconv"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
)

// DefaultWebhookRetries are the delays before each retry of a delivery that
// did not get a 2xx: 1 min, 5 min, 15 min, 1 h, 4 h after the failed
// attempt. With the first attempt that makes 6 attempts in all over about
// 5 h 21 min, then the delivery is FAILED.
var DefaultWebhookRetries = []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour, 4 * time.Hour}

// Webhook delivery statuses, as stored and as the workflow's result.
const (
	WebhookPending   = "PENDING"
	WebhookDelivered = "DELIVERED"
	WebhookFailed    = "FAILED"
	WebhookCanceled  = "CANCELED"
)

// WebhookInput starts one delivery chain.
type WebhookInput struct {
	DeliveryID string
	// Retries are the delays before each retry; part of the input so that a
	// configured schedule is durable with the chain (and tests shorten it
	// through configuration, not a code path). Empty: one attempt.
	Retries []time.Duration
	// FirstAttempt numbers the run's first attempt (1).
	FirstAttempt int
	// Run is 0 for the dispatched chain and n for the n-th manual
	// redelivery, which sends even if the delivery already succeeded.
	Run int
}

// WebhookWorkflowID is the delivery workflow's id, derived from the delivery
// id: the dispatched chain (run 0) or the n-th manual redelivery.
func WebhookWorkflowID(deliveryID string, run int) string {
	if run == 0 {
		return "webhook/" + deliveryID
	}
	return "webhook/" + deliveryID + "/redeliver-" + strconv.Itoa(run)
}

// WebhookStart is how the dispatcher (and a manual redelivery) starts a
// delivery's workflow.
func WebhookStart(dl db.Delivery, run int, eager bool) Start {
	return Start{
		ID: WebhookWorkflowID(dl.ID, run), AccountID: dl.AccountID, ResourceID: dl.EventID, ResourceType: "WEBHOOK_DELIVERY",
		Status:  db.DeliveryPending,
		Summary: "Webhook " + dl.EventType + " → endpoint " + dl.EndpointID,
		Details: "Delivery `" + dl.ID + "` of event `" + dl.EventID + "`.",
		Memo:    map[string]any{"deliveryId": dl.ID},
		Eager:   eager,
	}
}

// webhookLocalSendChange marks histories (version 1) whose attempts are
// local activities; histories recorded before replay them as activities.
const webhookLocalSendChange = "webhook-local-send"

// WebhookDeliveryWorkflow delivers one event to one endpoint. Each attempt
// is one local activity that is never retried by Temporal: the schedule
// lives here, as durable timers, so it survives restarts and deploys and
// the history shows every wait. Every attempt is recorded in PostgreSQL by
// a local activity that retries until the database answers. A delivery
// that succeeds at once is one workflow task: the start (eager, from the
// dispatcher) and one completion are its only writes to Temporal, against
// four for a workflow whose attempt is an activity.
func WebhookDeliveryWorkflow(ctx workflow.Context, in WebhookInput) (string, error) {
	var a *activities.Webhooks
	// The HTTP attempt itself is bounded by the sender's timeout (10 s);
	// this only catches a worker that died mid-attempt (the workflow task
	// times out and the attempt runs again: delivery is at least once).
	const attemptTimeout = 30 * time.Second
	const attemptQueueTimeout = time.Hour
	send := func(ctx workflow.Context, at activities.WebhookAttempt) workflow.Future {
		return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: attemptTimeout, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
		}), a.SendWebhook, at)
	}
	if workflow.GetVersion(ctx, webhookLocalSendChange, workflow.DefaultVersion, 1) == 1 {
		send = func(ctx workflow.Context, at activities.WebhookAttempt) workflow.Future {
			return workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
				// The attempt runs at most attemptTimeout once started, but it
				// may wait for a free slot of the worker (a burst of
				// deliveries) as an activity task waited on the server: that
				// wait must not fail it.
				StartToCloseTimeout: attemptTimeout, ScheduleToCloseTimeout: attemptQueueTimeout,
				RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
			}), a.SendWebhook, at)
		}
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		// Recording an attempt never gives up: without ScheduleToClose (it
		// defaults to StartToClose) a database outage over 10 s failed the
		// workflow and left its delivery PENDING for good.
		ScheduleToCloseTimeout: retryForever,
		StartToCloseTimeout:    10 * time.Second,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
	first := max(in.FirstAttempt, 1)
	status := WebhookPending
	for i := 0; status == WebhookPending; i++ {
		at := activities.WebhookAttempt{DeliveryID: in.DeliveryID, Run: in.Run, Attempt: first + i}
		started := workflow.Now(ctx)
		var out activities.WebhookOutcome
		if err := send(ctx, at).Get(ctx, &out); err != nil {
			out = activities.WebhookOutcome{Error: "attempt failed: " + err.Error()}
		}
		if out.Skip == activities.SkipDelivered {
			status = WebhookDelivered
			break
		}
		rec := activities.WebhookRecord{DeliveryID: in.DeliveryID, Run: in.Run, Attempt: at.Attempt, StartedAt: started, Outcome: out}
		switch {
		case out.Skip == activities.SkipCanceled:
			status = WebhookCanceled
		case out.Delivered:
			status = WebhookDelivered
		case i < len(in.Retries):
			next := workflow.Now(ctx).Add(in.Retries[i])
			rec.NextAttemptAt = &next
		case in.Run > 0:
			status = "" // a failed manual attempt leaves the delivery's status alone
		default:
			status = WebhookFailed
		}
		rec.Status = status
		if err := workflow.ExecuteLocalActivity(lctx, a.RecordWebhookAttempt, rec).Get(ctx, nil); err != nil {
			return "", err
		}
		if status == WebhookPending {
			if err := workflow.Sleep(ctx, in.Retries[i]); err != nil {
				return "", err
			}
		}
	}
	if status == "" {
		status = WebhookFailed
	}
	return status, setStatus(ctx, status)
}
