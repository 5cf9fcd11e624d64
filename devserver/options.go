package devserver

import (
	"errors"
	"fmt"
	"log/slog"
	"net"

	"go.temporal.io/api/enums/v1"
)

// Options configures the embedded server. Zero values pick the defaults of
// `temporal server start-dev` (so SDK clients work with stock settings),
// except UIPort, where zero means no UI.
type Options struct {
	// DataDir holds the SQLite file (DataDir/temporal.db). It is created if
	// missing; reusing it across runs is what keeps history between restarts.
	DataDir string
	// InMemory keeps the store in memory (SQLite, shared cache), as
	// `temporal server start-dev` does without --db-filename: nothing
	// survives a restart and DataDir is not used. The load tool's figures
	// are taken on this shape (docs/performance.md).
	InMemory bool
	// Namespace is registered before the server starts if it does not exist
	// yet, so workers can connect immediately. Retention is 24h.
	Namespace string
	// FrontendIP is the address every service binds to; defaults to
	// 127.0.0.1 so nothing is exposed beyond the machine.
	FrontendIP string
	// Port is the frontend gRPC port; defaults to 7233, the SDK default.
	Port int
	// UIPort is the Web UI HTTP port. Unlike Port, 0 is not replaced by a
	// default: it disables the UI (tests and headless runs don't need it).
	// Callers wanting the usual UI pass DefaultUIPort (8233).
	UIPort int
	// SearchAttributes are custom search attributes ensured on Namespace at
	// every start. Already-registered names are left alone so restarts are
	// idempotent; a name registered with a different type is an error
	// because SQL visibility cannot change a column's type.
	SearchAttributes map[string]enums.IndexedValueType
	// CodecEndpoint, when set, is the remote codec the Web UI calls to show
	// sealed payloads (Jangada's API serves it at /codec in dev).
	CodecEndpoint string
	// Logger receives the server's WARN-and-above logs only: Temporal is
	// very chatty at INFO and that drowns the application's own logs.
	// Nil means slog.Default().
	Logger *slog.Logger
}

// Defaults match `temporal server start-dev` so stock SDK and UI settings
// work unchanged. DefaultUIPort is not applied automatically (UIPort 0 means
// "no UI"); it is exported for callers' flag defaults.
const (
	DefaultFrontendIP = "127.0.0.1"
	DefaultPort       = 7233
	DefaultUIPort     = 8233
	dbFileName        = "temporal.db"
)

// withDefaults validates o and fills in defaults, returning a copy so the
// caller's struct is never mutated behind its back.
func (o Options) withDefaults() (Options, error) {
	if o.DataDir == "" && !o.InMemory {
		return o, errors.New("devserver: DataDir is required")
	}
	if o.Namespace == "" {
		return o, errors.New("devserver: Namespace is required")
	}
	if o.FrontendIP == "" {
		o.FrontendIP = DefaultFrontendIP
	}
	if net.ParseIP(o.FrontendIP) == nil {
		return o, fmt.Errorf("devserver: FrontendIP %q is not an IP address", o.FrontendIP)
	}
	if o.Port == 0 {
		o.Port = DefaultPort
	}
	if o.Port < 0 || o.Port > 65535 || o.UIPort < 0 || o.UIPort > 65535 {
		return o, fmt.Errorf("devserver: invalid port (frontend %d, UI %d)", o.Port, o.UIPort)
	}
	if o.UIPort != 0 && o.UIPort == o.Port {
		return o, fmt.Errorf("devserver: frontend and UI both use port %d", o.Port)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o, nil
}
