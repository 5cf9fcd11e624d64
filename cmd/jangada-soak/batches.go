package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// metricsText is an api process's /metrics, as text.
func metricsText(ctx context.Context, a *proc) (string, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+a.AdminAddr+"/metrics", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return string(b), err
}

// groupCommitCheck tells whether the money moves of the load went through
// the group commits (their batches on each api process's /metrics, since
// the process's last start): the ledger's for internal transfers, the
// sub-accounts' for their moves. The soak's faults then cut batches, and
// its ledger, balance and limit checks cover them. It fails only when no
// batch carried a move at all while such moves were made.
func groupCommitCheck(ctx context.Context, apis []*proc, internal, subMoves int) check {
	var ledger, subs float64
	var parts []string
	for i, a := range apis {
		text, err := metricsText(ctx, a)
		if err != nil {
			parts = append(parts, fmt.Sprintf("api-%d: %v", i+1, err))
			continue
		}
		batches, moves, largest := batchFigures(text, "jangada_ledger_batch_moves")
		sb, sm, sl := batchFigures(text, "jangada_subaccount_batch_moves")
		ledger, subs = ledger+moves, subs+sm
		parts = append(parts, fmt.Sprintf("api-%d: %.0f moves in %.0f ledger batches, the largest of at most %s; %.0f sub-account moves in %.0f batches, the largest of at most %s",
			i+1, moves, batches, largest, sm, sb, sl))
	}
	return check{"money moves through the group commit", (internal == 0 || ledger > 0) && (subMoves == 0 || subs > 0),
		fmt.Sprintf("%s (since each process's last start; %d internal transfers and %d sub-account moves accepted)", strings.Join(parts, "; "), internal, subMoves)}
}

// batchFigures reads a group commit's histogram (metric) from /metrics
// text: how many batches, how many moves, and the bound of the smallest
// bucket that holds every batch.
func batchFigures(text, metric string) (batches, moves float64, largest string) {
	type bucket struct {
		le    string
		count float64
	}
	var buckets []bucket
	for _, line := range strings.Split(text, "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch {
		case name == metric+"_count":
			batches = v
		case name == metric+"_sum":
			moves = v
		case strings.HasPrefix(name, metric+`_bucket{le="`):
			buckets = append(buckets, bucket{strings.TrimSuffix(strings.TrimPrefix(name, metric+`_bucket{le="`), `"}`), v})
		}
	}
	largest = "-"
	for _, b := range buckets {
		if batches > 0 && b.count == batches {
			largest = b.le
			break
		}
	}
	return batches, moves, largest
}
