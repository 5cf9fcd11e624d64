package service

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/domain"
)

// signal sends a signal to a resource's workflow, the one way the API acts
// on a running payment. A workflow that has already closed answers with a
// 400 saying gone; Temporal being unreachable is a 503.
func signal(ctx context.Context, c client.Client, workflowID, name string, arg any, gone string) error {
	err := c.SignalWorkflow(ctx, workflowID, "", name, arg)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return domain.Invalidf("%s", gone)
	}
	if err != nil {
		return fmt.Errorf("%w: signal %s: %v", domain.ErrUnavailable, workflowID, err)
	}
	return nil
}
