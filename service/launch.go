package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

// LaunchGrace is how long a committed intent is left to the request that
// wrote it before a sweeper starts its workflow instead.
const LaunchGrace = 10 * time.Second

// launchLease is how long a sweeper holds an intent it claimed.
const launchLease = 30 * time.Second

// LaunchRetry is how soon the intents of a sweep that could not start a
// workflow are due again: the one it tried, and the claimed ones it had
// not tried yet, which would otherwise wait out their lease. A sweep stops
// at its first failed start (one call to Temporal per sweep while it is
// away), and once Temporal is back after a blip the next sweeps start them
// within seconds.
const LaunchRetry = 5 * time.Second

// launch is a committed resource's workflow start: its kind (stored in
// workflow_launches.kind), the resource's id and how to start it. The use
// case and the sweeper build it with the same function, the product's
// launch builder (chargeLaunch, transferLaunch, …, each in its product's
// file).
type launch struct {
	kind, id string
	st       workflows.Start
	wf, arg  any
}

// launchLoader rebuilds a kind's launch from its committed resource: the
// sweeper's half of a product's workflow start, reading the resource with q
// and handing it to the product's launch builder. A resource that is gone
// answers domain.ErrNotFound (the sweeper then drops the intent).
type launchLoader func(ctx context.Context, q sqlx.QueryerContext, resourceID string) (launch, error)

// launchKinds is the registry of workflow-start kinds. A product whose
// create starts a workflow adds one entry, in its own file, beside its
// launch builder (`var _ = registerLaunch(LaunchThing, …)`), instead of a
// case in the sweeper. It is filled while the package initialises and only
// read afterwards, so it needs no lock.
var launchKinds = map[string]launchLoader{}

// registerLaunch adds kind to the registry and returns it. The kind is the
// name stored in workflow_launches rows, so once rows carry it it never
// changes (a rename would leave them to nobody). Registering a kind twice
// is a programming error and panics at start-up.
func registerLaunch(kind string, load launchLoader) string {
	if _, dup := launchKinds[kind]; dup {
		panic("service: workflow-start kind " + kind + " registered twice")
	}
	launchKinds[kind] = load
	return kind
}

