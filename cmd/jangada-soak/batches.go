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
// the ledger's group commit (its batches on each api process's /metrics,
// since the process's last start): the soak's faults then cut batches, and
// its ledger and balance checks cover them. It fails only when no batch
// carried a move at all while internal transfers were made.
func groupCommitCheck(ctx context.Context, apis []*proc, internal int) check {
	var total float64
	var parts []string
	for i, a := range apis {
		text, err := metricsText(ctx, a)
		if err != nil {
			parts = append(parts, fmt.Sprintf("api-%d: %v", i+1, err))
			continue
		}
		batches, moves, largest := batchFigures(text)
		total += moves
		parts = append(parts, fmt.Sprintf("api-%d: %.0f moves in %.0f batches, the largest of at most %s", i+1, moves, batches, largest))
	}
	return check{"money moves through the group commit", internal == 0 || total > 0,
		fmt.Sprintf("%s (since each process's last start; %d internal transfers accepted)", strings.Join(parts, "; "), internal)}
}

// batchFigures reads the group commit's histogram from /metrics text: how
// many batches, how many moves, and the bound of the smallest bucket that
// holds every batch.
func batchFigures(text string) (batches, moves float64, largest string) {
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
		case name == "jangada_ledger_batch_moves_count":
			batches = v
		case name == "jangada_ledger_batch_moves_sum":
			moves = v
		case strings.HasPrefix(name, `jangada_ledger_batch_moves_bucket{le="`):
			buckets = append(buckets, bucket{strings.TrimSuffix(strings.TrimPrefix(name, `jangada_ledger_batch_moves_bucket{le="`), `"}`), v})
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
