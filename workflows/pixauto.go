package workflows

import (
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/processor"
)

// Updates and signals of the PIX automatic workflow (one per authorization).
const (
	// PixAutoSchedule makes an instruction (a pixauto.Order) and returns it.
	PixAutoSchedule = "schedule-instruction"
	// PixAutoCancelInstruction cancels an instruction (its id) and returns it.
	PixAutoCancelInstruction = "cancel-instruction"
	// PixAutoCancel cancels the authorization and returns it.
	PixAutoCancel = "cancel"
	// AuthorizationSignal carries the payer's answer to the consent
	// (processor.AuthorizationNotice).
	AuthorizationSignal = "authorization-notice"
	// InstructionSignal carries a debit's outcome (processor.InstructionNotice).
	InstructionSignal = "instruction-notice"
)

// ResourcePixAutomatic is the JangadaResourceType of authorization workflows.
const ResourcePixAutomatic = "PIX_AUTOMATIC_AUTHORIZATION"

// PixAutoTarget names the authorization an update is for: its last
// argument; the workflow rejects an update naming another (see
// ScheduleTarget).
type PixAutoTarget struct {
	AuthorizationID string `json:"authorizationId"`
}

// OpenInstruction is an instruction the workflow still has to charge
// (Submitted false: on its due date, or on Retry after a failed attempt)
// or hear the outcome of (Submitted: attempt Attempt is in flight).
type OpenInstruction struct {
	ID        string
	DueDate   pixauto.Date
	Submitted bool
	// Attempt is the number of attempts sent so far.
	Attempt int `json:",omitempty"`
	// Retry is the day of the next attempt after a failed one.
	Retry pixauto.Date `json:",omitempty"`
}

// sendDay is the day the instruction's next attempt is sent.
func (o OpenInstruction) sendDay() pixauto.Date {
	if o.Retry != "" {
		return o.Retry
	}
	return o.DueDate
}

// AuthorizationInput starts (or continues) an authorization's workflow.
type AuthorizationInput struct {
	Authorization pixauto.Authorization
	// NextCycle is the next cycle whose instruction a fixed-amount
	// authorization makes on its own.
	NextCycle int
	Open      []OpenInstruction
	// Continued is set on continue-as-new.
	Continued bool
}

// AuthorizationWorkflowID derives the workflow id from the authorization id.
func AuthorizationWorkflowID(id string) string { return "pix-automatic/" + id }

// AuthorizationStart is how the API starts an authorization's workflow.
func AuthorizationStart(a pixauto.Authorization) Start {
	amount := a.FirstPaymentAmount
	if a.FixedAmount != nil {
		amount = *a.FixedAmount
	}
	return Start{
		ID: AuthorizationWorkflowID(a.ID), AccountID: a.AccountID, ResourceID: a.ID, ResourceType: ResourcePixAutomatic,
		Status: a.Status, Amount: amount,
		Summary: "PIX automatic " + a.Frequency + " from " + string(a.StartDate) + ": " + a.Description,
		Details: "Account `" + a.AccountID + "`, authorization `" + a.ID + "`, customer `" + a.CustomerID + "`. Updates `" +
			PixAutoSchedule + "`, `" + PixAutoCancelInstruction + "`, `" + PixAutoCancel + "`, each with {\"authorizationId\":\"" + a.ID +
			"\"} as its last argument; signals `" + AuthorizationSignal + "` and `" + InstructionSignal + "` carry processor notices.",
		Memo: map[string]any{"authorizationId": a.ID, "customerId": a.CustomerID},
	}
}

// ContinueAsNewAfterSteps bounds the steps (instructions made, charged or
// settled) of one run: a weekly authorization lives for years.
const ContinueAsNewAfterSteps = 200

// pa names the PIX automatic activities by Go reference.
var pa *activities.PixAutomatic

// recurrence is the workflow's state.
type recurrence struct {
	a      pixauto.Authorization
	next   int
	open   []OpenInstruction
	queue  []*pixRequest
	steps  int
	status string
	// late is lateNoticesChange's answer for this execution.
	late bool
	// lateFirst is lateFirstPaymentChange's answer for this execution.
	lateFirst bool
}

// lateNoticesChange marks executions (version 1) that book a paid notice
// of an instruction no longer open (SettleInstruction decides: a late
// payment of a debit left unanswered) and await every attempt's outcome
// from its own day, the first included. Executions recorded before
// (DefaultVersion) discard such a notice and await attempt 1 from its due
// date, as they did when their history was written, so they replay.
const lateNoticesChange = "pixauto-late-paid-notices"

