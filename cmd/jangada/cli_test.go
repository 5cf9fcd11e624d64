package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jangada/jangada/db"
)

// The CLI is run as a user runs it: this test binary re-executes itself as
// jangada (JANGADA_CLI_TEST=1 makes it call main), so exit statuses and
// outputs are the real ones.
func init() {
	if os.Getenv("JANGADA_CLI_TEST") == "1" {
		os.Args = append([]string{"jangada"}, strings.Fields(os.Getenv("JANGADA_CLI_ARGS"))...)
		main()
		os.Exit(0)
	}
}

type cliRun struct {
	code           int
	stdout, stderr string
}

// jangada runs the CLI with args and the given environment; the database
// and Temporal addresses point nowhere, so a command that wrongly runs
// instead of printing its help fails.
func jangada(t *testing.T, env []string, args ...string) cliRun {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JANGADA_CLI_TEST=1", "JANGADA_CLI_ARGS="+strings.Join(args, " "),
		"JANGADA_DATABASE_URL=postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=1",
		"JANGADA_TEMPORAL_ADDRESS=", "JANGADA_ADMIN_TOKEN=", "JANGADA_PAYLOAD_KEY=")
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return cliRun{code, out.String(), errOut.String()}
}

// Help anywhere prints usage and exits 0, doing nothing else: migrate does
// not migrate, api and worker do not start.
func TestCLIHelpExitsZeroAndDoesNothing(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--help"}, {"-h"}, {"help"},
		{"migrate", "--help"}, {"dev", "--help"}, {"api", "--help"}, {"worker", "-h"}, {"temporal", "help"},
		{"health", "--help"}, {"codec", "-h"}, {"listen", "--help"},
		{"admin"}, {"admin", "help"}, {"admin", "--help"}, {"admin", "create-key", "--help"}, {"admin", "adjust", "-h"},
	} {
		r := jangada(t, nil, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "usage: jangada") {
			t.Errorf("jangada %v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	// Each admin command lists its own flags only.
	r := jangada(t, nil, "admin", "create-key", "-h")
	for _, want := range []string{"-account", "-permissions", "-name"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("create-key help lacks %s: %s", want, r.stdout)
		}
	}
	for _, other := range []string{"-email", "-amount", "-document"} {
		if strings.Contains(r.stdout, other) {
			t.Errorf("create-key help lists another command's flag %s: %s", other, r.stdout)
		}
	}
}

// Bad command lines are usage errors (exit 2) that reach no server.
func TestCLIUsageErrors(t *testing.T) {
	t.Parallel()
	var hits sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Store(r.Method+" "+r.URL.Path, r.Header.Get("X-Admin-Token"))
		io.WriteString(w, `{"success":true,"message":"ok","data":{},"requestId":"r"}`)
	}))
	defer srv.Close()
	env := []string{"JANGADA_ADMIN_URL=" + srv.URL, "JANGADA_DATA_DIR=" + t.TempDir()}
	for _, args := range [][]string{
		{}, {"bogus"}, {"admin", "bogus"}, {"admin", "create-key"}, {"admin", "create-key", "-nope"},
		{"admin", "adjust", "-account", "acc_1"}, {"admin", "revoke-key"}, {"migrate", "now"},
	} {
		r := jangada(t, env, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "usage: jangada") {
			t.Errorf("jangada %v: exit %d, want 2 with usage on stderr; stderr %q", args, r.code, r.stderr)
		}
	}
	hits.Range(func(k, _ any) bool {
		t.Errorf("a usage error reached the admin API: %v", k)
		return true
	})
}

// In dev the admin CLI finds the token jangada dev keeps in the data
// directory, and create-key posts to the account named.
func TestCLIAdminUsesTheDevToken(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("X-Admin-Token")+" "+string(body))
		mu.Unlock()
		io.WriteString(w, `{"success":true,"message":"ok","data":{},"requestId":"r"}`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	token, err := devSecret(dir, adminTokenFile, newTestToken)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"JANGADA_ADMIN_URL=" + srv.URL, "JANGADA_DATA_DIR=" + dir}
	if r := jangada(t, env, "admin", "create-key", "-account", "acc_1", "-permissions", "payment-pix/*"); r.code != 0 {
		t.Fatalf("create-key: exit %d, %s", r.code, r.stderr)
	}
	if r := jangada(t, env, "admin", "list-accounts", "-search", "demo"); r.code != 0 {
		t.Fatalf("list-accounts: exit %d, %s", r.code, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		`POST /admin/v1/accounts/acc_1/keys ` + token + ` {"name":"cli","permissions":["payment-pix/*"]}`,
		`GET /admin/v1/accounts?page=1&pageSize=20&search=demo ` + token + ` `,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func newTestToken() string { return "adm_test_token_0123456789" }

// A dev secret is made once, kept with mode 0600, and read back unchanged.
func TestDevSecretPersists(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	a, err := devSecret(dir, adminTokenFile, newTestToken)
	if err != nil {
		t.Fatal(err)
	}
	b, err := devSecret(dir, adminTokenFile, func() string { return "another" })
	if err != nil || a != b || a != newTestToken() {
		t.Fatalf("second read %q, first %q, %v", b, a, err)
	}
	st, err := os.Stat(filepath.Join(dir, adminTokenFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
}

func TestMigrateReport(t *testing.T) {
	t.Parallel()
	if s := migrateReport(dbState(0, 0), dbState(17, 23)); s != "migrated: applied 17 migration(s); the schema is at version 23" {
		t.Error(s)
	}
	if s := migrateReport(dbState(17, 23), dbState(17, 23)); !strings.HasPrefix(s, "nothing to migrate") {
		t.Error(s)
	}
}

func dbState(applied int, version int64) db.MigrationState {
	return db.MigrationState{Applied: applied, Version: version}
}
