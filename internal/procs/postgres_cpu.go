package procs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of /proc/<pid>/stat's times (USER_HZ, 100 on
// Linux).
const clockTick = 10 * time.Millisecond

// PostgresCPU is the CPU time (user + system) PostgreSQL's processes have
// used so far, read from /proc: with postmaster > 0, that postmaster's and
// its children's (every backend is a child of its postmaster), so one
// server is counted and not the others on the machine; with 0, every
// process named postgres (a shared server, whose postmaster a tool does
// not know). Backends that exit take their time with them: read around a
// measurement on pooled connections, it is a floor.
func PostgresCPU(postmaster int) time.Duration {
	return postgresCPU("/proc", postmaster)
}

// postgresCPU is PostgresCPU over the process table under root.
func postgresCPU(root string, postmaster int) time.Duration {
	// The process table is listed once and each stat file read by name: a
	// glob of <pid>/stat lists every process's directory as well, which
	// cost 14 ms a call on a loaded machine, inside the measurements.
	entries, _ := os.ReadDir(root)
	var sum time.Duration
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue // not a process
		}
		b, err := os.ReadFile(filepath.Join(root, e.Name(), "stat"))
		if err != nil {
			continue // gone since the listing
		}
		st, ok := parseStat(string(b))
		if !ok {
			continue
		}
		if postmaster > 0 && pid != postmaster && st.ppid != postmaster {
			continue
		}
		if postmaster == 0 && st.comm != "postgres" {
			continue
		}
		sum += st.cpu
	}
	return sum
}

// procStat is what PostgresCPU reads of one /proc/<pid>/stat line.
type procStat struct {
	comm string
	ppid int
	cpu  time.Duration
}

// parseStat reads the command name, the parent and the CPU time (utime +
// stime) of a /proc/<pid>/stat line. The name is in parentheses and may
// itself hold spaces and parentheses, so the fields are counted from the
// last ')'.
func parseStat(s string) (procStat, bool) {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return procStat{}, false
	}
	// After the name: state, ppid, pgrp, session, tty_nr, tpgid, flags,
	// minflt, cminflt, majflt, cmajflt, utime, stime.
	f := strings.Fields(s[end+1:])
	if len(f) < 13 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	ut, err2 := strconv.ParseInt(f[11], 10, 64)
	sy, err3 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procStat{}, false
	}
	return procStat{comm: s[open+1 : end], ppid: ppid, cpu: time.Duration(ut+sy) * clockTick}, true
}
