package workflows

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
)

// fakeWebhooks answers attempts from a script and keeps every record.
type fakeWebhooks struct {
	mu      sync.Mutex
	script  []activities.WebhookOutcome // one per send; the last repeats
	errs    map[int]error               // send number (from 1) → activity error
	sends   int
	records []activities.WebhookRecord
	// down, when set and true, makes recording fail (a database outage).
	down func() bool
}

func (f *fakeWebhooks) send(_ context.Context, at activities.WebhookAttempt) (activities.WebhookOutcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sends++
	if err := f.errs[f.sends]; err != nil {
		return activities.WebhookOutcome{}, err
	}
	return f.script[min(f.sends, len(f.script))-1], nil
}

func (f *fakeWebhooks) record(_ context.Context, r activities.WebhookRecord) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down != nil && f.down() {
		return errors.New("db: connection refused")
	}
	f.records = append(f.records, r)
	return nil
}

func newWebhookEnv(f *fakeWebhooks) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivityWithOptions(f.send, activity.RegisterOptions{Name: actName(webhookActs.SendWebhook)})
	env.RegisterActivityWithOptions(f.record, activity.RegisterOptions{Name: actName(webhookActs.RecordWebhookAttempt)})
	return env
}

var (
	http500 = activities.WebhookOutcome{StatusCode: 500, Error: "HTTP 500"}
	http200 = activities.WebhookOutcome{StatusCode: 200, Delivered: true}
)

func webhookResult(t *testing.T, env *testsuite.TestWorkflowEnvironment) string {
	t.Helper()
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var status string
	if err := env.GetWorkflowResult(&status); err != nil {
		t.Fatal(err)
	}
	return status
}

// offsets are the attempts' start times relative to the first.
func offsets(rs []activities.WebhookRecord) []time.Duration {
	var out []time.Duration
	for _, r := range rs {
		out = append(out, r.StartedAt.Sub(rs[0].StartedAt))
	}
	return out
}

func TestWebhookRetryScheduleExactlyThenFailed(t *testing.T) {
	f := &fakeWebhooks{script: []activities.WebhookOutcome{http500}}
	env := newWebhookEnv(f)
	began := time.Now()
	env.ExecuteWorkflow(WebhookDeliveryWorkflow, WebhookInput{DeliveryID: "dlv_1", FirstAttempt: 1, Retries: DefaultWebhookRetries})
	if got := webhookResult(t, env); got != WebhookFailed {
		t.Fatalf("status %s", got)
	}
	if time.Since(began) > 5*time.Second {
		t.Fatal("the test waited in real time")
	}
	want := []time.Duration{0, time.Minute, 6 * time.Minute, 21 * time.Minute, 81 * time.Minute, 321 * time.Minute}
	got := offsets(f.records)
	if len(got) != len(want) || f.sends != 6 {
		t.Fatalf("%d sends, attempts at %v, want %v", f.sends, got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("attempt %d at +%v, want +%v (all: %v)", i+1, got[i], want[i], got)
		}
		r := f.records[i]
		if r.Attempt != i+1 || r.Run != 0 || r.DeliveryID != "dlv_1" || r.Outcome.StatusCode != 500 {
			t.Fatalf("record %d: %+v", i, r)
		}
		if i < 5 {
			if r.Status != WebhookPending || r.NextAttemptAt == nil || r.NextAttemptAt.Sub(r.StartedAt) != DefaultWebhookRetries[i] {
				t.Fatalf("record %d: status %s next %v", i, r.Status, r.NextAttemptAt)
			}
		} else if r.Status != WebhookFailed || r.NextAttemptAt != nil {
			t.Fatalf("last record: %+v", r)
		}
	}
}

func TestWebhookSucceedsOnThirdAttempt(t *testing.T) {
	f := &fakeWebhooks{script: []activities.WebhookOutcome{http500, {Error: "timeout: no answer in time"}, http200}}
	env := newWebhookEnv(f)
	env.ExecuteWorkflow(WebhookDeliveryWorkflow, WebhookInput{DeliveryID: "dlv_3", FirstAttempt: 1, Retries: DefaultWebhookRetries})
	if got := webhookResult(t, env); got != WebhookDelivered {
		t.Fatalf("status %s", got)
	}
	if f.sends != 3 || len(f.records) != 3 {
		t.Fatalf("%d sends, %d records", f.sends, len(f.records))
	}
	got := offsets(f.records)
	if got[1] != time.Minute || got[2] != 6*time.Minute {
		t.Fatalf("attempts at %v", got)
	}
	if f.records[0].Status != WebhookPending || f.records[1].Status != WebhookPending || f.records[2].Status != WebhookDelivered {
		t.Fatalf("statuses %s %s %s", f.records[0].Status, f.records[1].Status, f.records[2].Status)
	}
}

// A database outage while an attempt is recorded does not fail the
// delivery: the record retries until the database is back (found by the
// soak test: a 10 s bound on the local activity failed the workflow and
// left the delivery PENDING for good).
func TestWebhookRecordRetriesThroughAnOutage(t *testing.T) {
	f := &fakeWebhooks{script: []activities.WebhookOutcome{http200}}
	env := newWebhookEnv(f)
	outageEnds := env.Now().Add(30 * time.Minute)
	tries := 0
	f.down = func() bool { tries++; return env.Now().Before(outageEnds) }
	env.ExecuteWorkflow(WebhookDeliveryWorkflow, WebhookInput{DeliveryID: "dlv_o", FirstAttempt: 1, Retries: DefaultWebhookRetries})
	if got := webhookResult(t, env); got != WebhookDelivered {
		t.Fatalf("status %s", got)
	}
	if f.sends != 1 || len(f.records) != 1 || tries < 10 {
		t.Fatalf("%d sends, %d records after %d tries: want one send recorded once, after retrying through the outage", f.sends, len(f.records), tries)
	}
}

