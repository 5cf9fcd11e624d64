package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// DefaultWebhookRetries are the delays before each retry of a delivery that
// did not get a 2xx: 1 min, 5 min, 15 min, 1 h, 4 h after the failed
// attempt. With the first attempt that makes 6 attempts in all over about
// 5 h 21 min, then the delivery is FAILED.
var DefaultWebhookRetries = []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour, 4 * time.Hour}

// Webhook delivery activities; the worker registers implementations under
// these names.
const (
	ActSendWebhook          = "SendWebhook"
	ActRecordWebhookAttempt = "RecordWebhookAttempt"
)

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

// WebhookAttempt asks the send activity for one attempt.
type WebhookAttempt struct {
	DeliveryID string
	Run        int
	Attempt    int
}

// Why an attempt was not sent.
const (
	// SkipDelivered: an earlier run delivered it (a duplicate chain).
	SkipDelivered = "delivered"
	// SkipCanceled: the endpoint was deleted or disabled since.
	SkipCanceled = "canceled"
)

// WebhookOutcome is what one attempt gave.
type WebhookOutcome struct {
	StatusCode int
	LatencyMS  int
	Error      string
	Body       string
	Delivered  bool
	Skip       string
}

// WebhookRecord is one attempt to store, with the delivery's new status.
type WebhookRecord struct {
	DeliveryID    string
	Run           int
	Attempt       int
	StartedAt     time.Time
	Outcome       WebhookOutcome
	Status        string
	NextAttemptAt *time.Time
}

// WebhookDeliveryWorkflow delivers one event to one endpoint. Each attempt
// is one activity that is never retried by Temporal: the schedule lives
// here, as durable timers, so it survives restarts and deploys and the
// history shows every wait. Every attempt is recorded in PostgreSQL by a
// local activity that retries until the database answers.
func WebhookDeliveryWorkflow(ctx workflow.Context, in WebhookInput) (string, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// The HTTP attempt itself is bounded by the sender's timeout (10 s);
		// this only catches a worker that died mid-attempt.
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
	first := max(in.FirstAttempt, 1)
	status := WebhookPending
	for i := 0; status == WebhookPending; i++ {
		at := WebhookAttempt{DeliveryID: in.DeliveryID, Run: in.Run, Attempt: first + i}
		started := workflow.Now(ctx)
		var out WebhookOutcome
		if err := workflow.ExecuteActivity(actx, ActSendWebhook, at).Get(ctx, &out); err != nil {
			out = WebhookOutcome{Error: "attempt failed: " + err.Error()}
		}
		if out.Skip == SkipDelivered {
			status = WebhookDelivered
			break
		}
		rec := WebhookRecord{DeliveryID: in.DeliveryID, Run: in.Run, Attempt: at.Attempt, StartedAt: started, Outcome: out}
		switch {
		case out.Skip == SkipCanceled:
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
		if err := workflow.ExecuteLocalActivity(lctx, ActRecordWebhookAttempt, rec).Get(ctx, nil); err != nil {
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
	if err := workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(status)); err != nil {
		return "", err
	}
	return status, nil
}
