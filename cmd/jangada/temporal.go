//go:build devserver

package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/devserver"
	"github.com/jangada/jangada/workflows"
)

// runTemporal runs only the embedded Temporal dev server (SQLite under
// JANGADA_DATA_DIR/temporal, frontend on 127.0.0.1:JANGADA_DEV_TEMPORAL_PORT,
// Web UI on JANGADA_DEV_TEMPORAL_UI_PORT, 0 for none) with Jangada's search
// attributes, until SIGINT/SIGTERM: the Temporal of a production-shaped
// split on one machine (`jangada api` and `jangada worker` processes with
// JANGADA_TEMPORAL_ADDRESS pointing at it), as the soak test runs it.
//
// With -store postgres it is instead a node of a Temporal cluster on
// PostgreSQL, or one of the cluster's set-up steps (temporal_cluster.go).
func runTemporal(ctx context.Context, cfg config.Config, args []string) error {
	f, err := parseTemporal(args)
	if err != nil {
		return err
	}
	if f.store == "postgres" {
		return runTemporalCluster(ctx, cfg, f)
	}
	dir, err := filepath.Abs(filepath.Join(cfg.DataDir, "temporal"))
	if err != nil {
		return err
	}
	srv, err := devserver.Start(ctx, devserver.Options{
		DataDir: dir, Namespace: cfg.TemporalNamespace, Port: cfg.DevTemporalPort, UIPort: cfg.DevTemporalUIPort,
		SearchAttributes: workflows.SearchAttributes(), Logger: slog.Default(),
	})
	if err != nil {
		return fmt.Errorf("embedded temporal: %w", err)
	}
	fmt.Printf("temporal ready: frontend %s, namespace %s, UI %q\n", srv.FrontendAddress(), cfg.TemporalNamespace, srv.UIURL())
	<-ctx.Done()
	return srv.Stop()
}
