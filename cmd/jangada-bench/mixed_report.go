//go:build devserver

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/internal/procs"
)

// payToWS is the derived step the report adds: a pay call's start to the
// payment.paid frame on the first subscriber.
const payToWSStep = "pay → WebSocket"

// tableSizes is each public table's size and its indexes' size, in bytes.
type tableSizes map[string][2]int64

func pgSizes(ctx context.Context, r *rig) (tableSizes, error) {
	var rows []struct {
		Name  string `db:"name"`
		Table int64  `db:"tbl"`
		Index int64  `db:"idx"`
	}
	err := r.db.SelectContext(ctx, &rows, `
		SELECT c.relname AS name, pg_table_size(c.oid) AS tbl, pg_indexes_size(c.oid) AS idx
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind = 'r'`)
	out := tableSizes{}
	for _, x := range rows {
		out[x.Name] = [2]int64{x.Table, x.Index}
	}
	return out, err
}

// temporalStoreBytes is the size of the split's SQLite files (the store,
// its WAL and shared memory).
func temporalStoreBytes(r *rig) int64 {
	var n int64
	filepath.Walk(r.tmp, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && filepath.Ext(path) != ".log" && (filepath.Base(path) == "temporal.db" ||
			filepath.Base(path) == "temporal.db-wal" || filepath.Base(path) == "temporal.db-shm") {
			n += info.Size()
		}
		return nil
	})
	return n
}

// historyStat is the history size of one workflow type over a sample.
type historyStat struct {
	typ                 string
	listed, sampled     int
	events, bytes       float64 // means over the sample
	maxEvents, maxBytes int64
}

// historySizes lists the run's workflows (newest first, at most 20 pages
// of 1,000), counts them per type, and describes 25 of each type, spread
// over the list, for their history length and size.
func historySizes(ctx context.Context, r *rig) ([]historyStat, error) {
	ns := r.split.APIs[0].Getenv("JANGADA_TEMPORAL_NAMESPACE")
	byType := map[string][][2]string{}
	var token []byte
	for page := 0; page < 20; page++ {
		res, err := r.client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: ns, PageSize: 1000, NextPageToken: token})
		if err != nil {
			return nil, err
		}
		for _, e := range res.GetExecutions() {
			t := e.GetType().GetName()
			byType[t] = append(byType[t], [2]string{e.GetExecution().GetWorkflowId(), e.GetExecution().GetRunId()})
		}
		if token = res.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	var out []historyStat
	for typ, runs := range byType {
		h := historyStat{typ: typ, listed: len(runs)}
		var ev, by int64
		// 25 spread over the list (newest first): the newest alone are
		// the ones still open, with the shortest histories.
		for k := range min(len(runs), 25) {
			run := runs[k*len(runs)/min(len(runs), 25)]
			d, err := r.client.DescribeWorkflowExecution(ctx, run[0], run[1])
			if err != nil {
				continue
			}
			info := d.GetWorkflowExecutionInfo()
			h.sampled++
			ev += info.GetHistoryLength()
			by += info.GetHistorySizeBytes()
			h.maxEvents = max(h.maxEvents, info.GetHistoryLength())
			h.maxBytes = max(h.maxBytes, info.GetHistorySizeBytes())
		}
		if h.sampled > 0 {
			h.events, h.bytes = float64(ev)/float64(h.sampled), float64(by)/float64(h.sampled)
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].listed > out[j].listed })
	return out, nil
}

// procSample is every process's footprint at one offset from the start.
type procSample struct {
	at    time.Duration
	stats []procStat
}

// sampleSplit samples every process of the split.
func sampleSplit(ctx context.Context, r *rig, at time.Duration) procSample {
	s := procSample{at: at}
	for _, p := range append(append([]*procs.Proc{r.split.Temporal}, r.split.APIs...), r.split.Workers...) {
		s.stats = append(s.stats, sampleProc(ctx, p))
	}
	return s
}

// loadCPU is the processes' footprints at the start and the end of the
// load, and PostgreSQL's CPU over it: what each arrival cost each process.
type loadCPU struct {
	first, last procSample
	pg          time.Duration
}

// mixedOutcome is what the run's checks found after the drain.
type mixedOutcome struct {
	paid                  int
	hooks                 hookRun
	wsLost, wsSubscribers int
	ledger                []string
	statuses              []string
}

