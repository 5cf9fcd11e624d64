package procs

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// statLine is a /proc/<pid>/stat line of comm, ppid, utime and stime.
func statLine(comm string, ppid, utime, stime int) string {
	return "1 (" + comm + ") S " + strconv.Itoa(ppid) + " 1 1 0 -1 4194560 100 0 0 0 " +
		strconv.Itoa(utime) + " " + strconv.Itoa(stime) + " 0 0 20 0 1 0 100 1000 10\n"
}

// The name may hold spaces and parentheses: the fields count from the
// last ')'.
func TestParseStat(t *testing.T) {
	st, ok := parseStat(statLine("postgres: x (y) idle", 42, 3, 4))
	if !ok || st.comm != "postgres: x (y) idle" || st.ppid != 42 || st.cpu != 7*clockTick {
		t.Fatalf("parseStat = %+v, %v", st, ok)
	}
	for _, bad := range []string{"", "1 postgres S 1", "1 (postgres) S 1 1 1", "1 (postgres) S x 1 1 0 -1 0 0 0 0 0 1 1"} {
		if st, ok := parseStat(bad); ok {
			t.Errorf("parseStat(%q) = %+v, want not ok", bad, st)
		}
	}
}

// A postmaster's pid counts it and its children only; 0 counts every
// process named postgres.
func TestPostgresCPUCountsOneServer(t *testing.T) {
	root := t.TempDir()
	table := map[int]string{
		100: statLine("postgres", 1, 10, 5),   // the private postmaster
		101: statLine("postgres", 100, 20, 0), // its backend
		102: statLine("postgres", 100, 0, 1),  // its checkpointer
		200: statLine("postgres", 1, 300, 0),  // the shared server's postmaster
		201: statLine("postgres", 200, 400, 0),
		300: statLine("go", 1, 1000, 0),
	}
	for pid, line := range table {
		dir := filepath.Join(root, strconv.Itoa(pid))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := postgresCPU(root, 100), 36*clockTick; got != want {
		t.Errorf("postmaster 100: %v, want %v", got, want)
	}
	if got, want := postgresCPU(root, 0), 736*clockTick; got != want {
		t.Errorf("every postgres: %v, want %v", got, want)
	}
	if got := postgresCPU(root, 999); got != 0 {
		t.Errorf("no such postmaster: %v, want 0", got)
	}
	if got := postgresCPU(filepath.Join(root, "none"), 0); got != time.Duration(0) {
		t.Errorf("no process table: %v", got)
	}
}
