package app

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// LedgerCheckInterval is how often a worker process runs the ledger check
// (db.VerifyLedger) behind the jangada_ledger_problems gauge.
const LedgerCheckInterval = 5 * time.Minute

// Business metrics on the process's Prometheus registry. A business change
// always commits an outbox event, so counting committed events by type
// counts charges created (payment.created), paid (payment.paid), expired
// (payment.pix.expired), transfers settled (transfer.completed) and failed
// (transfer.failed), and every other product's moves, with no counter in
// any product's code; each event is counted once, by the process whose
// transaction committed it.
var (
	eventsCommitted = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "jangada_events_total",
		Help: "Business events committed by this process, by event type (payment.created, payment.paid, payment.pix.expired, transfer.completed, transfer.failed, …).",
	}, []string{"event"})
	ledgerProblems = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "jangada_ledger_problems",
		Help: "Ledger invariant violations found by the last check (db.VerifyLedger): unbalanced transactions, balances that differ from their entries, forbidden negative balances. Anything but 0 is an incident.",
	})
	ledgerBatches = newBatchHistograms("jangada_ledger_batch",
		"Moves per group-commit batch (db.GroupCommit): 1 under light load; near the cap when a hot balance row or the database is the bottleneck.",
		"Time of one group-commit batch's statement and commit, lock waits included.")
	subaccountBatches = newBatchHistograms("jangada_subaccount_batch",
		"Sub-account moves per group-commit batch (db.SubaccountGroup): 1 under light load; more when a sub-account's moves queue behind its lock.",
		"Time of one sub-account group-commit batch's statement and commit, lock waits included.")
	ledgerChecked = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "jangada_ledger_last_check_timestamp_seconds",
		Help: "Unix time of the last completed ledger check.",
	})
)

func init() {
	prometheus.MustRegister(eventsCommitted, ledgerProblems, ledgerChecked, ledgerBatches.moves, ledgerBatches.seconds,
		subaccountBatches.moves, subaccountBatches.seconds)
	// Every catalog event is on /metrics from the start, at 0: a rate over
	// a series that appears only with its first event misses that event.
	for _, e := range domain.Catalog {
		eventsCommitted.WithLabelValues(e)
	}
}

// countEvents hooks the events counter to the process's commits, once per
// process however many apps it runs.
var countEvents = sync.OnceFunc(func() {
	db.OnEventsCommitted(func(_ *sqlx.DB, evs []domain.Event) {
		for _, ev := range evs {
			eventsCommitted.WithLabelValues(ev.Type).Inc()
		}
	})
})

// CheckLedger runs the ledger check once and sets the gauges; it returns
// the problems found.
func CheckLedger(ctx context.Context, d *sqlx.DB) ([]string, error) {
	problems, err := db.VerifyLedger(ctx, d)
	if err != nil {
		return nil, err
	}
	ledgerProblems.Set(float64(len(problems)))
	ledgerChecked.SetToCurrentTime()
	return problems, nil
}

// watchLedger runs the ledger check every interval until ctx ends.
func watchLedger(ctx context.Context, d *sqlx.DB, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if problems, err := CheckLedger(ctx, d); err != nil && ctx.Err() == nil {
			slog.Warn("ledger check", "error", err)
		} else if len(problems) > 0 {
			slog.Error("ledger invariant violated", "problems", len(problems), "first", problems[0])
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// batchHistograms are one group commit's histograms: moves per batch
// (<prefix>_moves) and a batch's time (<prefix>_seconds).
type batchHistograms struct{ moves, seconds prometheus.Histogram }

func newBatchHistograms(prefix, movesHelp, secondsHelp string) batchHistograms {
	return batchHistograms{
		moves: prometheus.NewHistogram(prometheus.HistogramOpts{Name: prefix + "_moves", Help: movesHelp,
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64}}),
		seconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: prefix + "_seconds", Help: secondsHelp,
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)}),
	}
}

// sent records one batch.
func (h batchHistograms) sent(size int, took time.Duration) {
	h.moves.Observe(float64(size))
	h.seconds.Observe(took.Seconds())
}
