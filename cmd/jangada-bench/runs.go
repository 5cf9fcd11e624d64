//go:build devserver

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// sizes are how much each phase does; -quick divides them.
type sizes struct {
	n1, n32, internal, payWS, charges, wsConns int
	// only, when set, names the phases to run (phases' names),
	// comma-separated.
	only string
	// onPhase, when set, is told each phase's name as it begins.
	onPhase func(name string)
}

// wants reports whether the phase runs.
func (sz sizes) wants(phase string) bool {
	return sz.only == "" || slices.Contains(strings.Split(sz.only, ","), phase)
}

func fullSizes() sizes { return sizes{n1: 200, n32: 2000, internal: 2000, payWS: 200, charges: 500} }
func quickSizes() sizes {
	return sizes{n1: 60, n32: 400, internal: 400, payWS: 30, charges: 100, wsConns: 2000}
}

// figure is one row of the table: Jangada's figure beside its bare
// baseline measured in the same run, and their ratio against the target.
type figure struct {
	name, ours, bare string
	ratio            float64
	// atMost: the ratio must not exceed target (a latency); else it must
	// reach it (a rate).
	atMost bool
	target float64
	note   string
}

func (f figure) ok() bool {
	if f.atMost {
		return f.ratio <= f.target
	}
	return f.ratio >= f.target
}

func (f figure) String() string {
	op, verdict := ">=", "MET"
	if f.atMost {
		op = "<="
	}
	if !f.ok() {
		verdict = "MISSED"
	}
	line := fmt.Sprintf("| %s | %s | %s | %.2f | %s %.1f | %s |", f.name, f.ours, f.bare, f.ratio, op, f.target, verdict)
	if f.note != "" {
		line += " " + f.note
	}
	return line
}

// pause lets one phase's or round's background work drain before the next
// one is timed: workflow tasks, deliveries, and the embedded Temporal's
// visibility writes, which run after a start has answered (about 3 ms of
// CPU each, so a round of 500 starts leaves seconds of them). A fixed wait
// left them to the next round, which on 2 cores paid for them: the later
// a phase ran, the more it was charged for its predecessors. It waits at
// least quietFor, then until the machine (this process, PostgreSQL, the
// production split's processes) uses under a tenth of a core over a
// quietFor window (at most drainMax).
func pause() {
	t0 := time.Now()
	for {
		c0 := machineBusy()
		time.Sleep(quietFor)
		if machineBusy()-c0 < quietFor/10 {
			break
		}
		if time.Since(t0) > drainMax {
			fmt.Printf("  (background work still running after %s)\n", drainMax)
			break
		}
	}
	if d := time.Since(t0); d > 3*quietFor {
		fmt.Printf("  (background work drained in %.1f s)\n", d.Seconds())
	}
	time.Sleep(quietFor)
}

// The drain's window and its bound (pause).
const (
	quietFor = 500 * time.Millisecond
	drainMax = time.Minute
)

// phase is one row of the table: its name for -only and how to measure it.
type phase struct {
	name    string
	measure func(ctx context.Context, r *rig, sz sizes) (figure, error)
}

// phases are the table's rows, in order.
var phases = []phase{
	{"create1", createLatency},
	{"create32", createRate},
	{"internal", internalFigure},
	{"hot", hotFigure},
	{"hotsettle", hotSettleFigure},
	// Sub-account moves.
	{"subadd", subAddFigure},
	{"subtransfer", subTransferFigure},
	{"hooks", deliveriesFigure},
	{"paywss", payToWSFigure},
	// Payment links' checkout.
	{"checkout32", checkoutFigure},
	// Billings.
	{"boleto32", boletoBillingFigure},
	{"pixbilling32", pixBillingFigure},
}

