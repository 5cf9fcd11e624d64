package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/internal/clientip"
)

// Start runs the worker and the listeners; it returns once they accept work.
func (a *App) Start() error {
	for _, w := range []sdkworker.Worker{a.worker, a.hooks} {
		if w == nil {
			continue
		}
		if err := w.Start(); err != nil {
			return fmt.Errorf("worker: %w", err)
		}
	}
	a.startOutboxReaders()
	if err := a.startCodec(); err != nil {
		return err
	}
	if a.API == nil {
		if a.Cfg.AdminAddr != "" {
			var err error
			if a.AdminAddr, err = a.listen(a.Cfg.AdminAddr, a.workerOps()); err != nil {
				return fmt.Errorf("admin listener (JANGADA_ADMIN_ADDR): %w", err)
			}
		}
		return nil
	}
	var err error
	if a.HTTPAddr, err = a.listen(a.Cfg.HTTPAddr, a.traced(a.API.Handler())); err != nil {
		return err
	}
	if a.WSAddr, err = a.listen(a.Cfg.WSAddr, a.Hub); err != nil {
		return err
	}
	if a.Cfg.AdminAddr != "" {
		if a.AdminAddr, err = a.listen(a.Cfg.AdminAddr, a.API.AdminHandler()); err != nil {
			return fmt.Errorf("admin listener (JANGADA_ADMIN_ADDR): %w", err)
		}
	}
	return nil
}

// trustedProxies is cfg's JANGADA_TRUSTED_PROXIES (config.Load refused a
// bad list; a hand-built Config with one trusts nobody).
func trustedProxies(cfg config.Config) clientip.Trusted {
	t, err := clientip.Parse(cfg.TrustedProxies)
	if err != nil {
		slog.Error("trusted proxies ignored", "error", err)
	}
	return t
}

func (a *App) listen(addr string, h http.Handler) (string, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	// Every listener bounds how long a client may take: a slow or silent
	// client cannot hold a connection (or a goroutine) forever. The
	// WebSocket upgrade clears these deadlines for the connection's life,
	// whose own heartbeat then applies.
	c := a.Cfg
	srv := &http.Server{Handler: h, ReadHeaderTimeout: min(10*time.Second, c.HTTPReadTimeout), ReadTimeout: c.HTTPReadTimeout,
		WriteTimeout: c.HTTPWriteTimeout, IdleTimeout: c.HTTPIdleTimeout, MaxHeaderBytes: 64 << 10}
	a.servers = append(a.servers, srv)
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("listener stopped", "addr", addr, "error", err)
		}
	}()
	return l.Addr().String(), nil
}

// Shutdown drains HTTP, closes WebSockets, stops the worker (letting running
// activities finish), then closes the clients.
func (a *App) Shutdown(ctx context.Context) {
	for _, s := range a.servers {
		if err := s.Shutdown(ctx); err != nil {
			s.Close()
		}
	}
	a.Hub.Close()
	// Answered creates' starts finish (or time out, for the sweeper)
	// while the Temporal client is still open.
	a.Starts.Wait()
	a.stopOutboxReaders()
	for _, w := range []sdkworker.Worker{a.worker, a.hooks} {
		if w != nil {
			w.Stop()
		}
	}
	if a.ownClient {
		a.Temporal.Close()
	}
	a.budgets.close()
	db.Close(a.DB)
}

// startOutboxReaders runs the webhook dispatcher and the hub's tail; it
// returns once the tail holds its start position, so that every event
// committed after Start reaches this process's WebSocket clients.
func (a *App) startOutboxReaders() {
	ctx, cancel := context.WithCancel(context.Background())
	a.stopBg = cancel
	a.Notifier = &dispatch.Notifier{DB: a.DB, Origin: a.origin}
	a.bg.Add(1)
	go func() { defer a.bg.Done(); a.Notifier.Run(ctx) }()
	a.unhook = db.OnEventsCommitted(a.publish)
	if a.Dispatcher != nil {
		a.bg.Add(1)
		go func() { defer a.bg.Done(); a.Dispatcher.Run(ctx) }()
		// Worker processes also carry balance changes to threshold schedules.
		a.bg.Add(1)
		go func() { defer a.bg.Done(); a.Schedules.WatchBalances(ctx, a.Cfg.DatabaseURL) }()
		a.bg.Add(1)
		go func() { defer a.bg.Done(); a.purgeExpired(ctx) }()
		// Workers keep the ledger-invariant gauge current.
		a.bg.Add(1)
		go func() { defer a.bg.Done(); watchLedger(ctx, a.DB, LedgerCheckInterval) }()
		// Workers start the workflows that committed creates left behind.
		a.bg.Add(1)
		go func() { defer a.bg.Done(); a.IntentSweeper.Run(ctx, LaunchSweepInterval) }()
	}
	for _, warm := range a.lanes {
		a.bg.Add(1)
		go func() { defer a.bg.Done(); warmLane(ctx, warm) }()
	}
	if a.keyAuth != nil {
		a.bg.Add(1)
		go func() { defer a.bg.Done(); a.keyAuth.RecordUses(ctx, KeyUseInterval) }()
	}
	if a.Tail != nil {
		a.bg.Add(1)
		go func() { defer a.bg.Done(); a.Tail.Run(ctx) }()
		select {
		case <-a.Tail.Ready():
		case <-time.After(10 * time.Second):
			slog.Warn("event tail not ready after 10s; WebSocket events may start late")
		}
	}
}

// warmLane opens a group commit's connections and has PostgreSQL compile
// its batch functions on them, so that the process's first moves do not
// wait for it. A failure costs only that: the first batch does it.
func warmLane(ctx context.Context, warm func(context.Context) error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := warm(ctx); err != nil && ctx.Err() == nil {
		slog.Warn("warm a group commit's connection", "error", err)
	}
}

// KeyUseInterval is how often an API process writes its keys' last uses.
const KeyUseInterval = time.Minute

// purgeExpired forgets expired Idempotency-Key answers, old WebSocket
// acknowledgements, expired page sessions and old login attempts every
// hour: the tables clients grow stay
// bounded in time.
func (a *App) purgeExpired(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		for name, purge := range map[string]func(context.Context, *sqlx.DB) (int64, error){
			"idempotency keys": db.PurgeIdempotency, "websocket acks": db.PurgeWSAcks,
			"page sessions": db.PurgeSessions,
		} {
			if _, err := purge(ctx, a.DB); err != nil && ctx.Err() == nil {
				slog.Warn("purge "+name, "error", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (a *App) stopOutboxReaders() {
	if a.unhook != nil {
		a.unhook()
	}
	if a.stopBg != nil {
		a.stopBg()
		a.bg.Wait()
	}
}
