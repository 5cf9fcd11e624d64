package dispatch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
	"github.com/jangada/jangada/workflows"
)

// Dispatcher hands each committed event to one WebhookDeliveryWorkflow per
// matching endpoint, then marks it dispatched. Worker processes run it;
// several may run at once (FOR NO KEY UPDATE SKIP LOCKED shares the
// outbox), and a dispatch repeated after a crash starts nothing new: the
// delivery id, and so the workflow id, is derived from (event, endpoint).
type Dispatcher struct {
	DB        *sqlx.DB
	DSN       string
	Temporal  client.Client
	TaskQueue string
	// Retries are the delays before each retry of a failed delivery.
	Retries []time.Duration
	// PollInterval is the fallback when no NOTIFY arrives.
	PollInterval time.Duration
	// Batch is how many events one database transaction claims.
	Batch int
	// Origin is this process's Notifier.Origin: its own notifications are
	// skipped (the commit woke the dispatcher directly).
	Origin string

	once sync.Once
	wake chan struct{}
}

// Wake makes the dispatcher look at the outbox now (the in-process fast
// path beside NOTIFY).
func (d *Dispatcher) Wake() { d.init(); signal(d.wake) }

func (d *Dispatcher) init() { d.once.Do(func() { d.wake = make(chan struct{}, 1) }) }

// Run dispatches until ctx ends.
func (d *Dispatcher) Run(ctx context.Context) {
	d.init()
	backoff := time.Duration(0)
	pace := pacer{every: DispatchGather}
	db.Listen(ctx, d.DSN, []string{db.EventsChannel}, d.wake, pollEvery(d.PollInterval), nil, func(_, payload string) {
		if payload != "" && payload == d.Origin {
			return
		}
		pace.wait(ctx)
		for ctx.Err() == nil {
			n, err := d.DispatchOnce(ctx)
			if err != nil {
				if ctx.Err() == nil {
					slog.Error("webhook dispatch", "error", err)
				}
				// The events stay undispatched; try again after a pause
				// that grows while Temporal or the database is down.
				backoff = min(max(2*backoff, 100*time.Millisecond), 5*time.Second)
				select {
				case <-time.After(backoff):
				case <-ctx.Done():
				}
				return
			}
			backoff = 0
			if n < d.batch() {
				return
			}
		}
	})
}

func (d *Dispatcher) batch() int {
	if d.Batch <= 0 {
		return 100
	}
	return d.Batch
}

// DispatchOnce dispatches one batch of events and reports how many it
// claimed. An event whose deliveries could not all be started stays
// undispatched and is tried again.
//
// A batch is BEGIN, the claim, the endpoints, the marks and COMMIT; the
// deliveries' own transaction and the look for deliveries to start run only
// when there are deliveries (most events of accounts without endpoints
// have none).
func (d *Dispatcher) DispatchOnce(ctx context.Context) (int, error) {
	var claimed int
	var failed map[string]error
	err := db.InTx(ctx, d.DB, func(tx *sqlx.Tx) error {
		evs, err := db.ClaimUndispatched(ctx, tx, d.batch())
		if err != nil || len(evs) == 0 {
			return err
		}
		claimed = len(evs)
		deliveries, err := d.route(ctx, tx, evs)
		if err != nil {
			return err
		}
		// Deliveries are committed on their own before any workflow
		// starts, so that the first attempt (which may run within
		// milliseconds) finds its row. The claim locks queue rows only,
		// never the events their foreign keys name.
		if len(deliveries) > 0 {
			if err := db.InTx(ctx, d.DB, func(itx *sqlx.Tx) error { return db.InsertDeliveries(ctx, itx, deliveries) }); err != nil {
				return err
			}
		}
		var ids []string
		for _, ev := range evs {
			if ev.HasDeliveries || len(deliveries) > 0 {
				ids = append(ids, ev.ID)
			}
		}
		if len(ids) > 0 {
			pending, err := db.PendingDeliveries(ctx, d.DB, ids)
			if err != nil {
				return err
			}
			failed = d.start(ctx, pending)
		}
		var done []int64
		for _, ev := range evs {
			if failed[ev.ID] == nil {
				done = append(done, ev.Seq)
			}
		}
		return db.MarkDispatched(ctx, tx, done)
	})
	if err != nil {
		return 0, err
	}
	if len(failed) > 0 {
		return claimed, fmt.Errorf("%d of %d events not dispatched: %w", len(failed), claimed, firstError(failed))
	}
	return claimed, nil
}

func firstError(m map[string]error) error {
	for _, err := range m {
		return err
	}
	return nil
}

// route computes the deliveries of the events: one per active endpoint of
// the event's account that the routing rule and its events list select.
func (d *Dispatcher) route(ctx context.Context, tx *sqlx.Tx, evs []db.ClaimedEvent) ([]db.Delivery, error) {
	accounts := map[string]bool{}
	var ids []string
	for _, ev := range evs {
		if !accounts[ev.AccountID] {
			accounts[ev.AccountID] = true
			ids = append(ids, ev.AccountID)
		}
	}
	eps, err := db.ActiveEndpoints(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	var out []db.Delivery
	for _, ev := range evs {
		for _, ep := range eps {
			if ForKey(ev.Event, ep.AccountID, ep.APIKeyID) && domain.AnyMatches(ep.Events, ev.Type) {
				out = append(out, db.Delivery{
					ID: webhook.DeliveryID(ev.ID, ep.ID), EventID: ev.ID, EndpointID: ep.ID, AccountID: ev.AccountID, EventType: ev.Type,
				})
			}
		}
	}
	return out, nil
}

// start starts the deliveries' workflows, 16 at a time, and returns the
// error of each event that has a delivery that could not be started.
func (d *Dispatcher) start(ctx context.Context, ds []db.Delivery) map[string]error {
	var mu sync.Mutex
	failed := map[string]error{}
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for _, dl := range ds {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := StartDelivery(ctx, d.Temporal, d.TaskQueue, dl, workflows.WebhookInput{
				DeliveryID: dl.ID, FirstAttempt: 1, Retries: d.Retries,
			}, true); err != nil {
				mu.Lock()
				failed[dl.EventID] = err
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return failed
}

// StartDelivery starts a delivery workflow; a workflow already started
// under the same id (a duplicate dispatch) counts as success. Manual
// redeliveries run under their own id (in.Run > 0).
func StartDelivery(ctx context.Context, c client.Client, taskQueue string, dl db.Delivery, in workflows.WebhookInput, eager bool) error {
	_, err := c.ExecuteWorkflow(ctx, workflows.WebhookStart(dl, in.Run, eager).Options(taskQueue), workflows.WebhookDeliveryWorkflow, in)
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &already) {
		return nil
	}
	return err
}
