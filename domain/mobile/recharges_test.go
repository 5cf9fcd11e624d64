package mobile

import (
	"errors"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
)

func TestCancellable(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status      string
		already     bool
		refused     bool
		canBeCancel bool
	}{
		{status: domain.StatusPending, canBeCancel: true},
		{status: domain.StatusCanceled, already: true},
		{status: domain.StatusCompleted, refused: true},
		{status: domain.StatusFailed, refused: true},
	} {
		rc := domain.Transaction{ID: "rch_1", Type: domain.TypeMobileRecharge, Status: tt.status}
		already, err := Cancellable(rc)
		if already != tt.already || (err != nil) != tt.refused {
			t.Errorf("%s: Cancellable = %v, %v; want already %v, refused %v", tt.status, already, err, tt.already, tt.refused)
		}
		if err != nil && !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%s: refusal %v is not a 400", tt.status, err)
		}
		if got := CanBeCancelled(rc); got != tt.canBeCancel {
			t.Errorf("%s: CanBeCancelled = %v", tt.status, got)
		}
	}
	if err := Delivered("rch_1"); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "delivered by the operator") {
		t.Errorf("Delivered = %v", err)
	}
}
