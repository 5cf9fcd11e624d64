package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jangada/jangada/config"
)

func TestHealthURL(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"127.0.0.1:8082": "http://127.0.0.1:8082/readyz",
		"0.0.0.0:8082":   "http://127.0.0.1:8082/readyz",
		":8082":          "http://127.0.0.1:8082/readyz",
		"[::]:8082":      "http://127.0.0.1:8082/readyz",
		"[::1]:9000":     "http://[::1]:9000/readyz",
	} {
		if got, err := healthURL(addr, "/readyz"); err != nil || got != want {
			t.Errorf("healthURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
	if _, err := healthURL("", "/readyz"); err == nil {
		t.Error("an empty address was accepted")
	}
}

// The healthcheck passes on 200 and fails on anything else (a 503 from
// /readyz while PostgreSQL is away) or when nothing answers.
func TestRunHealth(t *testing.T) {
	t.Parallel()
	var ready atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/livez" || ready.Load() {
			w.Write([]byte(`{"status":"ok"}`))
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"status":"unavailable","checks":{"postgres":"connection refused"}}`))
	}))
	defer srv.Close()
	cfg := config.Config{AdminAddr: strings.TrimPrefix(srv.URL, "http://")}
	ctx := context.Background()
	if err := runHealth(ctx, cfg, nil); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("not ready: %v, want an error with the 503", err)
	}
	if err := runHealth(ctx, cfg, []string{"-path", "/livez"}); err != nil {
		t.Fatalf("livez: %v", err)
	}
	ready.Store(true)
	if err := runHealth(ctx, cfg, nil); err != nil {
		t.Fatalf("ready: %v", err)
	}
	srv.Close()
	if err := runHealth(ctx, cfg, []string{"-timeout", "1s"}); err == nil {
		t.Fatal("nothing listening, yet healthy")
	}
}
