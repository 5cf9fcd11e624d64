package service_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// Concurrent internal transfers that together spend more than the sender
// can: the withdrawable check runs under the balance lock (the posting's
// Withdraw), so exactly as many pass as fit, and the refused ones write
// nothing.
func TestInternalTransfersNeverOverspend(t *testing.T) {
	t.Parallel()
	from, to := newAccount(t, "Loja Origem"), newAccount(t, "Loja Destino")
	fund(t, from.ID, 1000)
	s := &service.Internal{DB: sharedDB, PublicURL: "https://api.jangada.test"}
	var wg sync.WaitGroup
	errs := make([]error, 5)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Create(t.Context(), from, domain.APIKey{ID: "k"}, domain.NewInternal{Amount: 300, RecipientEmail: to.Email, Description: fmt.Sprint(i)})
		}()
	}
	wg.Wait()
	passed := 0
	for _, err := range errs {
		switch {
		case err == nil:
			passed++
		case !errors.Is(err, domain.ErrInsufficientBalance):
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if passed != 3 {
		t.Fatalf("%d transfers of R$ 3.00 passed from R$ 10.00, want 3", passed)
	}
	b, err := db.GetBalance(t.Context(), sharedDB, from.ID)
	if err != nil || b.Available != 100 {
		t.Fatalf("sender available %v (%v), want 100", b.Available, err)
	}
	var records int
	if err := sharedDB.GetContext(t.Context(), &records, `SELECT count(*) FROM transactions WHERE account_id = $1 AND type = $2`,
		from.ID, domain.TypeInternalOut); err != nil || records != 3 {
		t.Fatalf("%d INTERNAL_TRANSFER_OUT records (%v), want 3: a refused transfer writes nothing", records, err)
	}
	verifyLedger(t)
}
