package app

import (
	"log/slog"

	"go.temporal.io/sdk/log"
)

// slogAdapter routes the SDK's logs through slog, at WARN and above: the SDK
// is chatty and its INFO lines drown request logs.
func slogAdapter() log.Logger {
	return log.NewStructuredLogger(slog.New(warnOnly{slog.Default().Handler()}))
}
