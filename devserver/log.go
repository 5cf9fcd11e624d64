package devserver

import (
	"context"
	"log/slog"

	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
)

// minLevelHandler drops records below min regardless of what the wrapped
// handler would accept. The server also hands its slog.Logger to libraries
// directly (via log.SLogWrapper), so filtering must live in the handler, not
// only in the tag-based adapter below. min is a LevelVar so Stop can raise it.
type minLevelHandler struct {
	slog.Handler
	min *slog.LevelVar
}

func (h minLevelHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min.Level() && h.Handler.Enabled(ctx, l)
}

func (h minLevelHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < h.min.Level() {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h minLevelHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevelHandler{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

func (h minLevelHandler) WithGroup(name string) slog.Handler {
	return minLevelHandler{Handler: h.Handler.WithGroup(name), min: h.min}
}

// quietLogger returns base restricted to WARN and above, tagged so the
// embedded server's lines are distinguishable from the application's. The
// returned LevelVar lets Stop silence the warnings every shutdown produces
// (internal pollers and clients losing the frontend they are stopping).
func quietLogger(base *slog.Logger) (*slog.Logger, *slog.LevelVar) {
	lv := &slog.LevelVar{}
	lv.Set(slog.LevelWarn)
	l := slog.New(minLevelHandler{Handler: base.Handler(), min: lv}).
		With("component", "temporal-devserver")
	return l, lv
}

// serverLogger adapts slog to Temporal's tag-based log.Logger.
type serverLogger struct{ l *slog.Logger }

var (
	_ log.Logger      = serverLogger{}
	_ log.SLogWrapper = serverLogger{}
)

func (s serverLogger) Debug(msg string, tags ...tag.Tag) { s.log(slog.LevelDebug, msg, tags) }
func (s serverLogger) Info(msg string, tags ...tag.Tag)  { s.log(slog.LevelInfo, msg, tags) }
func (s serverLogger) Warn(msg string, tags ...tag.Tag)  { s.log(slog.LevelWarn, msg, tags) }
func (s serverLogger) Error(msg string, tags ...tag.Tag) { s.log(slog.LevelError, msg, tags) }

// DPanic, Panic and Fatal are logged as errors instead of crashing: an
// embedded dev server must never take the host process down with it.
func (s serverLogger) DPanic(msg string, tags ...tag.Tag) { s.log(slog.LevelError, msg, tags) }
func (s serverLogger) Panic(msg string, tags ...tag.Tag)  { s.log(slog.LevelError, msg, tags) }
func (s serverLogger) Fatal(msg string, tags ...tag.Tag)  { s.log(slog.LevelError, msg, tags) }

func (s serverLogger) SLog() *slog.Logger { return s.l }

func (s serverLogger) log(level slog.Level, msg string, tags []tag.Tag) {
	ctx := context.Background()
	if !s.l.Enabled(ctx, level) {
		return // skip materialising tag values, some are costly
	}
	attrs := make([]slog.Attr, len(tags))
	for i, t := range tags {
		attrs[i] = slog.Any(t.Key(), t.Value())
	}
	s.l.LogAttrs(ctx, level, msg, attrs...)
}