// lateFirstPaymentChange marks executions (version 1) that wait
// ConsentGrace past the consent's expiry before closing it (a notice of a
// consent paid just before the expiry is still on its way), and book the
// first payment of a consent paid before the authorization closed (its
// notice read after the expiry or a cancel: ActivateAuthorization books it
// as a late payment). Executions recorded before close at the expiry
// itself and drop such a notice.
const lateFirstPaymentChange = "pixauto-late-first-payment"

// ConsentGrace is how long past ConsentExpiresAt the workflow still waits
// for the payer's answer before expiring the consent.
const ConsentGrace = time.Minute

var _ = host(AuthorizationWorkflow)

// AuthorizationWorkflow drives one authorization: it waits for the payer's
// consent (until ConsentExpiresAt), then, on durable timers, makes each
// cycle's instruction of a fixed-amount authorization 10 days before its
// due date (through the instruction use case), sends every instruction to
// the payer's institution on its due date and books the outcome, until the
// authorization is canceled or its endDate has passed. Merchant requests
// arrive as updates and are applied by the main loop, one at a time.
func AuthorizationWorkflow(ctx workflow.Context, in AuthorizationInput) (string, error) {
	w := &recurrence{a: in.Authorization, next: in.NextCycle, open: in.Open, status: in.Authorization.Status}
	// Asked once, at the start, so an execution answers the same way for
	// its whole life (see addressedOnly).
	w.late = workflow.GetVersion(ctx, lateNoticesChange, workflow.DefaultVersion, 1) == 1
	w.lateFirst = workflow.GetVersion(ctx, lateFirstPaymentChange, workflow.DefaultVersion, 1) == 1
	if err := w.register(ctx); err != nil {
		return "", err
	}
	return w.loop(ctx)
}

func (w *recurrence) loop(ctx workflow.Context) (string, error) {
	authCh := workflow.GetSignalChannel(ctx, AuthorizationSignal)
	instrCh := workflow.GetSignalChannel(ctx, InstructionSignal)
	for {
		for len(w.queue) > 0 {
			r := w.queue[0]
			w.queue = w.queue[1:]
			r.out, r.err = w.handle(ctx, r)
			r.done = true
		}
		if n, ok := receiveNow(ctx, AuthorizationSignal, func(n processor.AuthorizationNotice) bool {
			return n.AuthorizationID == w.a.ID && n.Final()
		}); ok {
			if err := w.consent(ctx, n); err != nil {
				return "", err
			}
			continue
		}
		// A payment of an instruction no longer open is booked too
		// (SettleInstruction decides): sent by the Inbox while its debit
		// was in flight, it may arrive after the debit went unanswered, a
		// late payment of a debited payer.
		if n, ok := receiveNow(ctx, InstructionSignal, func(n processor.InstructionNotice) bool {
			return n.Final() && (slices.ContainsFunc(w.open, func(o OpenInstruction) bool { return o.ID == n.InstructionID }) ||
				w.late && n.Outcome == processor.OutcomePaid)
		}); ok {
			if err := w.settle(ctx, n); err != nil {
				return "", err
			}
			continue
		}
		now := workflow.Now(ctx)
		if w.a.Closed() && len(w.open) == 0 {
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
				return "", err
			}
			return w.a.Status, nil
		}
		acted, err := w.due(ctx, now)
		if err != nil {
			return "", err
		}
		if acted {
			continue
		}
		if w.steps >= ContinueAsNewAfterSteps || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) && len(w.queue) == 0 }); err != nil {
				return "", err
			}
			if authCh.Len() == 0 && instrCh.Len() == 0 {
				return "", workflow.NewContinueAsNewError(ctx, AuthorizationWorkflow,
					AuthorizationInput{Authorization: w.a, NextCycle: w.next, Open: w.open, Continued: true})
			}
			continue
		}
		wake := func() bool { return len(w.queue) > 0 || authCh.Len() > 0 || instrCh.Len() > 0 }
		if at, ok := w.nextTimer(); ok {
			if _, err := workflow.AwaitWithTimeout(ctx, max(at.Sub(now), time.Millisecond), wake); err != nil {
				return "", err
			}
			continue
		}
		if err := workflow.Await(ctx, wake); err != nil {
			return "", err
		}
	}
}

