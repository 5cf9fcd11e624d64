package main

import "testing"

// The group commit's histogram is read from /metrics text: batches, moves
// and the smallest bucket holding every batch.
func TestBatchFiguresReadTheHistogram(t *testing.T) {
	text := `# HELP jangada_ledger_batch_moves Moves per group-commit batch.
# TYPE jangada_ledger_batch_moves histogram
jangada_ledger_batch_moves_bucket{le="1"} 5
jangada_ledger_batch_moves_bucket{le="2"} 7
jangada_ledger_batch_moves_bucket{le="4"} 9
jangada_ledger_batch_moves_bucket{le="8"} 9
jangada_ledger_batch_moves_bucket{le="+Inf"} 9
jangada_ledger_batch_moves_sum 20
jangada_ledger_batch_moves_count 9
`
	if b, m, l := batchFigures(text, "jangada_ledger_batch_moves"); b != 9 || m != 20 || l != "4" {
		t.Fatalf("batches %v, moves %v, largest %q; want 9, 20, 4", b, m, l)
	}
	if b, m, l := batchFigures("jangada_other 1\n", "jangada_ledger_batch_moves"); b != 0 || m != 0 || l != "-" {
		t.Fatalf("no histogram: %v, %v, %q", b, m, l)
	}
	if b, m, l := batchFigures(text, "jangada_subaccount_batch_moves"); b != 0 || m != 0 || l != "-" {
		t.Fatalf("another histogram's figures read as the sub-accounts': %v, %v, %q", b, m, l)
	}
}
