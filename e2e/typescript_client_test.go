package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tsDir is the TypeScript client, from this package's directory.
const tsDir = "../clients/typescript"

// TestTypeScriptClient drives the TypeScript client (clients/typescript)
// against a running Jangada: its types must be what openapi-typescript
// makes of the document this server serves (else `make clients`), it must
// compile, and its drive (test/drive.ts) must take a charge to paid,
// receive its payment.paid over the WebSocket gateway with the events
// helper and ack it (the ack recorded here), refund it, pay a checkout and
// verify the charge's webhook, within a deadline. Node.js and npm are
// needed; -short skips it.
func TestTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the TypeScript client with node: not in -short")
	}
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not on PATH: the TypeScript client is driven in CI with Node.js 20 (and npm)")
	}
	dir, err := filepath.Abs(tsDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	began := time.Now()
	installed := npmCI(ctx, t, dir)
	t.Logf("npm ci: %v (%s)", time.Since(began).Round(time.Millisecond), installed)

	e := hookEnv(t) // deliveries to the drive's own receiver on 127.0.0.1
	m := e.verifiedMerchant()
	e.fund(m, 10) // a refund also pays the PIX out fee

	step := time.Now()
	res, err := http.Get(e.base + "/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /v1/openapi.json: %d %v", res.StatusCode, err)
	}
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "openapi.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	// What `npm run generate` does: openapi-typescript's one file, cut
	// into files of at most 450 lines (scripts/split-schema.mjs).
	run(ctx, t, dir, nil, node, "node_modules/openapi-typescript/bin/cli.js", filepath.Join(tmp, "openapi.json"), "--output", filepath.Join(tmp, "schema.full.ts"))
	run(ctx, t, dir, nil, node, "scripts/split-schema.mjs", filepath.Join(tmp, "schema.full.ts"), tmp)
	for _, name := range generatedTypes(t, tmp, filepath.Join(dir, "src")) {
		fresh, _ := os.ReadFile(filepath.Join(tmp, name))
		committed, _ := os.ReadFile(filepath.Join(dir, "src", name))
		if !bytes.Equal(fresh, committed) {
			t.Fatalf("clients/typescript/src/%s is stale (not what openapi-typescript makes of the served document): run make clients", name)
		}
	}
	t.Logf("types fresh: %v", time.Since(step).Round(time.Millisecond))

	step = time.Now()
	run(ctx, t, dir, nil, node, "node_modules/typescript/bin/tsc", "-p", ".")
	t.Logf("tsc: %v", time.Since(step).Round(time.Millisecond))

	step = time.Now()
	// Node.js 22 has a global WebSocket; 20 has it behind a flag.
	args := []string{"dist/test/drive.js"}
	if kind := run(ctx, t, dir, nil, node, "-e", "process.stdout.write(typeof WebSocket)"); kind != "function" {
		args = append([]string{"--experimental-websocket"}, args...)
	}
	out := run(ctx, t, dir, []string{"JANGADA_BASE_URL=" + e.base + "/v1", "JANGADA_API_KEY=" + m.Key, "JANGADA_WS_URL=" + e.ws}, node, args...)
	t.Logf("drive: %v\n%s", time.Since(step).Round(time.Millisecond), out)
	for _, want := range []string{"paid", "websocket payment.paid", "acked", "refund of", "checkout", "verified", "retries honoured Retry-After", "ok in"} {
		if !strings.Contains(out, want) {
			t.Errorf("the drive did not report %q", want)
		}
	}
	eventually(t, "the drive's ack to be recorded", func() bool {
		var n int
		e.app.DB.Get(&n, `SELECT count(*) FROM ws_acks WHERE api_key_id = $1`, m.KeyID)
		return n == 1
	})
	e.verifyLedger()
}

// generatedTypes are the generated type files (schema.ts and schema/*.ts)
// of both directories, relative to them.
func generatedTypes(t *testing.T, dirs ...string) []string {
	t.Helper()
	seen := map[string]bool{"schema.ts": true}
	for _, d := range dirs {
		chunks, err := filepath.Glob(filepath.Join(d, "schema", "*.ts"))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range chunks {
			seen[filepath.Join("schema", filepath.Base(c))] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// npmCI installs the locked dependencies (package-lock.json) unless the
// installed ones are from the same lock: a stamp beside them holds the
// lock's hash, so a second run on one machine costs nothing, and a clean
// clone or a changed lock installs afresh.
func npmCI(ctx context.Context, t *testing.T, dir string) string {
	t.Helper()
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(lock)
	stamp := filepath.Join(dir, "node_modules", ".jangada-lock")
	if old, err := os.ReadFile(stamp); err == nil && string(old) == hex.EncodeToString(sum[:]) {
		return "up to date"
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("npm is not on PATH: the TypeScript client's dependencies are installed with npm ci")
	}
	run(ctx, t, dir, nil, npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
	if err := os.WriteFile(stamp, []byte(hex.EncodeToString(sum[:])), 0o644); err != nil {
		t.Fatal(err)
	}
	return "installed"
}

// run runs a command in dir with env added, under ctx's deadline, and
// answers its output; a failure ends the test with that output.
func run(ctx context.Context, t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out)
}