// runTable runs the wanted phases, each on a rig of its own (a new
// database, a new embedded Temporal in store's shape, a new app) after the
// previous one's background work drained. One rig for the whole table made
// each row pay for the rows before it: the in-memory SQLite of Temporal's
// dev server grows with every start (hundreds of MB over a full run), its
// commits cost more as it grows (pcache1Truncate walks the page cache: 14 %
// of the process's CPU in the last row), and that cost fell more on
// Jangada's side than on the bare starts' (PIX billings 0.77-0.79 alone,
// 0.52-0.63 as the last row). A production Temporal stores on PostgreSQL or
// Cassandra; each row now measures both sides on the same fresh store.
func runTable(ctx context.Context, store string, sz sizes) ([]figure, error) {
	var figs []figure
	for _, p := range phases {
		if !sz.wants(p.name) {
			continue
		}
		pause()
		f, err := runPhase(ctx, store, sz, p)
		if err != nil {
			return figs, fmt.Errorf("%s: %w", p.name, err)
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// runPhase measures one phase on a rig of its own, warmed up first.
func runPhase(ctx context.Context, store string, sz sizes, p phase) (figure, error) {
	r, err := startRig(ctx, store)
	if r != nil {
		defer r.stop()
	}
	if err != nil {
		return figure{}, err
	}
	run(ctx, "warm-up", 4, 50, r.createCharge)
	run(ctx, "warm-up", 4, 50, r.startBare(idleQueue, "BenchNoop"))
	pause()
	if sz.onPhase != nil {
		sz.onPhase(p.name)
	}
	return p.measure(ctx, r, sz)
}

// show prints measured runs as they come.
func show(res ...result) {
	for _, x := range res {
		fmt.Println(x)
		if x.firstErr != nil {
			fmt.Println("   first error:", x.firstErr)
		}
	}
}

func createLatency(ctx context.Context, r *rig, sz sizes) (figure, error) {
	bare, ours := r.paired(ctx, 1, sz.n1, "bare StartWorkflow (no worker)", r.startBare(idleQueue, "BenchNoop"),
		"POST /v1/payment-pix/create", r.createCharge, r.chargesStarted)
	show(bare, ours)
	return figure{name: "payment-pix/create p50, c=1", ours: msf(ours.p50), bare: "StartWorkflow " + msf(bare.p50),
		ratio: ms(ours.p50) / ms(bare.p50), atMost: true, target: 2, note: errNote(ours)}, nil
}

func createRate(ctx context.Context, r *rig, sz sizes) (figure, error) {
	bare, ours := r.paired(ctx, 32, sz.n32, "bare StartWorkflow (no worker)", r.startBare(idleQueue, "BenchNoop"),
		"POST /v1/payment-pix/create", r.createCharge, r.chargesStarted)
	show(bare, ours)
	return figure{name: "charge creates/s, c=32", ours: rate(ours), bare: "StartWorkflow " + rate(bare),
		ratio: ours.perSecond() / bare.perSecond(), target: 0.8, note: errNote(ours)}, nil
}

func internalFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	r.analyzeRounds = true
	s0 := ledgerBatches()
	ours, bare, err := internalTransfers(ctx, r, sz.internal)
	if err != nil {
		return figure{}, err
	}
	show(bare, ours)
	fmt.Println("  group commit:", batchNote(s0))
	return figure{name: "transfer-internal/s, c=16, both directions", ours: fmt.Sprintf("%s, p50 %s, p99 %s", rate(ours), msf(ours.p50), msf(ours.p99)),
		bare: fmt.Sprintf("PG tx %s, p50 %s, p99 %s", rate(bare), msf(bare.p50), msf(bare.p99)), ratio: ours.perSecond() / bare.perSecond(), target: 1.0,
		note: errNote(ours)}, nil
}

func deliveriesFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	ours, bare, err := deliveries(ctx, r, sz.charges)
	if err != nil {
		return figure{}, err
	}
	fmt.Println(bare)
	fmt.Println(ours)
	f := figure{name: fmt.Sprintf("webhook deliveries/s, %d charges created+paid at c=32", sz.charges),
		ours: fmt.Sprintf("%.1f/s", ours.perSecond()), bare: fmt.Sprintf("1-activity POST workflows %.1f/s", bare.perSecond()),
		ratio: ours.perSecond() / bare.perSecond(), target: 0.8, note: fmt.Sprintf("(lost %d, bare lost %d)", ours.loss(), bare.loss())}
	if ours.loss() != 0 || ours.badSig != 0 {
		f.ratio = 0 // a lost delivery fails the figure whatever the rate
	}
	return f, nil
}

func payToWSFigure(ctx context.Context, r *rig, sz sizes) (figure, error) {
	ours, bare, err := payToWS(ctx, r, sz.payWS)
	if err != nil {
		return figure{}, err
	}
	show(bare, ours)
	return figure{name: "sandbox pay → payment.paid on WebSocket, p50", ours: msf(ours.p50), bare: "signal → activity start " + msf(bare.p50),
		ratio: ms(ours.p50) / ms(bare.p50), atMost: true, target: 1.2, note: errNote(ours)}, nil
}

// wsMemory runs the gateway's idle-connection benchmark (package ws, the
// gateway beside a bare WebSocket server, clients in other processes) and
// reads its figure.
func wsMemory(ctx context.Context, conns int) (figure, error) {
	cmd := exec.CommandContext(ctx, "go", "test", "./ws/", "-run", "^$", "-bench", "IdleConnections", "-benchtime", "1x")
	cmd.Env = os.Environ()
	if conns > 0 {
		cmd.Env = append(cmd.Env, "JANGADA_WS_CONNS="+strconv.Itoa(conns))
	}
	out, err := cmd.CombinedOutput()
	line := ""
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "idle WebSocket memory") {
			line = l
		}
	}
	m := regexp.MustCompile(`at (\d+) connections: gateway ([0-9.]+ KB)/conn, bare (.+?) ([0-9.]+ KB)/conn, ratio ([0-9.]+)`).FindStringSubmatch(line)
	if err != nil || m == nil {
		return figure{}, fmt.Errorf("ws memory benchmark: %v\n%s", err, out)
	}
	ratio, _ := strconv.ParseFloat(m[5], 64)
	return figure{name: "idle authenticated WebSocket, memory/conn at " + m[1] + " conns", ours: m[2], bare: m[3] + " " + m[4],
		ratio: ratio, atMost: true, target: 1.2}, nil
}

func printTable(figs []figure) {
	fmt.Println()
	fmt.Println("| figure | Jangada | bare baseline (same run) | ratio | target | |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, f := range figs {
		fmt.Println(f)
	}
}

func msf(d time.Duration) string { return fmt.Sprintf("%.2f ms", ms(d)) }
func rate(r result) string       { return fmt.Sprintf("%.1f/s", r.perSecond()) }

func errNote(r result) string {
	if r.errors == 0 {
		return ""
	}
	return fmt.Sprintf("(%d errors: %v)", r.errors, r.firstErr)
}
