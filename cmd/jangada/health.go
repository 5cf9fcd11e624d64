package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/jangada/jangada/config"
)

// runHealth is the container healthcheck (the image has no curl): it asks
// this process's operators' listener (JANGADA_ADMIN_ADDR) for /readyz —
// for an api, PostgreSQL, Temporal and a polling worker; for a worker,
// PostgreSQL, Temporal and its own pollers — and fails unless it answers
// 200. -path /livez asks only whether the process is up.
func runHealth(ctx context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("health", flag.ContinueOnError)
	addr := fs.String("addr", cfg.AdminAddr, "the operators' listener to ask (default JANGADA_ADMIN_ADDR)")
	path := fs.String("path", "/readyz", "/readyz (ready to serve) or /livez (process up)")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	u, err := healthURL(*addr, *path)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %d: %s", u, res.StatusCode, strings.TrimSpace(string(body)))
	}
	fmt.Println(strings.TrimSpace(string(body)))
	return nil
}

// healthURL turns a listen address into one to dial from the same host:
// a wildcard or empty host (":8082", "0.0.0.0:8082", "[::]:8082") is
// reached at 127.0.0.1.
func healthURL(addr, path string) (string, error) {
	if addr == "" {
		return "", fmt.Errorf("health: no operators' listener (JANGADA_ADMIN_ADDR is empty; give -addr)")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("health: bad address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return "http://" + net.JoinHostPort(host, port) + path, nil
}
