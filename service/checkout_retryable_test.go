package service

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jangada/jangada/domain"
)

// A stored session whose payment failed because its request went away or
// a dependency was down stays OPEN for the retry; a refusal expires it.
func TestCheckoutPaymentFailureLeavesTheSessionToItsRetry(t *testing.T) {
	t.Parallel()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"the caller went away", gone, fmt.Errorf("db: insert: %w", context.Canceled), true},
		{"a canceled statement on a live request", context.Background(), fmt.Errorf("db: insert: %w", context.Canceled), true},
		{"a deadline", context.Background(), fmt.Errorf("x: %w", context.DeadlineExceeded), true},
		{"a dependency down", context.Background(), fmt.Errorf("%w: temporal", domain.ErrUnavailable), true},
		{"a refusal", context.Background(), domain.Invalid("amount", "is too small"), false},
		{"another error", context.Background(), errors.New("processor said no"), false},
	} {
		if got := retryable(tc.ctx, tc.err); got != tc.want {
			t.Errorf("%s: retryable = %v, want %v", tc.name, got, tc.want)
		}
	}
}
