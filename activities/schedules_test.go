package activities_test

import (
	"errors"
	"fmt"
	"testing"

	"go.temporal.io/sdk/temporal"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/activities/activitiesmock"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
)

func TestRunScheduleMapsBusinessErrors(t *testing.T) {
	t.Parallel()
	dbDown := errors.New("db: connection refused")
	unavailable := fmt.Errorf("%w: start transfer/x: deadline exceeded", domain.ErrUnavailable)
	tests := []struct {
		name    string
		err     error
		errType string // "" means passed through unchanged
		message string
	}{
		{"insufficient", domain.Insufficient("insufficient balance: R$ 10,00 needed"), activities.ErrTypeInsufficient, "insufficient balance: R$ 10,00 needed"},
		{"insufficient wrapped", fmt.Errorf("run 3: %w", domain.Insufficient("short")), activities.ErrTypeInsufficient, "short"},
		{"bare insufficient sentinel", fmt.Errorf("reserve: %w", domain.ErrInsufficientBalance), activities.ErrTypeInsufficient, "reserve: insufficient balance"},
		{"invalid", domain.Invalid("payload.amount", "must be greater than the PIX fee"), activities.ErrTypeInvalid, "payload.amount must be greater than the PIX fee"},
		{"invalid wrapped", fmt.Errorf("run 2: %w", domain.Invalid("recipientEmail", "is not a Jangada account")), activities.ErrTypeInvalid, "recipientEmail is not a Jangada account"},
		{"other error", dbDown, "", ""},
		{"unavailable", unavailable, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runner := activitiesmock.NewMockScheduleRunner(gomock.NewController(t))
			runner.EXPECT().Run(gomock.Any(), "sch_1", 3).Return(schedule.RunResult{}, tt.err).Times(1)
			a := &activities.Schedules{Runner: runner}
			_, err := a.RunSchedule(t.Context(), activities.RunScheduleInput{ScheduleID: "sch_1", RunNumber: 3})
			if tt.errType == "" {
				if err != tt.err {
					t.Fatalf("RunSchedule error = %#v, want %#v unchanged", err, tt.err)
				}
				return
			}
			var ae *temporal.ApplicationError
			if !errors.As(err, &ae) {
				t.Fatalf("RunSchedule error = %#v, want a *temporal.ApplicationError", err)
			}
			if ae.Type() != tt.errType || !ae.NonRetryable() || ae.Message() != tt.message {
				t.Fatalf("application error = type %q, non-retryable %v, message %q; want %q, true, %q",
					ae.Type(), ae.NonRetryable(), ae.Message(), tt.errType, tt.message)
			}
		})
	}
}

func TestRunScheduleReturnsTheRun(t *testing.T) {
	t.Parallel()
	want := schedule.RunResult{RunNumber: 1, TransactionID: "tx1", Type: domain.TypePixOut, Status: domain.StatusPending, Amount: 2550}
	runner := activitiesmock.NewMockScheduleRunner(gomock.NewController(t))
	runner.EXPECT().Run(gomock.Any(), "sch_2", 1).Return(want, nil)
	got, err := (&activities.Schedules{Runner: runner}).RunSchedule(t.Context(), activities.RunScheduleInput{ScheduleID: "sch_2", RunNumber: 1})
	if err != nil || got != want {
		t.Fatalf("RunSchedule = %+v, %v; want %+v", got, err, want)
	}
}
