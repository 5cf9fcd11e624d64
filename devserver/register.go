package devserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"google.golang.org/protobuf/types/known/durationpb"
)

// NamespaceRetention is how long a cluster keeps closed workflows listed:
// the retention the compose file's namespace job sets (its test holds the
// two equal).
const NamespaceRetention = 720 * time.Hour

// RegisterNamespace does what a deployment's namespace job does through
// the frontend (`temporal operator namespace create`, then the search
// attributes through the operator API): it registers namespace with
// retention when it is missing and adds the search attributes it lacks,
// then waits until every frontend in frontends serves both. Each node
// caches namespaces and refreshes its cache every few seconds: a worker
// started on another node before that would be told the namespace does
// not exist. Running it again changes nothing.
func RegisterNamespace(ctx context.Context, frontends []string, namespace string, retention time.Duration, attrs map[string]enums.IndexedValueType, logger *slog.Logger) error {
	if len(frontends) == 0 {
		return errors.New("devserver: no frontend to register the namespace on")
	}
	if logger == nil {
		logger = slog.Default()
	}
	l, _ := quietLogger(logger)
	dial := func(addr string) (client.Client, error) {
		return client.DialContext(ctx, client.Options{HostPort: addr, Namespace: namespace, Logger: sdklog.NewStructuredLogger(l)})
	}
	c, err := dial(frontends[0])
	if err != nil {
		return fmt.Errorf("devserver: frontend %s: %w", frontends[0], err)
	}
	defer c.Close()
	_, err = c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
	var notFound *serviceerror.NamespaceNotFound
	if errors.As(err, &notFound) {
		_, err = c.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
			Namespace: namespace, WorkflowExecutionRetentionPeriod: durationpb.New(retention),
		})
		var exists *serviceerror.NamespaceAlreadyExists
		if errors.As(err, &exists) {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("devserver: namespace %q: %w", namespace, err)
	}
	for _, addr := range frontends {
		fc, err := dial(addr)
		if err != nil {
			return fmt.Errorf("devserver: frontend %s: %w", addr, err)
		}
		err = waitNamespace(ctx, fc, namespace)
		if err == nil && addr == frontends[0] {
			err = ensureSearchAttributes(ctx, fc, namespace, attrs)
		}
		if err == nil {
			err = waitSearchAttributes(ctx, fc, namespace, attrs)
		}
		fc.Close()
		if err != nil {
			return fmt.Errorf("devserver: frontend %s: %w", addr, err)
		}
	}
	return nil
}

// waitNamespace polls one frontend until its namespace cache holds the
// namespace: DescribeNamespace reads the store and answers before the cache
// does, the operator API (ListSearchAttributes) reads the cache.
func waitNamespace(ctx context.Context, c client.Client, namespace string) error {
	for {
		_, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("namespace %q not served: %w (last error: %v)", namespace, ctx.Err(), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// waitSearchAttributes polls one frontend until it lists every attribute.
func waitSearchAttributes(ctx context.Context, c client.Client, namespace string, attrs map[string]enums.IndexedValueType) error {
	for {
		missing, err := missingSearchAttributes(ctx, c, namespace, attrs)
		if err == nil && len(missing) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("search attributes %v not served: %w (last error: %v)", keys(missing), ctx.Err(), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
