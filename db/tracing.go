package db

import (
	"context"
	"database/sql"
	"database/sql/driver"

	"github.com/XSAM/otelsql"
	"go.opentelemetry.io/otel/trace"
)

// OpenOption changes how Open connects.
type OpenOption func(*openConfig)

type openConfig struct{ tracer trace.TracerProvider }

// WithTracing makes every statement a span (otelsql) under the caller's
// span: a request's, or an activity's carried from it through Temporal.
// Statements with no span in their context (the outbox readers' polls, the
// sweepers) make none, so that traces hold what a request caused.
func WithTracing(tp trace.TracerProvider) OpenOption {
	return func(c *openConfig) { c.tracer = tp }
}

// openSQL opens the pool, instrumented when tracing is asked for.
func openSQL(dsn string, opts []OpenOption) (*sql.DB, error) {
	var c openConfig
	for _, o := range opts {
		o(&c)
	}
	if c.tracer == nil {
		return sql.Open("postgres", dsn)
	}
	return otelsql.Open("postgres", dsn, otelsql.WithTracerProvider(c.tracer),
		otelsql.WithSpanOptions(otelsql.SpanOptions{
			OmitConnResetSession: true, OmitRows: true, OmitConnectorConnect: true, DisableErrSkip: true,
			SpanFilter: func(ctx context.Context, _ otelsql.Method, _ string, _ []driver.NamedValue) bool {
				return trace.SpanContextFromContext(ctx).IsValid()
			},
		}))
}
