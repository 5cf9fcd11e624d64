package app

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// workerOps is the operators' listener of a process without the API (a
// worker): the same /livez, /readyz and /metrics as the API's admin
// listener, so that `jangada health` and Prometheus treat both alike.
// /readyz here means: PostgreSQL and the Temporal frontend answer, the
// process's workers poll.
func (a *App) workerOps() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /livez", func(w http.ResponseWriter, _ *http.Request) {
		writeHealth(w, http.StatusOK, map[string]any{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
		defer cancel()
		checks := map[string]string{}
		if err := a.DB.PingContext(ctx); err != nil {
			checks["postgres"] = err.Error()
		}
		if _, err := a.Temporal.CheckHealth(ctx, nil); err != nil {
			checks["temporal"] = err.Error()
		}
		if a.worker != nil {
			// This process's own pollers count: a worker is ready once its
			// task queues have pollers (it is one of them).
			if err := a.workerReady(ctx); err != nil {
				checks["worker"] = err.Error()
			}
		}
		if len(checks) > 0 {
			writeHealth(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "checks": checks})
			return
		}
		writeHealth(w, http.StatusOK, map[string]any{"status": "ok"})
	})
	mux.Handle("GET /metrics", promhttp.Handler())
	return mux
}

func writeHealth(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}
