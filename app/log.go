package app

import (
	"context"
	"log/slog"

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
