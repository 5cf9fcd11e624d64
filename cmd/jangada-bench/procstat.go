//go:build devserver

package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jangada/jangada/internal/procs"
)

// procStat is one process's footprint at one moment: resident memory and
// threads from /proc, and, for a process with an operators' listener (api,
// worker), its goroutines and Go heap from its /metrics. A figure it could
// not read is -1.
type procStat struct {
	name                string
	rssMB, heapMB       float64
	goroutines, threads int
	// cpu is the CPU time the process used so far (user + system).
	cpu time.Duration
}

// sampleProc reads p's footprint now.
func sampleProc(ctx context.Context, p *procs.Proc) procStat {
	s := procStat{name: p.Name, rssMB: -1, heapMB: -1, goroutines: -1, threads: -1}
	if f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.Pid())); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ":")
			fields := strings.Fields(v)
			if len(fields) == 0 {
				continue
			}
			n, _ := strconv.ParseFloat(fields[0], 64)
			switch k {
			case "VmRSS":
				s.rssMB = n / 1024 // kB
			case "Threads":
				s.threads = int(n)
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Pid())); err == nil {
		st := string(b)
		if end := strings.LastIndexByte(st, ')'); end > 0 {
			if f := strings.Fields(st[end+1:]); len(f) > 12 {
				ut, _ := strconv.ParseInt(f[11], 10, 64)
				sy, _ := strconv.ParseInt(f[12], 10, 64)
				s.cpu = time.Duration(ut+sy) * clockTick
			}
		}
	}
	if p.AdminAddr == "" || p.Name == "temporal" {
		return s
	}
	m, err := promGauges(ctx, "http://"+p.AdminAddr+"/metrics", "go_goroutines", "go_memstats_heap_inuse_bytes")
	if err == nil {
		if v, ok := m["go_goroutines"]; ok {
			s.goroutines = int(v)
		}
		if v, ok := m["go_memstats_heap_inuse_bytes"]; ok {
			s.heapMB = v / (1 << 20)
		}
	}
	return s
}

// promGauges reads the named unlabelled gauges of a Prometheus text page.
func promGauges(ctx context.Context, url string, names ...string) (map[string]float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok || !want[name] {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
			out[name] = v
		}
	}
	return out, sc.Err()
}

func (s procStat) String() string {
	f := func(v float64, unit string) string {
		if v < 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	i := func(v int) string {
		if v < 0 {
			return "n/a"
		}
		return strconv.Itoa(v)
	}
	return fmt.Sprintf("RSS %s, Go heap in use %s, goroutines %s, threads %s", f(s.rssMB, "MB"), f(s.heapMB, "MB"), i(s.goroutines), i(s.threads))
}
