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
	// only, when set, names the phases to run (create1, create32,
	// internal, hooks, paywss), comma-separated.
	only string
}

// wants reports whether the phase runs.
func (sz sizes) wants(phase string) bool {
	return sz.only == "" || slices.Contains(strings.Split(sz.only, ","), phase)
}

func fullSizes() sizes { return sizes{n1: 200, n32: 2000, internal: 2000, payWS: 100, charges: 500} }
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

// pause lets one phase's background work (workflow tasks, deliveries)
// drain before the next phase is timed.
func pause() { time.Sleep(2 * time.Second) }

// runTable runs every phase on the rig and prints the table.
func runTable(ctx context.Context, r *rig, sz sizes) ([]figure, error) {
	var figs []figure
	show := func(res ...result) {
		for _, x := range res {
			fmt.Println(x)
			if x.firstErr != nil {
				fmt.Println("   first error:", x.firstErr)
			}
		}
	}
	fmt.Println("warming up…")
	run(ctx, "warm-up", 4, 50, r.createCharge)
	run(ctx, "warm-up", 4, 50, r.startBare(idleQueue, "BenchNoop"))
	pause()

	if sz.wants("create1") {
		bare1 := run(ctx, "bare StartWorkflow (no worker)", 1, sz.n1, r.startBare(idleQueue, "BenchNoop"))
		pause()
		c1 := run(ctx, "POST /v1/payment-pix/create", 1, sz.n1, r.createCharge)
		show(bare1, c1)
		figs = append(figs, figure{name: "payment-pix/create p50, c=1", ours: msf(c1.p50), bare: "StartWorkflow " + msf(bare1.p50),
			ratio: ms(c1.p50) / ms(bare1.p50), atMost: true, target: 2})
		pause()
	}
	if sz.wants("create32") {

		bare32 := run(ctx, "bare StartWorkflow (no worker)", 32, sz.n32, r.startBare(idleQueue, "BenchNoop"))
		pause()
		c32 := run(ctx, "POST /v1/payment-pix/create", 32, sz.n32, r.createCharge)
		show(bare32, c32)
		figs = append(figs, figure{name: "charge creates/s, c=32", ours: rate(c32), bare: "StartWorkflow " + rate(bare32),
			ratio: c32.perSecond() / bare32.perSecond(), target: 0.8, note: errNote(c32)})
		pause()
	}
	if sz.wants("internal") {

		in, inBare, err := internalTransfers(ctx, r, sz.internal)
		if err != nil {
			return figs, err
		}
		show(inBare, in)
		figs = append(figs, figure{name: "transfer-internal/s, c=16, both directions", ours: fmt.Sprintf("%s, p50 %s", rate(in), msf(in.p50)),
			bare: fmt.Sprintf("PG tx %s, p50 %s", rate(inBare), msf(inBare.p50)), ratio: in.perSecond() / inBare.perSecond(), target: 0.5, note: errNote(in)})
		pause()
	}
	if sz.wants("hooks") {

		hooks, hooksBare, err := deliveries(ctx, r, sz.charges)
		if err != nil {
			return figs, err
		}
		fmt.Println(hooksBare)
		fmt.Println(hooks)
		note := fmt.Sprintf("(lost %d, bare lost %d)", hooks.loss(), hooksBare.loss())
		figs = append(figs, figure{name: fmt.Sprintf("webhook deliveries/s, %d charges created+paid at c=32", sz.charges),
			ours: fmt.Sprintf("%.1f/s", hooks.perSecond()), bare: fmt.Sprintf("1-activity POST workflows %.1f/s", hooksBare.perSecond()),
			ratio: hooks.perSecond() / hooksBare.perSecond(), target: 0.8, note: note})
		if hooks.loss() != 0 || hooks.badSig != 0 {
			figs[len(figs)-1].ratio = 0 // a lost delivery fails the figure whatever the rate
		}
		pause()
	}
	if sz.wants("paywss") {

		ws, wsBare, err := payToWS(ctx, r, sz.payWS)
		if err != nil {
			return figs, err
		}
		show(wsBare, ws)
		figs = append(figs, figure{name: "sandbox pay → payment.paid on WebSocket, p50", ours: msf(ws.p50), bare: "signal → activity start " + msf(wsBare.p50),
			ratio: ms(ws.p50) / ms(wsBare.p50), atMost: true, target: 1.5, note: errNote(ws)})
	}
	return figs, nil
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
