package db_test

import (
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// Every list is newest first (the spec orders none otherwise), webhook
// endpoints included, which were listed oldest first; the page counts
// hold past the last page.
func TestListsAreNewestFirstAndPaged(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Listas")
	base := time.Now().Add(-time.Hour)
	var ids []string // oldest first
	for i := range 3 {
		e, err := db.CreateEndpoint(ctx, sharedDB, db.WebhookEndpoint{ID: domain.NewID("whe_"), AccountID: acct.ID,
			URL: "https://example.com/hook", Events: []string{"*"}, Status: "ACTIVE", Secret: "s"}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sharedDB.ExecContext(ctx, `UPDATE webhook_endpoints SET created_at = $2 WHERE id = $1`,
			e.ID, base.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	scope := db.EndpointScope{AccountID: acct.ID}
	first, total, err := db.ListEndpoints(ctx, sharedDB, scope, 1, 2)
	if err != nil || total != 3 || len(first) != 2 || first[0].ID != ids[2] || first[1].ID != ids[1] {
		t.Fatalf("page 1 of 2: %v (total %d, %v), want %s then %s", endpointIDs(first), total, err, ids[2], ids[1])
	}
	second, total, err := db.ListEndpoints(ctx, sharedDB, scope, 2, 2)
	if err != nil || total != 3 || len(second) != 1 || second[0].ID != ids[0] {
		t.Fatalf("page 2 of 2: %v (total %d, %v), want %s", endpointIDs(second), total, err, ids[0])
	}
	past, total, err := db.ListEndpoints(ctx, sharedDB, scope, 3, 2)
	if err != nil || total != 3 || past == nil || len(past) != 0 {
		t.Fatalf("past the last page: %v (total %d, %v), want no items and the total", past, total, err)
	}

	for i := range 3 {
		storeTx(t, domain.Transaction{ID: domain.NewID(""), AccountID: acct.ID, Type: domain.TypeAdjustment, Status: domain.StatusCompleted,
			Amount: 1, NetAmount: 1, CreatedAt: domain.NewTime(base.Add(time.Duration(i) * time.Minute))})
	}
	txs, total, err := db.ListTransactions(ctx, sharedDB, acct.ID, db.ListFilter{Page: 1, PageSize: 50})
	if err != nil || total != 3 || len(txs) != 3 || !txs[0].CreatedAt.After(txs[1].CreatedAt.Time) || !txs[1].CreatedAt.After(txs[2].CreatedAt.Time) {
		t.Fatalf("transactions: %d of %d (%v), want 3 newest first", len(txs), total, err)
	}
}

func endpointIDs(es []db.WebhookEndpoint) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
