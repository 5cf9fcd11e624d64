package db_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

// benchAccount opens an account for a benchmark (newAccount takes a *testing.T).
func benchAccount(b *testing.B) domain.Account {
	tag := strings.ReplaceAll(domain.NewID(""), "-", "")
	a, err := db.CreateAccount(b.Context(), sharedDB, domain.Account{ID: "acc_" + tag, Name: "Loja Bench",
		Email: "bench-" + tag + "@example.com", Document: "52998224725", Status: domain.AccountActive,
		Features: domain.DefaultFeatures(), Fees: domain.DefaultFees(), PixKey: domain.NewID("")})
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkTakeProductLine measures sales of one TEXT_LINES product, each
// its own transaction, from parallel goroutines: they queue on the
// product's row lock, so this is the rate one product can sell at.
func BenchmarkTakeProductLine(b *testing.B) {
	ctx := b.Context()
	acct := benchAccount(b)
	lines := make([]string, b.N)
	for i := range lines {
		lines[i] = fmt.Sprintf("L-%d", i)
	}
	var p store.Product
	if err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
		var err error
		p, err = db.InsertProduct(ctx, tx, store.Product{ID: domain.NewID("prod_"), AccountID: acct.ID, Name: "Bench",
			Status: store.ProductActive, Deliveries: store.Deliveries{{Type: store.DeliveryTextLines}}}, lines)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	var sale atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := fmt.Sprintf("s-%d", sale.Add(1))
			if err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
				_, err := db.TakeProductLine(ctx, tx, p.ID, id)
				return err
			}); err != nil {
				b.Error(err)
			}
		}
	})
}

// BenchmarkUseCoupon measures paid uses of one coupon (no maxUses), each
// its own transaction, from parallel goroutines queued on its row lock.
func BenchmarkUseCoupon(b *testing.B) {
	ctx := b.Context()
	acct := benchAccount(b)
	c, err := db.InsertCoupon(ctx, sharedDB, store.Coupon{ID: domain.NewID("cpn_"), AccountID: acct.ID, Code: "BENCH",
		DiscountType: store.CouponFixed, DiscountValue: 100, Status: store.CouponActive})
	if err != nil {
		b.Fatal(err)
	}
	var session atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := fmt.Sprintf("cs-%d", session.Add(1))
			if err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error { return db.UseCoupon(ctx, tx, c.ID, id) }); err != nil {
				b.Error(err)
			}
		}
	})
}
