package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jangada/jangada/internal/procs"
	"github.com/lib/pq"
)

// postgres is the soak's PostgreSQL: a private cluster the soak owns (and
// may really restart), or the machine's shared server, where a restart is
// simulated on the soak's own database only.
type postgres struct {
	// private is true for a cluster started by the soak under dir.
	private bool
	bindir  string
	dir     string
	port    int
	asPG    []string // runuser prefix when the soak runs as root
	log     string

	adminURL string // the maintenance database
	dbName   string
	dbURL    string
}

// restartMethod describes, in the output, what "PostgreSQL restart" means
// for this run.
func (p *postgres) restartMethod() string {
	if p.private {
		return "real restart of the soak's private PostgreSQL cluster (pg_ctl stop -m immediate, down 3 s, pg_ctl start)"
	}
	return "simulated on the shared server: every backend of the soak database terminated (pg_terminate_backend) and new connections refused (ALLOW_CONNECTIONS false) for 3 s"
}

// findPGBin finds a directory with initdb and pg_ctl.
func findPGBin() string {
	var dirs []string
	if p, err := exec.LookPath("initdb"); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	dirs = append(dirs, m...)
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "pg_ctl")) {
			return d
		}
	}
	return ""
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode()&0o111 != 0
}

// startPrivate initialises and starts a cluster under dir on a free
// loopback port (trust authentication, user postgres, no Unix socket).
// initdb refuses to run as root, so as root the cluster runs as the
// postgres system user.
func startPrivate(ctx context.Context, tmp string) (*postgres, error) {
	p := &postgres{private: true, bindir: findPGBin(), dir: filepath.Join(tmp, "pgdata"), log: filepath.Join(tmp, "postgres.log")}
	if p.bindir == "" {
		return nil, fmt.Errorf("initdb and pg_ctl not found")
	}
	port, err := procs.FreePort()
	if err != nil {
		return nil, err
	}
	p.port = port
	if err := os.MkdirAll(p.dir, 0o700); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root and no postgres user to run the cluster as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chmod(tmp, 0o755); err != nil {
			return nil, err
		}
		for _, f := range []string{p.dir, p.log} {
			if f == p.log {
				os.WriteFile(f, nil, 0o644)
			}
			if err := os.Chown(f, uid, gid); err != nil {
				return nil, err
			}
		}
		p.asPG = []string{"runuser", "-u", "postgres", "--"}
	}
	if out, err := p.run(ctx, "initdb", "-D", p.dir, "-U", "postgres", "--auth=trust", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %w: %s", err, out)
	}
	if err := p.start(ctx); err != nil {
		return nil, err
	}
	p.adminURL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	return p, nil
}

func (p *postgres) run(ctx context.Context, tool string, args ...string) ([]byte, error) {
	argv := append(append([]string{}, p.asPG...), filepath.Join(p.bindir, tool))
	argv = append(argv, args...)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
}

func (p *postgres) start(ctx context.Context) error {
	opts := fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=300 -c fsync=off -c shared_buffers=64MB", p.port)
	if out, err := p.run(ctx, "pg_ctl", "-D", p.dir, "-l", p.log, "-o", opts, "-w", "-t", "60", "start"); err != nil {
		return fmt.Errorf("pg_ctl start: %w: %s (log %s)", err, out, p.log)
	}
	return nil
}

// shared uses the PostgreSQL at adminURL.
func shared(adminURL string) *postgres { return &postgres{adminURL: adminURL} }

// createDatabase makes the soak's fresh database (jangada_soak_<random>).
func (p *postgres) createDatabase() error {
	b := make([]byte, 5)
	rand.Read(b)
	p.dbName = "jangada_soak_" + hex.EncodeToString(b)
	u, err := url.Parse(p.adminURL)
	if err != nil {
		return err
	}
	d, err := sql.Open("postgres", p.adminURL)
	if err != nil {
		return err
	}
	defer d.Close()
	if _, err := d.Exec("CREATE DATABASE " + pq.QuoteIdentifier(p.dbName)); err != nil {
		return fmt.Errorf("create database on %s: %w", u.Host, err)
	}
	u.Path = "/" + p.dbName
	p.dbURL = u.String()
	return nil
}

// restart is the PostgreSQL fault: see restartMethod. It returns once the
// database accepts connections again.
func (p *postgres) restart(ctx context.Context, down time.Duration) error {
	if p.private {
		if out, err := p.run(ctx, "pg_ctl", "-D", p.dir, "-m", "immediate", "-w", "stop"); err != nil {
			return fmt.Errorf("pg_ctl stop: %w: %s", err, out)
		}
		pause(ctx, down)
		return p.start(ctx)
	}
	d, err := sql.Open("postgres", p.adminURL)
	if err != nil {
		return err
	}
	defer d.Close()
	name := pq.QuoteIdentifier(p.dbName)
	if _, err := d.ExecContext(ctx, "ALTER DATABASE "+name+" ALLOW_CONNECTIONS false"); err != nil {
		return err
	}
	_, err = d.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, p.dbName)
	pause(ctx, down)
	// Allow again whatever happened: the soak must not leave the database closed.
	if _, err2 := d.ExecContext(context.Background(), "ALTER DATABASE "+name+" ALLOW_CONNECTIONS true"); err2 != nil {
		return err2
	}
	return err
}

// stop drops the soak database (and stops a private cluster, whose files
// go with the temporary directory).
func (p *postgres) stop() {
	if p.private {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		p.run(ctx, "pg_ctl", "-D", p.dir, "-m", "fast", "-w", "stop")
		return
	}
	if p.dbName == "" {
		return
	}
	if d, err := sql.Open("postgres", p.adminURL); err == nil {
		d.Exec("DROP DATABASE IF EXISTS " + pq.QuoteIdentifier(p.dbName) + " WITH (FORCE)")
		d.Close()
	}
}

// pause waits d or until ctx ends: the length of a fault, not a wait for
// a condition.
func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
