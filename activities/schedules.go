package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/temporal"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/schedule"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/workflows"
)

// Schedules implements the schedule workflow's activities.
type Schedules struct {
	Svc *service.Schedules
}

// EnsureSchedule writes the schedule's row if the API died before committing it.
func (a *Schedules) EnsureSchedule(ctx context.Context, s schedule.Schedule) error {
	return db.InsertSchedule(ctx, a.Svc.DB, s)
}

// SaveSchedule writes the workflow's view of the schedule to its row; the
// workflow is the row's only writer after creation, so the last write wins.
func (a *Schedules) SaveSchedule(ctx context.Context, s schedule.Schedule) error {
	return db.SaveSchedule(ctx, a.Svc.DB, s)
}

// ScheduleBalance reads the account's available balance.
func (a *Schedules) ScheduleBalance(ctx context.Context, accountID string) (money.Cents, error) {
	b, err := db.GetBalance(ctx, a.Svc.DB, accountID)
	return b.Available, err
}

// RunSchedule makes one run. Business refusals become non-retryable errors
// of the types the workflow and the service understand; anything else is
// retried by the workflow's policy.
func (a *Schedules) RunSchedule(ctx context.Context, in workflows.RunInput) (schedule.RunResult, error) {
	res, err := a.Svc.Run(ctx, in.ScheduleID, in.RunNumber)
	var de *domain.Error
	switch {
	case err == nil:
		return res, nil
	case errors.Is(err, domain.ErrInsufficientBalance):
		return res, temporal.NewNonRetryableApplicationError(message(err), workflows.ErrTypeInsufficient, nil)
	case errors.As(err, &de) && !errors.Is(err, domain.ErrUnavailable):
		return res, temporal.NewNonRetryableApplicationError(de.Message, workflows.ErrTypeInvalid, nil)
	}
	return res, err
}

func message(err error) string {
	var de *domain.Error
	if errors.As(err, &de) {
		return de.Message
	}
	return err.Error()
}