// LaunchKinds lists the registered workflow-start kinds, sorted: every
// kind whose intents the sweeper can start.
func LaunchKinds() []string {
	kinds := make([]string, 0, len(launchKinds))
	for k := range launchKinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// intend records, in the create's transaction, that l's workflow must start.
func recordIntent(ctx context.Context, tx *sqlx.Tx, l launch) error {
	return db.InsertLaunch(ctx, tx, l.kind, l.id, LaunchGrace)
}

// intent is l's intent for a create that writes its records in one
// statement (db.FirstRecords) instead of calling intend in a transaction.
func (l launch) intent() *db.Intent { return &db.Intent{Kind: l.kind, Grace: LaunchGrace} }

// launchCommitted starts the workflow of a resource whose records (and
// intent) are committed, then clears the intent. No transaction is open
// here: a slow Temporal holds no row and no pool connection. A start that
// fails leaves the intent to the sweeper; the resource stands, so the
// request still answers with it (the error is only logged: answering 503
// would invite a retry that pays twice).
func launchCommitted(ctx context.Context, d *sqlx.DB, c Temporal, taskQueue string, l launch) {
	err := start(ctx, c, taskQueue, l.st, l.wf, l.arg)
	if err != nil && !errors.Is(err, ErrAlreadyStarted) {
		slog.Warn("workflow start deferred to the sweeper", "kind", l.kind, "id", l.id, "error", err)
		return
	}
	// The workflow exists: clearing the intent is only housekeeping, so it
	// is not the request's to wait for. Clears are batched in the
	// background; one that is lost only leaves the intent to the sweeper,
	// whose start then finds the workflow started and clears it.
	clearIntent(d, db.LaunchKey{Kind: l.kind, ResourceID: l.id})
}

// intentClears batch the clearing of workflow intents, per database.
var intentClears sync.Map // *sqlx.DB → *clearQueue

// clearQueue is the intents waiting to be cleared and whether a goroutine
// is clearing them; it runs only while there is work.
type clearQueue struct {
	mu      sync.Mutex
	pending []db.LaunchKey
	running bool
}

func clearIntent(d *sqlx.DB, k db.LaunchKey) {
	v, _ := intentClears.LoadOrStore(d, &clearQueue{})
	q := v.(*clearQueue)
	q.mu.Lock()
	q.pending = append(q.pending, k)
	if q.running {
		q.mu.Unlock()
		return
	}
	q.running = true
	q.mu.Unlock()
	go q.drain(d)
}

// clearLinger is how long a clear waits for others to share its statement:
// under load, starts finish at Temporal's rate (≈ 100–200/s here) and each
// clear alone would be a transaction of four round trips; 50 ms batches
// them by the handful, and an intent outliving its start a little longer
// costs nothing (the sweeper's start of it would find the workflow).
const clearLinger = 50 * time.Millisecond

// drain deletes the pending intents, a batch per statement, until none is
// left.
func (q *clearQueue) drain(d *sqlx.DB) {
	for {
		time.Sleep(clearLinger)
		q.mu.Lock()
		batch := q.pending
		q.pending = nil
		if len(batch) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		// Lazy: a clear lost in a crash is the sweeper's to redo, and its
		// fsync would otherwise queue beside the next request's commit.
		err := db.InTx(ctx, d, func(tx *sqlx.Tx) error {
			if err := db.Lazy(ctx, tx); err != nil {
				return err
			}
			return db.DeleteLaunches(ctx, tx, batch)
		})
		if err != nil {
			slog.Warn("clear workflow intents (the sweeper will)", "count", len(batch), "error", err)
		}
		cancel()
	}
}

// IntentSweeper is the sweeper of workflow intents: it starts the workflow of
// every committed resource whose request did not (it died between commit
// and start, or Temporal was away). Each worker process runs one; they
// share the table through leases.
type IntentSweeper struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
}

// Sweep starts the workflows of the due intents and reports how many it
// started.
func (l *IntentSweeper) Sweep(ctx context.Context) (int, error) {
	due, err := db.ClaimLaunches(ctx, l.DB, launchLease, 100)
	if err != nil {
		return 0, err
	}
	started := 0
	for i, in := range due {
		x, err := l.load(ctx, in.Kind, in.ResourceID)
		if errors.Is(err, domain.ErrNotFound) { // nothing to start: drop the intent
			slog.Error("workflow intent without its resource", "kind", in.Kind, "id", in.ResourceID)
			if err := db.DeleteLaunch(ctx, l.DB, in.Kind, in.ResourceID); err != nil {
				return started, err
			}
			continue
		}
		if err != nil {
			return started, err
		}
		err = start(ctx, l.Temporal, l.TaskQueue, x.st, x.wf, x.arg)
		if err != nil && !errors.Is(err, ErrAlreadyStarted) {
			if ferr := db.FailLaunch(ctx, l.DB, in.Kind, in.ResourceID, err.Error()); ferr != nil {
				return started, ferr
			}
			if ferr := db.DeferLaunches(ctx, l.DB, due[i:], LaunchRetry); ferr != nil {
				return started, ferr
			}
			return started, err // Temporal is away: the next sweeps try again
		}
		if err := db.DeleteLaunch(ctx, l.DB, in.Kind, in.ResourceID); err != nil {
			return started, err
		}
		started++
	}
	return started, nil
}

// Run sweeps every interval until ctx ends.
func (l *IntentSweeper) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := l.Sweep(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("sweep workflow intents", "error", err)
		} else if n > 0 {
			slog.Info("started workflows left by their requests", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// load rebuilds an intent's launch from the committed resource, through
// the kind's registered loader.
func (l *IntentSweeper) load(ctx context.Context, kind, id string) (launch, error) {
	load, ok := launchKinds[kind]
	if !ok {
		return launch{}, fmt.Errorf("%w: workflow intent of unknown kind %q", domain.ErrNotFound, kind)
	}
	return load(ctx, l.DB, id)
}