// due does the one step whose time has come, if any: the consent's
// expiry, the end of the authorization, the next automatic instruction,
// an instruction's debit on its due date, or a debit left unanswered.
func (w *recurrence) due(ctx workflow.Context, now time.Time) (bool, error) {
	switch {
	case w.a.Status == pixauto.StatusPending && !now.Before(w.consentDeadline()):
		return true, w.close(ctx, pixauto.StatusExpired, "the payer did not answer the consent in time")
	case w.a.Status == pixauto.StatusActive && w.a.Ended(now) && len(w.open) == 0:
		return true, w.close(ctx, pixauto.StatusExpired, "the authorization's endDate has passed")
	}
	if o, ok := w.automatic(); ok && !now.Before(o.DueDate.AddDays(-pixauto.MaxDaysAhead).Start()) {
		w.next++
		if pixauto.DaysAhead(now, o.DueDate) < pixauto.MinDaysAhead {
			workflow.GetLogger(ctx).Warn("cycle skipped: too close to its due date", "authorization", w.a.ID, "cycle", o.Cycle)
			return true, nil
		}
		_, err := w.make(ctx, o)
		if err != nil && !refused(err) {
			return true, err
		}
		if err != nil {
			workflow.GetLogger(ctx).Warn("cycle skipped", "authorization", w.a.ID, "cycle", o.Cycle, "reason", message(err))
		}
		return true, nil
	}
	for i, o := range w.open {
		switch {
		case !o.Submitted && !now.Before(o.sendDay().Start()):
			var t domain.Transaction
			if err := workflow.ExecuteActivity(moneyActivities(ctx), pa.ChargeInstruction,
				activities.ChargeInput{InstructionID: o.ID, Attempt: o.Attempt + 1}).Get(ctx, &t); err != nil {
				return true, err
			}
			w.steps++
			w.track(t, i)
			return true, nil
		case o.Submitted && !now.Before(o.sendDay().Start().Add(pixauto.ChargeGrace)):
			return true, w.book(ctx, activities.SettleInstructionInput{InstructionID: o.ID, NoRetry: true,
				Notice: processor.InstructionNotice{InstructionID: o.ID, Attempt: o.Attempt, Outcome: processor.OutcomeFailed, At: now,
					Reason: "the payer's institution did not answer the debit"}})
		}
	}
	return false, nil
}

// consentDeadline is when an unanswered consent expires.
func (w *recurrence) consentDeadline() time.Time {
	if w.lateFirst {
		return w.a.ConsentExpiresAt.Add(ConsentGrace)
	}
	return w.a.ConsentExpiresAt
}

// automatic is the next cycle's instruction a fixed-amount ACTIVE
// authorization makes on its own, if any is left before its endDate.
func (w *recurrence) automatic() (pixauto.Order, bool) {
	if w.a.Status != pixauto.StatusActive || w.a.FixedAmount == nil {
		return pixauto.Order{}, false
	}
	due := pixauto.DueOf(w.a.StartDate, w.a.Frequency, w.next)
	if w.a.EndDate != nil && w.a.EndDate.Before(due) {
		return pixauto.Order{}, false
	}
	return pixauto.Order{Cycle: w.next, Amount: *w.a.FixedAmount, DueDate: due}, true
}

// nextTimer is the earliest moment something is due.
func (w *recurrence) nextTimer() (time.Time, bool) {
	var at time.Time
	take := func(t time.Time) {
		if at.IsZero() || t.Before(at) {
			at = t
		}
	}
	switch w.a.Status {
	case pixauto.StatusPending:
		take(w.consentDeadline())
	case pixauto.StatusActive:
		if o, ok := w.automatic(); ok {
			take(o.DueDate.AddDays(-pixauto.MaxDaysAhead).Start())
		}
		if w.a.EndDate != nil {
			take(w.a.EndDate.AddDays(1).Start())
		}
	}
	for _, o := range w.open {
		if o.Submitted {
			take(o.sendDay().Start().Add(pixauto.ChargeGrace))
		} else if !w.a.Closed() {
			take(o.sendDay().Start())
		}
	}
	return at, !at.IsZero()
}

