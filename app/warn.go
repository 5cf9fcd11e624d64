package app

import (
	"context"
	"log/slog"
)

// warnOnly filters a handler to WARN and above.
type warnOnly struct{ slog.Handler }

// Enabled implements slog.Handler.
func (h warnOnly) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
