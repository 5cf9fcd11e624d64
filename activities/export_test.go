package activities

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

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
