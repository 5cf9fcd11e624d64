package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// BenchmarkInternalTransferRequest measures what the HTTP layer spends on
// one POST /v1/transfer-internal/create beside its use case (a mock): the
// middleware chain, the key, the body read and checked, the answer
// written. Under load every request pays it on the API's cores, beside
// the ledger's batch.
func BenchmarkInternalTransferRequest(b *testing.B) {
	f := newFixture(b, withConfig(func(c *config.Config) { c.RateLimitPerMinute = 1 << 30 }))
	key := testKey("*")
	key.RateLimitPerMinute = 1 << 30
	f.withKey(key)
	now := domain.NewTime(time.Now())
	out := domain.Transaction{
		ID: "tx_internal_bench", AccountID: testAccountID, APIKeyID: &key.ID, Type: domain.TypeInternalOut,
		Status: domain.StatusCompleted, Amount: money.Cents(1), NetAmount: money.Cents(1), Description: "1",
		CompletedAt: &now, CreatedAt: now,
		Details: domain.SomeJSON(domain.Details{PairID: "pair_bench", RecipientEmail: "outra@example.com",
			RecipientName: "Outra Loja", CounterpartyID: "acc_other"}),
	}
	f.internal.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(out, nil).AnyTimes()
	h := f.srv.Handler()
	const body = `{"amount": 0.01, "recipientEmail": "outra@example.com", "description": "1"}`
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/v1/transfer-internal/create", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-API-Key", testSecret)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body.String())
		}
	}
}
