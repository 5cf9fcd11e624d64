package activities

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// CompleteAtForTest runs a transition of id that completes it at at, kept
// to the nanosecond (no use case makes such a time: domain.NewTime keeps
// microseconds), and writes event: the case of a record whose stored row
// says otherwise than the events made from it.
func (b *Base) CompleteAtForTest(ctx context.Context, id string, at time.Time, event string) (domain.Transaction, error) {
	return b.transition(ctx, id, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		t.Status, t.CompletedAt = domain.StatusCompleted, &domain.Time{Time: at}
		return emit(event), nil
	})
}

// The generic step (lockStep, runStep), for its table test.

// StepChange is what a step's apply answers (change).
type StepChange = change

// StepRecords are a kind of record a step moves (records).
type StepRecords[T any] = records[T]

// Moved is a change that stores the record with these events (emit).
func Moved(events ...string) StepChange { return emit(events...) }

// Also adds other records' events (change.with).
func (c change) Also(evs ...db.NewEvent) change { return c.with(evs) }

// Posting hands the step's posting back (change.posting).
func (c change) Posting(p db.Posting) change { return c.posting(&p) }

// The records of the kinds the step's table test moves.
var (
	BillingRecords = billingRecords
	InvoiceRecords = invoiceRecords
)

// TransactionRecords are the transactions table's records, stored in one
// statement (Base.transition's).
func (b *Base) TransactionRecords() StepRecords[domain.Transaction] {
	return b.transactionRecords(true)
}

// RunStep is runStep.
func RunStep[T any](ctx context.Context, d *sqlx.DB, id string, r StepRecords[T], apply func(*sqlx.Tx, *T) (StepChange, error)) (T, bool, error) {
	return runStep(ctx, d, id, r, apply)
}

// LockStep is lockStep.
func LockStep[T any](ctx context.Context, tx *sqlx.Tx, id string, r StepRecords[T], apply func(*sqlx.Tx, *T) (StepChange, error)) (T, bool, error) {
	return lockStep(ctx, tx, id, r, apply)
}
