package activities

import (
	"context"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/sdk/temporal"

	"github.com/jangada/jangada/domain"
)

// ErrTypeReviewHold is the type of the non-retryable error a submit step
// returns for a withdrawal that security review did not approve.
const ErrTypeReviewHold = "ReviewHold"

// sendable re-reads a withdrawal (a PIX out or a crypto withdrawal) under
// its row lock just before it is sent, and answers whether to send it: it
// must be PENDING and either never held or approved by security review.
// The workflow's own input is not enough: a run restarted from the stored
// row after a reject committed (and before the reserve was returned)
// would see no hold and send. Refused, nothing is sent and the run fails
// (non-retryable); the reserve stays held for an operator.
func (b *Base) sendable(ctx context.Context, id string) (domain.Transaction, bool, error) {
	t, err := b.transition(ctx, id, func(*sqlx.Tx, *domain.Transaction) (change, error) { return change{}, nil })
	if err != nil || t.Status != domain.StatusPending {
		return t, false, err
	}
	if r := t.Details.V.SecurityReview; r != nil && (r.Pending || r.Decision != domain.DecisionApprove) {
		return t, false, temporal.NewNonRetryableApplicationError("withdrawal "+t.ID+" is not approved by security review: not sent",
			ErrTypeReviewHold, nil)
	}
	return t, true, nil
}
