package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc is one child process of the split (temporal, an api, a worker):
// its command line and environment are fixed, so it can be killed and
// started again as the same role.
type proc struct {
	name string
	bin  string
	args []string
	env  []string
	log  string // stdout and stderr, appended across restarts

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when the current run exits
	runs int

	// httpAddr and wsAddr are an api process's listeners (fixed across restarts).
	httpAddr, wsAddr string
}

// start launches a new run of the process.
func (p *proc) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	p.runs++
	fmt.Fprintf(f, "\n=== soak: run %d of %s at %s ===\n", p.runs, p.name, time.Now().UTC().Format(time.RFC3339Nano))
	cmd := exec.Command(p.bin, p.args...)
	cmd.Env = p.env
	cmd.Stdout, cmd.Stderr = f, f
	// Its own process group: a Ctrl-C of the soak does not reach it
	// directly, the soak stops it; and it dies with the soak.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("start %s: %w", p.name, err)
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

// running reports whether the current run has not exited.
func (p *proc) running() bool {
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

// signal sends sig to the current run and waits (bounded) for it to exit;
// after the grace it is killed.
func (p *proc) signal(sig syscall.Signal, grace time.Duration) error {
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
		return fmt.Errorf("signal %s: %w", p.name, err)
	}
	select {
	case <-done:
		return nil
	case <-time.After(grace):
		cmd.Process.Kill()
		<-done
		return fmt.Errorf("%s did not exit within %v of %v: killed", p.name, grace, sig)
	}
}

// pid is the current run's process id.
func (p *proc) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// freePort asks the kernel for an unused loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// freeAddr is 127.0.0.1:<a free port>.
func freeAddr() (string, error) {
	port, err := freePort()
	return "127.0.0.1:" + strconv.Itoa(port), err
}

// cleanEnv is the soak's environment without any JANGADA_ variable, so
// that the developer's own settings cannot leak into the children.
func cleanEnv(extra map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JANGADA_") {
			env = append(env, kv)
		}
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// buildBinary builds the jangada binary with the embedded Temporal into
// the user's cache directory, where an unchanged build is not relinked.
func buildBinary(ctx context.Context) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "jangada-soak")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "jangada-devserver")
	cmd := exec.CommandContext(ctx, "go", "build", "-tags", "devserver", "-o", bin, "./cmd/jangada")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build -tags devserver ./cmd/jangada (run the soak from the repository root): %w", err)
	}
	return bin, nil
}

// runOnce runs bin with args and env to completion (migrate), bounded.
func runOnce(ctx context.Context, bin string, env []string, logPath string, args ...string) error {
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

// waitReady polls an api process's /readyz (PostgreSQL and Temporal
// reachable, a worker polling both task queues) until it answers 200.
func waitReady(ctx context.Context, p *proc, within time.Duration) error {
	deadline := time.Now().Add(within)
	c := &http.Client{Timeout: 2 * time.Second}
	var last string
	for time.Now().Before(deadline) {
		if !p.running() {
			return fmt.Errorf("%s exited while starting (log %s)", p.name, p.log)
		}
		res, err := c.Get("http://" + p.httpAddr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
			last = res.Status
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s not ready within %v: %s (log %s)", p.name, within, last, p.log)
}
