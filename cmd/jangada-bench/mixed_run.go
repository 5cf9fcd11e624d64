//go:build devserver

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// runMixed runs the sustained mixed load on a fresh split and writes its
// report (mixed.txt) and plots (*.png) into o.out.
func runMixed(ctx context.Context, o mixedOptions) error {
	defer removeSplitBinary()
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	fmt.Printf("\n— mixed run: jangada temporal, 1 jangada api, 1 jangada worker; %v of load —\n", o.duration)
	r, err := startSplitRig(ctx, 1, 0, sharedServer())
	if err == nil {
		err = mixedOn(ctx, r, o)
	}
	if err != nil {
		fmt.Println("process logs kept in", r.tmp)
		r.tmp = ""
	}
	r.stop()
	return err
}

func mixedOn(ctx context.Context, r *rig, o mixedOptions) error {
	m, err := setupMixed(ctx, r, o)
	if m != nil {
		defer m.close()
	}
	if err != nil {
		return err
	}
	fmt.Printf("probing capacity: the mix closed-loop at c=16 for %v…\n", o.probe)
	capacity := m.probe(ctx, 16, o.probe)
	rate := o.rate
	if rate <= 0 {
		rate = capacity / 2
	}
	fmt.Printf("capacity %.1f arrivals/s; open loop at %.1f/s\n", capacity, rate)
	pause()
	before, err := pgSizes(ctx, r)
	if err != nil {
		return err
	}
	tstore := [2]int64{temporalStoreBytes(r)}
	samples := []procSample{sampleSplit(ctx, r, 0)}
	pg0 := readCPU().pg
	issued, notSent := m.drive(ctx, rate, func(at time.Duration) {
		samples = append(samples, sampleSplit(ctx, r, at))
		fmt.Printf("  %5.0f s: %s\n", at.Seconds(), samples[len(samples)-1].stats[1])
	})
	cpu := loadCPU{first: samples[0], last: sampleSplit(ctx, r, time.Since(m.start)), pg: readCPU().pg - pg0}
	buckets := int((o.duration + o.bucket - 1) / o.bucket)
	fmt.Printf("load done: %d arrivals, %d not sent; draining…\n", issued, notSent)
	out := m.drain(ctx)
	samples = append(samples, sampleSplit(ctx, r, time.Since(m.start)))
	after, err := pgSizes(ctx, r)
	if err != nil {
		return err
	}
	tstore[1] = temporalStoreBytes(r)
	hist, err := historySizes(ctx, r)
	if err != nil {
		fmt.Println("history sizes:", err)
	}
	f, err := os.Create(filepath.Join(o.out, "mixed.txt"))
	if err != nil {
		return err
	}
	defer f.Close()
	writeMixed(io.MultiWriter(os.Stdout, f), m, rate, capacity, issued, notSent, buckets, samples, cpu, before, after, tstore, hist, out)
	if err := plotMixed(o.out, m, buckets, samples); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	fmt.Println("report and plots in", o.out)
	if out.hooks.loss() != 0 || out.wsLost != 0 || len(out.ledger) != 0 {
		return fmt.Errorf("mixed run: %d lost deliveries, %d lost WebSocket frames, %d ledger violations",
			out.hooks.loss(), out.wsLost, len(out.ledger))
	}
	return nil
}

// drain waits for what the load owes (every paid charge's webhook and its
// frame on every subscriber, PIX outs settled), adds the pay → WebSocket
// step to the series, and runs the checks.
func (m *mixedRun) drain(ctx context.Context) mixedOutcome {
	m.mu.Lock()
	ids := make([]string, 0, len(m.paid))
	for id := range m.paid {
		ids = append(ids, id)
	}
	m.mu.Unlock()
	out := mixedOutcome{paid: len(ids), wsSubscribers: len(m.subs)}
	out.hooks = m.hooks.await(ctx, "webhooks, payment.paid", ids, 1, m.start)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out.wsLost = 0
		for _, w := range m.subs {
			for _, id := range ids {
				if _, ok := w.seenAt(id); !ok {
					out.wsLost++
				}
			}
		}
		if out.wsLost == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(m.subs) > 0 {
		for _, id := range ids {
			// The probe's charges are checked, not timed: they were paid
			// before the load, in a closed loop run to saturation.
			if at, ok := m.subs[0].seenAt(id); ok && !m.paid[id].Before(m.start) {
				began := m.paid[id]
				m.series.add(payToWSStep, began.Sub(m.start), at.Sub(began), nil)
			}
		}
	}
	for time.Now().Before(deadline) {
		var open int
		m.r.db.GetContext(ctx, &open, `SELECT count(*) FROM transactions WHERE type = 'PIX_OUT' AND status IN ('PENDING', 'PROCESSING')`)
		if open == 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	var rows []struct {
		Type   string `db:"type"`
		Status string `db:"status"`
		N      int    `db:"n"`
	}
	m.r.db.SelectContext(ctx, &rows, `SELECT type, status, count(*) AS n FROM transactions GROUP BY 1, 2 ORDER BY 1, 2`)
	for _, x := range rows {
		out.statuses = append(out.statuses, fmt.Sprintf("%s %s %d", x.Type, x.Status, x.N))
	}
	out.ledger = verifyLedger(ctx, m.r)
	return out
}

// close disconnects the subscribers and stops the receiver.
func (m *mixedRun) close() {
	for _, w := range m.subs {
		w.close()
	}
	if m.hooks != nil {
		m.hooks.srv.Close()
	}
}