// An activity error (worker lost, database down) is a failed attempt of the
// schedule, never retried by Temporal behind the schedule's back.
func TestWebhookActivityErrorIsOneAttempt(t *testing.T) {
	f := &fakeWebhooks{script: []activities.WebhookOutcome{http200}, errs: map[int]error{1: errors.New("database unavailable")}}
	env := newWebhookEnv(f)
	env.ExecuteWorkflow(WebhookDeliveryWorkflow, WebhookInput{DeliveryID: "dlv_e", FirstAttempt: 1, Retries: DefaultWebhookRetries})
	if got := webhookResult(t, env); got != WebhookDelivered {
		t.Fatalf("status %s", got)
	}
	if f.sends != 2 || len(f.records) != 2 || f.records[0].Outcome.Error == "" || offsets(f.records)[1] != time.Minute {
		t.Fatalf("%d sends, records %+v", f.sends, f.records)
	}
}

// A second chain for a delivery that an earlier chain delivered (a
// duplicate start that got past the workflow id) sends and records nothing.
func TestWebhookDuplicateChainSendsNothing(t *testing.T) {
	f := &fakeWebhooks{script: []activities.WebhookOutcome{{Skip: activities.SkipDelivered}}}
	env := newWebhookEnv(f)
	env.ExecuteWorkflow(WebhookDeliveryWorkflow, WebhookInput{DeliveryID: "dlv_d", FirstAttempt: 1, Retries: DefaultWebhookRetries})
	if got := webhookResult(t, env); got != WebhookDelivered || f.sends != 1 || len(f.records) != 0 {
		t.Fatalf("status %s, %d sends, %d records", got, f.sends, len(f.records))
	}
}

func TestWebhookDeletedEndpointStopsTheSchedule(t *testing.T) {
	f := &fakeWebhooks{script: []activities.WebhookOutcome{http500, {Skip: activities.SkipCanceled, Error: "endpoint deleted"}}}
	env := newWebhookEnv(f)
	env.ExecuteWorkflow(WebhookDeliveryWorkflow, WebhookInput{DeliveryID: "dlv_c", FirstAttempt: 1, Retries: DefaultWebhookRetries})
	if got := webhookResult(t, env); got != WebhookCanceled || f.sends != 2 || f.records[1].Status != WebhookCanceled {
		t.Fatalf("status %s, %d sends, records %+v", got, f.sends, f.records)
	}
}

// A manual redelivery makes one attempt and, failing, leaves the
// delivery's status to the chain that owns it.
func TestWebhookManualRedeliveryIsOneAttempt(t *testing.T) {
	f := &fakeWebhooks{script: []activities.WebhookOutcome{http500}}
	env := newWebhookEnv(f)
	env.ExecuteWorkflow(WebhookDeliveryWorkflow, WebhookInput{DeliveryID: "dlv_m", FirstAttempt: 1, Run: 2})
	if got := webhookResult(t, env); got != WebhookFailed {
		t.Fatalf("status %s", got)
	}
	if f.sends != 1 || len(f.records) != 1 || f.records[0].Run != 2 || f.records[0].Status != "" {
		t.Fatalf("%d sends, records %+v", f.sends, f.records)
	}
}

// The schedule is the input's: a shortened one (the e2e configuration)
// runs through the very same code.
func TestWebhookScheduleComesFromInput(t *testing.T) {
	f := &fakeWebhooks{script: []activities.WebhookOutcome{http500}}
	env := newWebhookEnv(f)
	env.ExecuteWorkflow(WebhookDeliveryWorkflow, WebhookInput{DeliveryID: "dlv_s", FirstAttempt: 1, Retries: []time.Duration{time.Second, 2 * time.Second}})
	if got := webhookResult(t, env); got != WebhookFailed || f.sends != 3 {
		t.Fatalf("status %s, %d sends", got, f.sends)
	}
	if got := offsets(f.records); got[1] != time.Second || got[2] != 3*time.Second {
		t.Fatalf("attempts at %v", got)
	}
}

// A delivery's attempts are local activities: one that succeeds at once
// schedules no activity through the server. Histories recorded before
// (DefaultVersion) replay their attempts as activities.
func TestWebhookAttemptsAreLocalActivitiesSinceVersion1(t *testing.T) {
	for _, tt := range []struct {
		name         string
		version      workflow.Version
		wantActivity int
	}{{"new history", 1, 0}, {"history before local sends", workflow.DefaultVersion, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeWebhooks{script: []activities.WebhookOutcome{http200}}
			env := newWebhookEnv(f)
			env.OnGetVersion(webhookLocalSendChange, workflow.DefaultVersion, 1).Return(tt.version)
			started := 0
			env.SetOnActivityStartedListener(func(*activity.Info, context.Context, converter.EncodedValues) { started++ })
			env.ExecuteWorkflow(WebhookDeliveryWorkflow, WebhookInput{DeliveryID: "d1", FirstAttempt: 1})
			if got := webhookResult(t, env); got != WebhookDelivered {
				t.Fatalf("status %s", got)
			}
			if started != tt.wantActivity || f.sends != 1 || len(f.records) != 1 {
				t.Fatalf("%d activities, %d sends, %d records; want %d, 1, 1", started, f.sends, len(f.records), tt.wantActivity)
			}
		})
	}
}