// make makes an instruction through the use case and follows it.
func (w *recurrence) make(ctx workflow.Context, o pixauto.Order) (domain.Transaction, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute,
			NonRetryableErrorTypes: []string{activities.ErrTypeInvalid, activities.ErrTypeInsufficient}},
	})
	var t domain.Transaction
	if err := workflow.ExecuteActivity(actx, pa.MakeInstruction, activities.MakeInstructionInput{AuthorizationID: w.a.ID, Order: o}).Get(ctx, &t); err != nil {
		return t, err
	}
	w.steps++
	if t.Status == pixauto.InstructionScheduled && !slices.ContainsFunc(w.open, func(x OpenInstruction) bool { return x.ID == t.ID }) {
		w.open = append(w.open, OpenInstruction{ID: t.ID, DueDate: o.DueDate})
		if d := t.Details.V.PixAutomatic; d != nil {
			w.open[len(w.open)-1].DueDate = pixauto.Date(d.DueDate)
		}
	}
	return t, nil
}

// consent books the payer's answer; on a closed authorization, only a
// first payment the payer made before the close (a late payment).
func (w *recurrence) consent(ctx workflow.Context, n processor.AuthorizationNotice) error {
	if w.a.Status != pixauto.StatusPending && !(w.lateFirst && activities.LateFirstPayment(w.a, n)) {
		return nil
	}
	if n.Outcome == processor.OutcomeRejected {
		return w.close(ctx, pixauto.StatusRejected, n.Reason)
	}
	var a pixauto.Authorization
	if err := workflow.ExecuteActivity(moneyActivities(ctx), pa.ActivateAuthorization,
		activities.ActivateInput{AuthorizationID: w.a.ID, Notice: n}).Get(ctx, &a); err != nil {
		return err
	}
	return w.adopt(ctx, a)
}

// settle books a debit's outcome from the payer's institution.
func (w *recurrence) settle(ctx workflow.Context, n processor.InstructionNotice) error {
	return w.book(ctx, activities.SettleInstructionInput{InstructionID: n.InstructionID, Notice: n})
}

// book books an outcome: the instruction is paid, failed, or waits for its
// retry (docs/pix-automatic.md).
func (w *recurrence) book(ctx workflow.Context, in activities.SettleInstructionInput) error {
	var t domain.Transaction
	if err := workflow.ExecuteActivity(moneyActivities(ctx), pa.SettleInstruction, in).Get(ctx, &t); err != nil {
		return err
	}
	w.steps++
	if i := slices.IndexFunc(w.open, func(o OpenInstruction) bool { return o.ID == t.ID }); i >= 0 {
		w.track(t, i)
	}
	return nil
}

// track follows open instruction i as stored: dropped once no longer
// SCHEDULED, else its attempts, the one in flight and the next retry day,
// so the next timer is the record's own.
func (w *recurrence) track(t domain.Transaction, i int) {
	d := t.Details.V.PixAutomatic
	if t.Status != pixauto.InstructionScheduled || d == nil {
		w.open = slices.Delete(w.open, i, i+1)
		return
	}
	o := &w.open[i]
	o.Submitted, o.Attempt, o.Retry = d.SubmittedAt != nil, len(d.Attempts), pixauto.Date(d.RetryDate)
	switch {
	case o.Submitted && len(d.Attempts) == 0: // a record sent before attempts were kept
		o.Attempt = 1
	case o.Submitted && (w.late || len(d.Attempts) > 1): // every attempt's outcome is awaited from its own day (one sent late is not failed at once)
		o.Retry = pixauto.Date(d.Attempts[len(d.Attempts)-1].Date)
	}
}

// close closes the authorization; its instructions not yet sent are
// canceled with it, those sent still wait for their outcome.
func (w *recurrence) close(ctx workflow.Context, status, reason string) error {
	var a pixauto.Authorization
	if err := workflow.ExecuteActivity(moneyActivities(ctx), pa.CloseAuthorization,
		activities.CloseInput{AuthorizationID: w.a.ID, Status: status, Reason: reason}).Get(ctx, &a); err != nil {
		return err
	}
	w.open = slices.DeleteFunc(w.open, func(o OpenInstruction) bool { return !o.Submitted })
	return w.adopt(ctx, a)
}

// adopt takes the authorization as stored and keeps the status search
// attribute in step.
func (w *recurrence) adopt(ctx workflow.Context, a pixauto.Authorization) error {
	w.a = a
	if a.Status != w.status {
		w.status = a.Status
		return setStatus(ctx, a.Status)
	}
	return nil
}

// forget drops an instruction that is no longer SCHEDULED.
func (w *recurrence) forget(t domain.Transaction) {
	if t.Status != pixauto.InstructionScheduled {
		w.open = slices.DeleteFunc(w.open, func(o OpenInstruction) bool { return o.ID == t.ID })
	}
}
