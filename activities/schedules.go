package activities

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/sdk/temporal"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/money"
)

//go:generate go tool mockgen -destination=activitiesmock/runner.go -package=activitiesmock . ScheduleRunner

// Application error types that carry a business refusal across Temporal (a
// run's activity, a workflow update); the service maps them back to
// domain errors (400).
const (
	ErrTypeInvalid      = "Invalid"
	ErrTypeInsufficient = "InsufficientBalance"
)

// ScheduleRunner makes one run of a schedule: the use case that creates the
// run's PIX out or internal transfer (service.Schedules).
type ScheduleRunner interface {
	Run(ctx context.Context, scheduleID string, n int) (schedule.RunResult, error)
}

// Schedules are the scheduled-transfer workflow's activities.
type Schedules struct {
	DB     *sqlx.DB
	Runner ScheduleRunner
}

// RunScheduleInput is one run: its number makes the transfer's
// externalReference, so that a retried activity finds the transfer instead
// of sending twice.
type RunScheduleInput struct {
	ScheduleID string
	RunNumber  int
}

// EnsureSchedule writes the schedule's row if it was not committed (a guard:
// creates commit it before they start the workflow).
func (a *Schedules) EnsureSchedule(ctx context.Context, s schedule.Schedule) error {
	return db.InsertSchedule(ctx, a.DB, s)
}

// SaveSchedule writes the workflow's view of the schedule to its row; the
// workflow is the row's only writer after creation, so the last write wins.
// A resume (the row not active, the view active) takes one of the
// account's active-schedule slots atomically with the write, so that no
// request holds the quota lock while it waits on the workflow.
func (a *Schedules) SaveSchedule(ctx context.Context, s schedule.Schedule) error {
	if s.Status != schedule.StatusActive {
		return db.SaveSchedule(ctx, a.DB, s)
	}
	err := db.InTx(ctx, a.DB, func(tx *sqlx.Tx) error {
		cur, err := db.GetSchedule(ctx, tx, "", s.ID)
		if err != nil {
			return err
		}
		if cur.Status != schedule.StatusActive {
			if err := RequireScheduleSlot(ctx, tx, s.AccountID, s.ID); err != nil {
				return err
			}
		}
		return db.SaveSchedule(ctx, tx, s)
	})
	return BusinessError(err)
}

// RequireScheduleSlot takes the account's schedule quota lock (until tx
// ends) and refuses one more active schedule beyond the limit; exceptID is
// the schedule being resumed. Create and resume share it.
func RequireScheduleSlot(ctx context.Context, tx *sqlx.Tx, accountID, exceptID string) error {
	if err := db.LockScheduleQuota(ctx, tx, accountID); err != nil {
		return err
	}
	n, err := db.CountActiveSchedules(ctx, tx, accountID, exceptID)
	if err != nil {
		return err
	}
	if n >= schedule.MaxActivePerAccount {
		return domain.Invalidf("the account has %d active scheduled transfers, the most allowed: pause or cancel one first", n)
	}
	return nil
}

// ScheduleBalance reads the account's available balance.
func (a *Schedules) ScheduleBalance(ctx context.Context, accountID string) (money.Cents, error) {
	b, err := db.GetBalance(ctx, a.DB, accountID)
	return b.Available, err
}

// RunSchedule makes one run. Business refusals become non-retryable errors
// of the types the workflow and the service understand; anything else is
// retried by the workflow's policy.
func (a *Schedules) RunSchedule(ctx context.Context, in RunScheduleInput) (schedule.RunResult, error) {
	res, err := a.Runner.Run(ctx, in.ScheduleID, in.RunNumber)
	return res, BusinessError(err)
}

// BusinessError turns a business refusal into a non-retryable application
// error of type ErrTypeInsufficient or ErrTypeInvalid, keeping its message;
// other errors (the database, Temporal) pass unchanged, to be retried.
func BusinessError(err error) error {
	var de *domain.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, domain.ErrInsufficientBalance) && errors.As(err, &de):
		return temporal.NewNonRetryableApplicationError(de.Message, ErrTypeInsufficient, nil)
	case errors.Is(err, domain.ErrInsufficientBalance):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInsufficient, nil)
	case errors.As(err, &de) && !errors.Is(err, domain.ErrUnavailable):
		return temporal.NewNonRetryableApplicationError(de.Message, ErrTypeInvalid, nil)
	}
	return err
}