// writeMixed writes the report: the run's conditions, each step's series,
// the processes' footprints, the growth of the stores, history sizes and
// the checks.
func writeMixed(w io.Writer, m *mixedRun, rate, capacity float64, issued, notSent int, buckets int,
	samples []procSample, cpu loadCPU, before, after tableSizes, tstore [2]int64, hist []historyStat, out mixedOutcome) {
	o := m.opts
	fmt.Fprintf(w, "Mixed run on the production split (jangada temporal, 1 api, 1 worker), %d CPUs, %s\n", numCPU(), time.Now().UTC().Format(time.RFC3339))
	fmt.Fprintf(w, "capacity probe: %.1f arrivals/s closed-loop at c=16 for %v; open-loop rate %.1f arrivals/s for %v; %d arrivals, %d not sent (%d in flight)\n",
		capacity, o.probe, rate, o.duration, issued, notSent, maxInFlight)
	fmt.Fprintf(w, "mix per %d arrivals:", len(m.plan))
	for _, k := range m.kinds {
		fmt.Fprintf(w, " %s %d", k.name, k.weight)
	}
	fmt.Fprintf(w, "; %d WebSocket subscribers\n\n", o.subscribers)

	fmt.Fprintf(w, "Per %v (p50 / p99 ms, n, errors):\n\n", o.bucket)
	for _, step := range m.series.stepNames() {
		t := m.series.total(step)
		fmt.Fprintf(w, "%s: whole run n=%d errors=%d p50 %.2f ms p99 %.2f ms", step, t.n, t.errs, ms(t.p50), ms(t.p99))
		if t.firstErr != nil {
			fmt.Fprintf(w, " (first error: %v)", t.firstErr)
		}
		fmt.Fprintln(w)
		for _, p := range m.series.points(step, buckets) {
			fmt.Fprintf(w, "  %3d  %8.2f / %8.2f  n=%-5d err=%d\n", p.bucket, ms(p.p50), ms(p.p99), p.n, p.errs)
		}
	}

	fmt.Fprintf(w, "\nProcesses (start of the load, then each %v, last after the drain):\n", o.bucket)
	for i := range samples[0].stats {
		first, last := samples[0].stats[i], samples[len(samples)-1].stats[i]
		fmt.Fprintf(w, "  %-9s start: %s\n  %-9s end:   %s\n", first.name, first, "", last)
	}

	ops := float64(issued)
	fmt.Fprintf(w, "\nCPU per arrival over the load (and the arrivals/s of this mix one core of it would carry):\n")
	perArrival := func(name string, d time.Duration) {
		each := ms(d) / ops
		fmt.Fprintf(w, "  %-10s %6.2f ms  (%.0f/s per core)\n", name, each, 1000/each)
	}
	for i, first := range cpu.first.stats {
		perArrival(first.name, cpu.last.stats[i].cpu-first.cpu)
	}
	perArrival("PostgreSQL", cpu.pg)

	fmt.Fprintf(w, "\nPostgreSQL growth per 100k arrivals (table + indexes), largest first:\n")
	type growth struct {
		name       string
		tbl, index int64
	}
	var gs []growth
	var sumT, sumI int64
	for name, a := range after {
		b := before[name]
		g := growth{name, a[0] - b[0], a[1] - b[1]}
		sumT, sumI = sumT+g.tbl, sumI+g.index
		if g.tbl+g.index > 0 {
			gs = append(gs, g)
		}
	}
	slices.SortFunc(gs, func(x, y growth) int { return int((y.tbl + y.index) - (x.tbl + x.index)) })
	per := func(b int64) float64 { return float64(b) / ops * 100_000 / (1 << 20) }
	for _, g := range gs {
		fmt.Fprintf(w, "  %-32s %8.1f MB + %8.1f MB\n", g.name, per(g.tbl), per(g.index))
	}
	month := rate * 86400 * 30
	fmt.Fprintf(w, "  total %.1f MB + %.1f MB per 100k; a month at %.1f/s (%.0fM arrivals): %.1f GB\n",
		per(sumT), per(sumI), rate, month/1e6, float64(sumT+sumI)/ops*month/(1<<30))
	fmt.Fprintf(w, "Temporal's SQLite store: %.1f MB per 100k arrivals (%.1f → %.1f MB)\n",
		per(tstore[1]-tstore[0]), float64(tstore[0])/(1<<20), float64(tstore[1])/(1<<20))

	fmt.Fprintf(w, "\nTemporal history per workflow type (at most the newest 20,000 listed; mean and max over 25 of each):\n")
	for _, h := range hist {
		fmt.Fprintf(w, "  %-32s listed %6d, sampled %3d: %.1f events, %.1f KB (max %d events, %.1f KB)\n",
			h.typ, h.listed, h.sampled, h.events, h.bytes/1024, h.maxEvents, float64(h.maxBytes)/1024)
	}

	fmt.Fprintf(w, "\nChecks:\n")
	fmt.Fprintf(w, "  webhooks (payment.paid of %d paid charges): %s\n", out.paid, out.hooks)
	fmt.Fprintf(w, "  WebSocket: %d payment.paid frames missing over %d subscribers × %d charges\n", out.wsLost, out.wsSubscribers, out.paid)
	fmt.Fprintf(w, "  ledger invariant: %d violations %v\n", len(out.ledger), out.ledger[:min(len(out.ledger), 5)])
	fmt.Fprintf(w, "  final statuses: %v\n", out.statuses)
	verdict := "PASS"
	if out.hooks.loss() != 0 || out.wsLost != 0 || len(out.ledger) != 0 {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "  lost deliveries %d, lost WebSocket frames %d, ledger violations %d: %s\n", out.hooks.loss(), out.wsLost, len(out.ledger), verdict)
}

// verifyLedger is db.VerifyLedger on the run's database.
func verifyLedger(ctx context.Context, r *rig) []string {
	problems, err := db.VerifyLedger(ctx, r.db)
	if err != nil {
		return []string{err.Error()}
	}
	return problems
}
