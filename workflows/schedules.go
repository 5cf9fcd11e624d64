package workflows

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/money"
)

// Updates and signals of the schedule workflow.
const (
	// ScheduleUpdate applies a schedule.Patch (label, timing, maxRuns,
	// pause/resume) and returns the record.
	ScheduleUpdate = "update"
	// ScheduleRunNow runs the transfer at once and returns the record with the run.
	ScheduleRunNow = "run-now"
	// ScheduleCancel closes the schedule for good (status completed).
	ScheduleCancel = "cancel"
	// BalanceSignal tells a threshold schedule that its account's available
	// balance changed; the workflow then reads it.
	BalanceSignal = "balance-changed"
)

// ScheduleTarget names the schedule an update is for; it is the last
// argument of every update (service.Schedules sends it). A workflow of
// version addressedChange rejects an update naming another schedule, or
// none: run-now and cancel carried no payload at all, so a client of the
// Temporal frontend needed no key to run a schedule's transfer, and an
// update's patch could be copied out of another schedule's history.
type ScheduleTarget struct {
	ScheduleID string `json:"scheduleId"`
}

// ResourceSchedule is the JangadaResourceType of schedule workflows.
const ResourceSchedule = "SCHEDULE"

// ContinueAsNewAfterRuns bounds the runs of one workflow run: a daily
// schedule lives for years, its history must not.
const ContinueAsNewAfterRuns = 100

// ScheduleInput starts (or continues) a schedule's workflow.
type ScheduleInput struct {
	Schedule schedule.Schedule
	// Below records that the balance was last seen under the threshold, which
	// arms a threshold schedule; a new one starts armed.
	Below bool
	// Dirty carries a balance change not yet read across continue-as-new.
	Dirty bool
	// Continued is set on continue-as-new: the row exists already.
	Continued bool
}

// ScheduleWorkflowID derives the workflow id from the schedule id.
func ScheduleWorkflowID(id string) string { return "schedule/" + id }

// ScheduleStart is how the API starts a schedule's workflow.
func ScheduleStart(s schedule.Schedule) Start {
	return Start{
		ID: ScheduleWorkflowID(s.ID), AccountID: s.AccountID, ResourceID: s.ID, ResourceType: ResourceSchedule, Status: s.Status,
		Amount:  s.Payload.Amount,
		Summary: "Scheduled " + schedule.MethodLabel(s.Payload.Method) + " " + s.Payload.Amount.Format() + ": " + s.ScheduleLabel(),
		Details: "Account `" + s.AccountID + "`, schedule `" + s.ID + "`. Updates `" + ScheduleUpdate + "`, `" +
			ScheduleRunNow + "`, `" + ScheduleCancel + "`, each with {\"scheduleId\":\"" + s.ID +
			"\"} as its last argument (one naming another schedule, or none, is rejected); signal `" + BalanceSignal + "` re-reads the balance.",
		Memo: map[string]any{"scheduleId": s.ID},
	}
}

// request is an update waiting for the main loop, which alone does I/O, so
// that runs, saves and updates never interleave.
type request struct {
	name  string
	patch schedule.Patch
	done  bool
	rec   schedule.Record
	err   error
}

// sa names the schedule activities by Go reference.
var sa *activities.Schedules

// scheduler is the workflow's state.
type scheduler struct {
	s        schedule.Schedule
	below    bool
	dirty    bool
	queue    []*request
	runs     int
	saStatus string
}

var _ = host(ScheduleWorkflow)

