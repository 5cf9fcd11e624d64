// Package procs runs Jangada's own processes as children of a tool on this
// machine: the soak test and the load tool both start the production split
// (`jangada temporal`, `jangada api`, `jangada worker`) on loopback, stop
// it, and the soak kills and restarts its parts. Process logs go to files.
package procs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jangada/jangada/internal/freeport"
)

// Proc is one child process (temporal, an api, a worker): its command line
// and environment are fixed, so it can be killed and started again as the
// same role.
type Proc struct {
	// Name names the role in messages and the log header.
	Name string
	// Bin and Args are the command line, Env its whole environment.
	Bin  string
	Args []string
	Env  []string
	// Log receives stdout and stderr, appended across restarts.
	Log string
	// HTTPAddr and WSAddr are an api process's listeners (fixed across
	// restarts); the temporal process's HTTPAddr is its frontend.
	HTTPAddr, WSAddr string
	// AdminAddr is the operators' listener (/metrics, /livez) of an api or
	// worker process (fixed across restarts).
	AdminAddr string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when the current run exits
	runs int
}

// Start launches a new run of the process.
func (p *Proc) Start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	f, err := os.OpenFile(p.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	p.runs++
	fmt.Fprintf(f, "\n=== run %d of %s at %s ===\n", p.runs, p.Name, time.Now().UTC().Format(time.RFC3339Nano))
	cmd := exec.Command(p.Bin, p.Args...)
	cmd.Env = p.Env
	cmd.Stdout, cmd.Stderr = f, f
	// Its own process group: a Ctrl-C of the tool does not reach it
	// directly, the tool stops it; and it dies with the tool.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("start %s: %w", p.Name, err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		f.Close()
		close(done)
	}()
	p.cmd, p.done = cmd, done
	return nil
}

// Running reports whether the current run has not exited.
func (p *Proc) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done == nil {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Signal sends sig to the current run and waits (bounded) for it to exit;
// after the grace it is killed.
func (p *Proc) Signal(sig syscall.Signal, grace time.Duration) error {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return nil
	}
	select {
	case <-done:
		return nil
	default:
	}
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("signal %s: %w", p.Name, err)
	}
	select {
	case <-done:
		return nil
	case <-time.After(grace):
		cmd.Process.Kill()
		<-done
		return fmt.Errorf("%s did not exit within %v of %v: killed", p.Name, grace, sig)
	}
}

// Pid is the current run's process id.
func (p *Proc) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Getenv reads one variable of the process's environment.
func (p *Proc) Getenv(name string) string {
	for _, kv := range p.Env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// StopAll sends SIGTERM to every process at once and waits for them, each
// killed after grace: a teardown then takes one grace, not one per process.
func StopAll(grace time.Duration, ps ...*Proc) {
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() { defer wg.Done(); p.Signal(syscall.SIGTERM, grace) }()
	}
	wg.Wait()
}

// WaitReady polls an api process's /readyz (PostgreSQL and Temporal
// reachable, a worker polling both task queues) until it answers 200.
func WaitReady(ctx context.Context, p *Proc, within time.Duration) error {
	deadline := time.Now().Add(within)
	c := &http.Client{Timeout: 2 * time.Second}
	var last string
	for time.Now().Before(deadline) {
		if !p.Running() {
			return fmt.Errorf("%s exited while starting (log %s)", p.Name, p.Log)
		}
		res, err := c.Get("http://" + p.HTTPAddr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
			last = res.Status
		} else {
			last = err.Error()
		}
		if err := wait(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("%s not ready within %v: %s (log %s)", p.Name, within, last, p.Log)
}

// WaitLog polls the current run's part of p's log until it holds line, p
// exits, or the deadline: a process without a readiness endpoint
// (temporal) says when it is ready.
func WaitLog(ctx context.Context, p *Proc, line string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		b, _ := os.ReadFile(p.Log)
		// Only the current run's lines: a restarted process's log still
		// holds the line its earlier run wrote.
		if i := strings.LastIndex(string(b), "\n=== run "); i >= 0 {
			b = b[i:]
		}
		if strings.Contains(string(b), line) {
			return nil
		}
		if !p.Running() {
			return fmt.Errorf("%s exited while starting (log %s)", p.Name, p.Log)
		}
		wait(ctx, 100*time.Millisecond)
	}
	return fmt.Errorf("%s: no %q within %v (log %s)", p.Name, line, within, p.Log)
}

// wait sleeps d or until ctx ends, whose error it returns.
func wait(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// FreePort is an unused loopback port for a process to bind
// (freeport.Pick).
func FreePort() (int, error) { return freeport.Pick("127.0.0.1") }

// FreeAddr is 127.0.0.1:<a free port>.
func FreeAddr() (string, error) {
	port, err := FreePort()
	return "127.0.0.1:" + strconv.Itoa(port), err
}

// CleanEnv is the tool's environment without any JANGADA_ variable, so
// that the developer's own settings cannot leak into the children, plus
// vars (a later map wins over an earlier one).
func CleanEnv(vars ...map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JANGADA_") {
			env = append(env, kv)
		}
	}
	merged := map[string]string{}
	for _, m := range vars {
		for k, v := range m {
			merged[k] = v
		}
	}
	for k, v := range merged {
		env = append(env, k+"="+v)
	}
	return env
}

// Build builds the jangada binary with the embedded Temporal (build tag
// devserver) into a directory of dir named after this checkout, and
// returns its path; the go command does not relink an unchanged build.
// One directory per checkout: two worktrees' tools (a soak on a branch, a
// make test on main) running at once would otherwise overwrite each
// other's binary, and a process restarted by one would run the other's
// code.
func Build(ctx context.Context, dir string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(wd))
	dir = filepath.Join(dir, hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "jangada-devserver")
	cmd := exec.CommandContext(ctx, "go", "build", "-tags", "devserver", "-o", bin, "./cmd/jangada")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build -tags devserver ./cmd/jangada (run from the repository root): %w", err)
	}
	return bin, nil
}

// RunOnce runs bin with args and env to completion (migrate), bounded.
func RunOnce(ctx context.Context, bin string, env []string, logPath string, args ...string) error {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, f, f
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("jangada %s: %w (log %s)", strings.Join(args, " "), err, logPath)
	}
	return nil
}
