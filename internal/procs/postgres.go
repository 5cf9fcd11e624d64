package procs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lib/pq"

	"github.com/jangada/jangada/db"
)

// Postgres is a private PostgreSQL server a tool owns: its own data
// directory (initdb), started with pg_ctl on a free loopback port. The
// machine's shared server cannot be restarted by one tool without breaking
// the others, and its max_connections (100) is shared by everything that
// runs beside: a split on a Temporal cluster alone fills it, and a figure
// taken there measures the connection limit.
type Postgres struct {
	// Dir is the data directory, Log the server's log file.
	Dir, Log string
	// Port is the loopback port it listens on, the same across restarts
	// (the processes' URLs name it).
	Port int

	bindir string
	// asPG is the runuser prefix of every server command when the tool
	// runs as root: initdb refuses root, so the server runs as postgres.
	asPG []string
}

// PostgresMaxConnections is a private server's max_connections: room for
// every pool of a split on a Temporal cluster at once (three nodes' two
// pools of 20, an api, two workers and the tool at 40 each come to 280),
// as docs/deploy.md sizes a deployment's server.
const PostgresMaxConnections = 300

// postgresCmdWithin bounds each initdb and pg_ctl run: a server that
// neither starts nor stops in that time will not.
const postgresCmdWithin = 2 * time.Minute

// PostgresBinDir is a directory holding initdb and pg_ctl: that of the
// initdb on PATH, else a Debian /usr/lib/postgresql/*/bin; "" when there is
// none, and then no private server can run.
func PostgresBinDir() string {
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

// isExec reports whether p is a file someone may execute.
func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// ErrNoPostgresBin is StartPostgres's error when PostgresBinDir finds no
// initdb and pg_ctl: the caller may fall back to a shared server.
var ErrNoPostgresBin = errors.New("initdb and pg_ctl not found")

// StartPostgres initialises a cluster in dir/pgdata (server log
// dir/postgres.log) and starts it on a free loopback port (Start): trust
// authentication, superuser postgres, no Unix socket. As root the server
// runs as the postgres system user, and dir is made traversable (0755) for
// it. Stop it and remove dir when done.
func StartPostgres(ctx context.Context, dir string) (*Postgres, error) {
	p := &Postgres{bindir: PostgresBinDir(), Dir: filepath.Join(dir, "pgdata"), Log: filepath.Join(dir, "postgres.log")}
	if p.bindir == "" {
		return nil, ErrNoPostgresBin
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	p.Port = port
	if err := os.MkdirAll(p.Dir, 0o700); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		if err := p.runAsPostgres(dir); err != nil {
			return nil, err
		}
	}
	if out, err := p.run(ctx, "initdb", "-D", p.Dir, "-U", "postgres", "--auth=trust", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %w: %s", err, out)
	}
	if err := p.Start(ctx); err != nil {
		// pg_ctl may give up waiting on a server that does come up later.
		stop, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		p.Stop(stop, "immediate")
		return nil, err
	}
	return p, nil
}

// runAsPostgres hands the data directory and the log to the postgres
// system user and makes the server's commands run as it.
func (p *Postgres) runAsPostgres(dir string) error {
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root and no postgres user to run the server as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p.Log, nil, 0o644); err != nil {
		return err
	}
	for _, f := range []string{p.Dir, p.Log} {
		if err := os.Chown(f, uid, gid); err != nil {
			return err
		}
	}
	p.asPG = []string{"runuser", "-u", "postgres", "--"}
	return nil
}

// run runs one of the server's tools (as postgres when the tool is root),
// bounded by postgresCmdWithin.
func (p *Postgres) run(ctx context.Context, tool string, args ...string) ([]byte, error) {
	argv := append(append([]string{}, p.asPG...), filepath.Join(p.bindir, tool))
	argv = append(argv, args...)
	ctx, cancel := context.WithTimeout(ctx, postgresCmdWithin)
	defer cancel()
	return exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
}

// settings is the server's command line past its port: loopback only, no
// socket (two private servers and the shared one never meet), room for
// every pool, and no fsync, since the data dies with the run anyway.
func (p *Postgres) settings() string {
	return fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=%d -c fsync=off -c shared_buffers=64MB",
		p.Port, PostgresMaxConnections)
}

// Start starts the server (again, after Stop) and returns once it accepts
// connections (pg_ctl -w).
func (p *Postgres) Start(ctx context.Context) error {
	if out, err := p.run(ctx, "pg_ctl", "-D", p.Dir, "-l", p.Log, "-o", p.settings(), "-w", "-t", "60", "start"); err != nil {
		return fmt.Errorf("pg_ctl start: %w: %s (log %s)", err, out, p.Log)
	}
	return nil
}

// Stop stops the server and returns once it is gone. mode is pg_ctl's -m:
// "fast" ends the sessions and shuts down cleanly, "immediate" is a crash
// (recovery on the next Start).
func (p *Postgres) Stop(ctx context.Context, mode string) error {
	if out, err := p.run(ctx, "pg_ctl", "-D", p.Dir, "-m", mode, "-w", "stop"); err != nil {
		return fmt.Errorf("pg_ctl stop: %w: %s", err, out)
	}
	return nil
}

// Addr is the server's host:port.
func (p *Postgres) Addr() string { return "127.0.0.1:" + strconv.Itoa(p.Port) }

// AdminURL is the URL of the server's maintenance database (postgres).
func (p *Postgres) AdminURL() string {
	return "postgres://postgres@" + p.Addr() + "/postgres?sslmode=disable"
}

// Pid is the running postmaster's process id, from its postmaster.pid;
// 0 when the server is not running.
func (p *Postgres) Pid() int {
	b, err := os.ReadFile(filepath.Join(p.Dir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	return pid
}

// CPU is the CPU time the server's processes (the postmaster and its
// children, the backends) have used so far (PostgresCPU).
func (p *Postgres) CPU() time.Duration {
	pid := p.Pid()
	if pid == 0 {
		return 0
	}
	return PostgresCPU(pid)
}

// DatabaseURL is adminURL with its database replaced by name.
func DatabaseURL(adminURL, name string) (string, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// CreateDatabase creates database name on the server of adminURL (a
// maintenance database's URL), unless it exists, and returns its URL.
func CreateDatabase(ctx context.Context, adminURL, name string) (string, error) {
	dbURL, err := DatabaseURL(adminURL, name)
	if err != nil {
		return "", err
	}
	if err := db.EnsureDatabase(ctx, dbURL); err != nil {
		return "", err
	}
	return dbURL, nil
}

// DropDatabase drops database name, if it exists, on the server of
// adminURL, ending its sessions (WITH FORCE): a process killed mid-run may
// still hold one.
func DropDatabase(ctx context.Context, adminURL, name string) error {
	d, err := sql.Open("postgres", adminURL)
	if err != nil {
		return err
	}
	defer d.Close()
	_, err = d.ExecContext(ctx, "DROP DATABASE IF EXISTS "+pq.QuoteIdentifier(name)+" WITH (FORCE)")
	return err
}