// ScheduleWorkflow drives one scheduled transfer until it completes, fails
// or is cancelled: durable timers for ONCE and RECURRING (the next run is
// computed here from the rule and workflow.Now), balance signals for
// BALANCE_THRESHOLD, updates for pause/resume/edit, run-now and cancel.
func ScheduleWorkflow(ctx workflow.Context, in ScheduleInput) (string, error) {
	w := &scheduler{s: in.Schedule, below: in.Below, dirty: in.Dirty, saStatus: in.Schedule.Status}
	// Handlers first: an update that arrives with the first workflow task
	// must find them, or it is rejected as unknown. (GetVersion does not
	// yield: they are still registered within the first task.)
	if err := w.register(ctx, addressedOnly(ctx)); err != nil {
		return "", err
	}
	if !in.Continued {
		if err := ensureActivity(ctx, sa.EnsureSchedule, w.s, nil); err != nil {
			return "", err
		}
		w.dirty = w.dirty || w.s.Trigger == schedule.BalanceThreshold
	}
	workflow.Go(ctx, func(ctx workflow.Context) {
		ch := workflow.GetSignalChannel(ctx, BalanceSignal)
		for {
			var account string
			ch.Receive(ctx, &account)
			w.dirty = true
		}
	})
	return w.loop(ctx)
}

// register sets the update handlers; addressed makes them refuse an
// update whose ScheduleTarget is not this schedule (see ScheduleTarget).
func (w *scheduler) register(ctx workflow.Context, addressed bool) error {
	open := func(ctx workflow.Context, t ScheduleTarget) error {
		if addressed && t.ScheduleID != w.s.ID {
			workflow.GetLogger(ctx).Warn("rejecting an update addressed to another schedule",
				"schedule", w.s.ID, "addressedTo", t.ScheduleID)
			return temporal.NewNonRetryableApplicationError(
				"the update names schedule \""+t.ScheduleID+"\", not "+w.s.ID, "WrongSchedule", nil)
		}
		if w.s.Closed() {
			return closedError(w.s)
		}
		return nil
	}
	enqueue := func(ctx workflow.Context, r *request) (schedule.Record, error) {
		w.queue = append(w.queue, r)
		if err := workflow.Await(ctx, func() bool { return r.done }); err != nil {
			return schedule.Record{}, err
		}
		return r.rec, r.err
	}
	// An update sent without a target (by callers from before) decodes it
	// as the zero value: the SDK leaves missing arguments zero.
	if err := workflow.SetUpdateHandlerWithOptions(ctx, ScheduleUpdate,
		func(ctx workflow.Context, p schedule.Patch, _ ScheduleTarget) (schedule.Record, error) {
			return enqueue(ctx, &request{name: ScheduleUpdate, patch: p})
		}, workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, _ schedule.Patch, t ScheduleTarget) error { return open(ctx, t) }}); err != nil {
		return err
	}
	for _, name := range []string{ScheduleRunNow, ScheduleCancel} {
		if err := workflow.SetUpdateHandlerWithOptions(ctx, name,
			func(ctx workflow.Context, _ ScheduleTarget) (schedule.Record, error) {
				return enqueue(ctx, &request{name: name})
			},
			workflow.UpdateHandlerOptions{Validator: open}); err != nil {
			return err
		}
	}
	return nil
}

func (w *scheduler) loop(ctx workflow.Context) (string, error) {
	if w.s.NextRunAt == nil && w.s.Status == schedule.StatusActive {
		w.plan(ctx)
		if err := w.save(ctx); err != nil {
			return "", err
		}
	}
	for {
		for len(w.queue) > 0 {
			r := w.queue[0]
			w.queue = w.queue[1:]
			r.rec, r.err = w.handle(ctx, r)
			r.done = true
		}
		if w.s.Closed() {
			// Let the handlers of the last requests return their answers.
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
				return "", err
			}
			return w.s.Status, nil
		}
		if w.dirty && w.s.Trigger == schedule.BalanceThreshold {
			w.dirty = false
			fire, err := w.observe(ctx)
			if err != nil {
				return "", err
			}
			if fire {
				if err := w.runAutomatic(ctx); err != nil {
					return "", err
				}
			}
			continue
		}
		if w.runs >= ContinueAsNewAfterRuns || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) && len(w.queue) == 0 }); err != nil {
				return "", err
			}
			return "", workflow.NewContinueAsNewError(ctx, ScheduleWorkflow,
				ScheduleInput{Schedule: w.s, Below: w.below, Dirty: w.dirty, Continued: true})
		}
		wake := func() bool { return len(w.queue) > 0 || w.dirty }
		next := w.s.NextRunAt
		if w.s.Status != schedule.StatusActive || next == nil {
			if err := workflow.Await(ctx, wake); err != nil {
				return "", err
			}
			continue
		}
		if d := next.Sub(workflow.Now(ctx)); d > 0 {
			woken, err := workflow.AwaitWithTimeout(ctx, d, wake)
			if err != nil {
				return "", err
			}
			if woken {
				continue
			}
		}
		if err := w.runAutomatic(ctx); err != nil {
			return "", err
		}
	}
}

