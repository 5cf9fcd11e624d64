//go:build devserver

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuUse is CPU time spent so far by this process (Jangada, the embedded
// Temporal and the load together) and by PostgreSQL's processes. Read
// around a measurement, it says what each operation cost the machine, which
// on 2 cores is what bounds a rate: whatever CPU one side spends is taken
// from the other's serial path.
type cpuUse struct {
	self, pg time.Duration
}

// clockTick is the unit of /proc/<pid>/stat's times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// readCPU reads the CPU used so far: PostgreSQL's is that of the split's
// private server while one runs, else of every postgres process on the
// machine (pgCPU). Backends that exit during a measurement take their
// time with them; the pool's connections live through a run, so the
// figure is a floor.
func readCPU() cpuUse {
	var u cpuUse
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		u.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	u.pg = pgCPU()
	return u
}

func (u cpuUse) sub(v cpuUse) cpuUse { return cpuUse{u.self - v.self, u.pg - v.pg} }
func (u cpuUse) add(v cpuUse) cpuUse { return cpuUse{u.self + v.self, u.pg + v.pg} }

// machineBusy is the CPU time the whole machine has spent busy so far (all
// cores, /proc/stat): what pause watches, since a phase's background work
// runs in this process, PostgreSQL's and, on the production split, the
// jangada processes.
func machineBusy() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var busy int64
	for i, v := range f {
		if i == 0 || i == 4 || i == 5 { // the "cpu" label, idle, iowait
			continue
		}
		if i > 8 { // guest time is counted in user already
			break
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		busy += n
	}
	return time.Duration(busy) * clockTick
}
