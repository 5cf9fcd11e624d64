package app

import (
	"context"
	"io"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/log"
)

// slogAdapter routes the SDK's logs through slog, at WARN and above: the SDK
// is chatty and its INFO lines drown request logs.
func slogAdapter() log.Logger {
	return log.NewStructuredLogger(slog.New(warnOnly{slog.Default().Handler()}))
}

// warnOnly filters a handler to WARN and above, also for derived loggers.
type warnOnly struct{ slog.Handler }

// Enabled implements slog.Handler.
func (h warnOnly) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

// WithAttrs implements slog.Handler.
func (h warnOnly) WithAttrs(a []slog.Attr) slog.Handler { return warnOnly{h.Handler.WithAttrs(a)} }

// WithGroup implements slog.Handler.
func (h warnOnly) WithGroup(n string) slog.Handler { return warnOnly{h.Handler.WithGroup(n)} }

// NewLogger is the process's logger: JSON lines on w at level and above,
// each with its trace ids (TraceLog). The binary writes them to stderr;
// a test hands a writer that also keeps them, to grep what was logged.
func NewLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(TraceLog(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})))
}

// TraceLog adds the trace and span ids of the record's context (when it
// holds a recorded span) to every log line, beside the request id the HTTP
// log line already carries, so a log line leads to its trace.
func TraceLog(h slog.Handler) slog.Handler { return traceLog{h} }

type traceLog struct{ slog.Handler }

// Handle implements slog.Handler.
func (h traceLog) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(slog.String("traceId", sc.TraceID().String()), slog.String("spanId", sc.SpanID().String()))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h traceLog) WithAttrs(a []slog.Attr) slog.Handler { return traceLog{h.Handler.WithAttrs(a)} }

// WithGroup implements slog.Handler.
func (h traceLog) WithGroup(n string) slog.Handler { return traceLog{h.Handler.WithGroup(n)} }