// plan sets the next run from the rule and the workflow's clock: a paused
// schedule, a threshold one and a finished one have none.
func (w *scheduler) plan(ctx workflow.Context) {
	w.s.NextRunAt = nil
	if w.s.Status == schedule.StatusActive {
		w.s.NextRunAt = w.s.Next(workflow.Now(ctx))
	}
}

// save writes the row and keeps the JangadaStatus search attribute in step.
func (w *scheduler) save(ctx workflow.Context) error {
	if err := workflow.ExecuteActivity(moneyActivities(ctx), sa.SaveSchedule, w.s).Get(ctx, nil); err != nil {
		return err
	}
	if w.s.Status != w.saStatus {
		w.saStatus = w.s.Status
		return workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(w.s.Status))
	}
	return nil
}

// observe reads the available balance and reports whether a threshold
// schedule fires: only when it reaches the threshold from below, so that it
// fires once per crossing. A crossing while paused is skipped.
func (w *scheduler) observe(ctx workflow.Context) (bool, error) {
	bal, err := w.balance(ctx)
	if err != nil {
		return false, err
	}
	if bal < w.s.Threshold {
		w.below = true
		return false, nil
	}
	fire := w.below && w.s.Status == schedule.StatusActive
	w.below = false
	return fire, nil
}

func (w *scheduler) balance(ctx workflow.Context) (money.Cents, error) {
	var bal money.Cents
	err := workflow.ExecuteActivity(moneyActivities(ctx), sa.ScheduleBalance, w.s.AccountID).Get(ctx, &bal)
	return bal, err
}

// execute runs one transfer. Business refusals (short balance, a
// destination that no longer exists) are not retried; anything else is,
// a few times, before the run counts as failed.
func (w *scheduler) execute(ctx workflow.Context) (schedule.RunResult, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second,
			MaximumAttempts: 5, NonRetryableErrorTypes: []string{activities.ErrTypeInvalid, activities.ErrTypeInsufficient}},
	})
	var res schedule.RunResult
	err := workflow.ExecuteActivity(actx, sa.RunSchedule, activities.RunScheduleInput{ScheduleID: w.s.ID, RunNumber: w.s.RunCount + 1}).Get(ctx, &res)
	return res, err
}

// succeeded books a run that created its transfer.
func (w *scheduler) succeeded(ctx workflow.Context) {
	w.s.RunCount++
	w.runs++
	now := workflow.Now(ctx)
	w.s.LastRunAt = &now
	w.s.Failures, w.s.LastError = 0, ""
	if (w.s.MaxRuns > 0 && w.s.RunCount >= w.s.MaxRuns) || w.s.Trigger == schedule.Once {
		w.s.Status = schedule.StatusCompleted
	}
}

