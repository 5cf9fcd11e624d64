package devserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	uiserver "github.com/temporalio/ui-server/v2/server"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/server/temporal"
)

// startTimeout bounds Start when the caller's context has no deadline, so a
// wedged server fails `make run` instead of hanging it.
const startTimeout = 2 * time.Minute

// Server is a running embedded Temporal (and optionally its Web UI). It must
// be stopped with Stop to release the ports and flush the SQLite WAL.
type Server struct {
	server       temporal.Server
	ui           *uiserver.Server
	frontendAddr string
	uiURL        string
	logLevel     *slog.LevelVar

	stopOnce sync.Once
	stopErr  error
}

// Start launches the server and returns once the frontend answers for the
// namespace and the search attributes are registered, so callers can create
// clients and workers immediately. It fails early if a requested port is
// already taken rather than letting the UI server exit the process.
func Start(ctx context.Context, o Options) (*Server, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, startTimeout)
		defer cancel()
	}
	logger, logLevel := quietLogger(o.Logger)

	if err := checkPortFree(o.FrontendIP, o.Port); err != nil {
		return nil, err
	}
	if o.UIPort != 0 {
		if err := checkPortFree(o.FrontendIP, o.UIPort); err != nil {
			return nil, err
		}
	}

	sqlConf, err := prepareStore(o)
	if err != nil {
		return nil, err
	}
	ports, err := pickPorts(o)
	if err != nil {
		return nil, err
	}
	conf := buildServerConfig(o, sqlConf, ports)
	opts, err := buildServerOptions(conf, ports, serverLogger{l: logger})
	if err != nil {
		return nil, err
	}
	ts, err := temporal.NewServer(opts...)
	if err != nil {
		return nil, fmt.Errorf("devserver: building server: %w", err)
	}
	if err := ts.Start(); err != nil {
		return nil, fmt.Errorf("devserver: starting server: %w", err)
	}

	s := &Server{server: ts, frontendAddr: hostPort(o.FrontendIP, o.Port), logLevel: logLevel}
	if err := s.awaitReady(ctx, o, logger); err != nil {
		return nil, s.abort(err)
	}

	if o.UIPort != 0 {
		s.ui = newUI(o, s.frontendAddr)
		s.uiURL = "http://" + net.JoinHostPort(uiHost(o.FrontendIP), strconv.Itoa(o.UIPort))
		if err := startUI(ctx, s.ui, s.uiURL); err != nil {
			return nil, s.abort(err)
		}
	}
	return s, nil
}

// abort tears down a server whose Start failed. Everything it logs while
// stopping a half-initialised server (pollers cancelled mid-flight, "frontend
// not healthy") is a consequence of err, which the caller already gets, so
// logging is switched off entirely.
func (s *Server) abort(err error) error {
	s.logLevel.Set(slog.LevelError + 100)
	return errors.Join(err, s.Stop())
}

// awaitReady polls DescribeNamespace until the frontend serves the
// namespace (server Start returns before the namespace cache is warm), then
// ensures the search attributes through the same client.
func (s *Server) awaitReady(ctx context.Context, o Options, logger *slog.Logger) error {
	var lastErr error
	for {
		c, err := client.DialContext(ctx, client.Options{
			HostPort:  s.frontendAddr,
			Namespace: o.Namespace,
			Logger:    sdklog.NewStructuredLogger(logger),
		})
		if err == nil {
			_, err = c.WorkflowService().DescribeNamespace(ctx,
				&workflowservice.DescribeNamespaceRequest{Namespace: o.Namespace})
			if err == nil {
				err = ensureSearchAttributes(ctx, c, o.Namespace, o.SearchAttributes)
				c.Close()
				return err
			}
			c.Close()
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("devserver: frontend at %s not ready: %w (last error: %v)", s.frontendAddr, ctx.Err(), lastErr)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// uiHost prefers "localhost" in the printed URL for loopback and wildcard
// binds: it is what developers expect to click, and a wildcard address is
// not something a browser can open.
func uiHost(ip string) string {
	if parsed := net.ParseIP(ip); parsed != nil && (parsed.IsLoopback() || parsed.IsUnspecified()) {
		return "localhost"
	}
	return ip
}

// FrontendAddress is the host:port SDK clients and workers dial.
func (s *Server) FrontendAddress() string { return s.frontendAddr }

// UIURL is the Web UI base URL to print for developers, or "" when the UI is
// disabled.
func (s *Server) UIURL() string { return s.uiURL }

// Stop shuts the UI down first (so it stops polling a dying frontend) and
// then the server. Server logs are limited to ERROR from here on: stopping
// the frontend before the internal worker service makes every system poller
// and client warn about lost connections, which is expected, not news.
// It is safe to call more than once.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		if s.logLevel.Level() < slog.LevelError {
			s.logLevel.Set(slog.LevelError)
		}
		if s.ui != nil {
			s.ui.Stop()
		}
		if err := s.server.Stop(); err != nil {
			s.stopErr = fmt.Errorf("devserver: stopping server: %w", err)
		}
	})
	return s.stopErr
}