// runAutomatic is a run the schedule itself decided on. The failure rule:
// schedule.MaxConsecutiveFailures failed runs in a row close the schedule
// as failed; a one-off has a single chance.
func (w *scheduler) runAutomatic(ctx workflow.Context) error {
	_, err := w.execute(ctx)
	if err == nil {
		w.succeeded(ctx)
	} else {
		w.runs++
		w.s.Failures++
		w.s.LastError = message(err)
		if w.s.Failures >= schedule.MaxConsecutiveFailures || w.s.Trigger == schedule.Once {
			w.s.Status = schedule.StatusFailed
		}
	}
	w.plan(ctx)
	return w.save(ctx)
}

// handle applies one update in the main loop.
func (w *scheduler) handle(ctx workflow.Context, r *request) (schedule.Record, error) {
	if w.s.Closed() {
		return schedule.Record{}, closedError(w.s)
	}
	switch r.name {
	case ScheduleCancel:
		w.s.Status = schedule.StatusCompleted
	case ScheduleRunNow:
		return w.runNow(ctx)
	default:
		p := r.patch
		if err := w.s.CheckPatch(p); err != nil {
			return schedule.Record{}, activities.BusinessError(err)
		}
		resumed := p.Status != nil && *p.Status == schedule.StatusActive && w.s.Status != schedule.StatusActive
		before, below, dirty := w.s, w.below, w.dirty
		w.s = p.Apply(w.s)
		if p.Threshold != nil {
			// A new threshold is judged afresh: reached already, it fires.
			w.below, w.dirty = true, true
		}
		if resumed && w.s.Trigger == schedule.BalanceThreshold {
			w.dirty = true
		}
		w.plan(ctx)
		if err := w.save(ctx); err != nil {
			if refused(err) { // no slot to resume into: the patch is not applied
				w.s, w.below, w.dirty = before, below, dirty
				return schedule.Record{}, refusal(err)
			}
			return schedule.Record{}, err
		}
		return w.s.Public(), nil
	}
	w.plan(ctx)
	if err := w.save(ctx); err != nil {
		return schedule.Record{}, err
	}
	return w.s.Public(), nil
}

// runNow runs at once on request and answers with the run. A refused run
// changes nothing and does not count towards the failure rule: the caller
// sees the refusal.
func (w *scheduler) runNow(ctx workflow.Context) (schedule.Record, error) {
	if w.s.Trigger == schedule.BalanceThreshold {
		bal, err := w.balance(ctx)
		if err != nil {
			return schedule.Record{}, err
		}
		if bal < w.s.Threshold {
			return schedule.Record{}, temporal.NewApplicationError("the available balance of "+bal.Format()+
				" has not reached the threshold of "+w.s.Threshold.Format(), activities.ErrTypeInvalid)
		}
	}
	res, err := w.execute(ctx)
	if err != nil {
		return schedule.Record{}, refusal(err)
	}
	w.succeeded(ctx)
	w.plan(ctx)
	if err := w.save(ctx); err != nil {
		return schedule.Record{}, err
	}
	rec := w.s.Public()
	rec.Run = &res
	return rec, nil
}

func closedError(s schedule.Schedule) error {
	return temporal.NewNonRetryableApplicationError("scheduled transfer "+s.ID+" is "+s.Status+" and can no longer change", activities.ErrTypeInvalid, nil)
}

// message is a failed run's reason as the record shows it.
func message(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Message()
	}
	return err.Error()
}

// refused reports a business refusal (ErrTypeInvalid, ErrTypeInsufficient)
// coming back from an activity.
func refused(err error) bool {
	var app *temporal.ApplicationError
	return errors.As(err, &app) && (app.Type() == activities.ErrTypeInvalid || app.Type() == activities.ErrTypeInsufficient)
}

// refusal passes a run's business refusal to the update's caller as its own
// error, without the activity's wrapping; other errors become a retryable
// failure of the request.
func refusal(err error) error {
	var app *temporal.ApplicationError
	if refused(err) && errors.As(err, &app) {
		return temporal.NewNonRetryableApplicationError(app.Message(), app.Type(), nil)
	}
	return temporal.NewApplicationError("the run could not be made now: "+message(err), "RunUnavailable")
}
