package db_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

// Concurrent paid sessions count a coupon's uses exactly up to maxUses:
// the rest are refused with ErrCouponExhausted and write nothing, and a
// session counted once is not counted again.
func TestUseCouponUnderConcurrency(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Cupons")
	const maxUses, sessions = 3, 10
	n := int64(maxUses)
	c, err := db.InsertCoupon(ctx, sharedDB, store.Coupon{ID: domain.NewID("cpn_"), AccountID: acct.ID, Code: "Promo",
		DiscountType: store.CouponPercent, DiscountValue: 1000, MaxUses: &n, Status: store.CouponActive})
	if err != nil {
		t.Fatal(err)
	}
	use := func(session string) error {
		return db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error { return db.UseCoupon(ctx, tx, c.ID, session) })
	}
	errs := make([]error, sessions)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = use(fmt.Sprintf("cs_%d", i)) }()
	}
	wg.Wait()
	used, refused := 0, 0
	var first string
	for i, err := range errs {
		switch {
		case err == nil:
			used++
			if first == "" {
				first = fmt.Sprintf("cs_%d", i)
			}
		case errors.Is(err, store.ErrCouponExhausted):
			refused++
		default:
			t.Fatalf("session %d: %v", i, err)
		}
	}
	if used != maxUses || refused != sessions-maxUses {
		t.Fatalf("%d uses counted, %d refused; want %d and %d", used, refused, maxUses, sessions-maxUses)
	}
	if err := use(first); err != nil {
		t.Fatalf("a counted session again: %v, want nil (already counted)", err)
	}
	got, err := db.GetCouponByCode(ctx, sharedDB, acct.ID, "PROMO")
	if err != nil || got.Uses != maxUses {
		t.Fatalf("coupon by code in another case: uses %d, %v; want %d", got.Uses, err, maxUses)
	}
}

// A code is unique per account ignoring case (a 400 naming code); another
// account may have it; a deleted coupon frees it; maxUses below the uses is
// refused.
func TestCouponCodeAndScope(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b := newAccount(t, sharedDB, "Loja C1"), newAccount(t, sharedDB, "Loja C2")
	mk := func(accountID, code string) (store.Coupon, error) {
		return db.InsertCoupon(ctx, sharedDB, store.Coupon{ID: domain.NewID("cpn_"), AccountID: accountID, Code: code,
			DiscountType: store.CouponFixed, DiscountValue: 500, Status: store.CouponActive})
	}
	first, err := mk(a.ID, "BlackFriday")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mk(a.ID, "BLACKFRIDAY"); !errors.Is(err, domain.ErrInvalid) || err.Error()[:4] != "code" {
		t.Fatalf("the code in another case: %v, want a 400 naming code", err)
	}
	if _, err := mk(b.ID, "blackfriday"); err != nil {
		t.Fatalf("the code in another account: %v", err)
	}
	if _, err := db.GetCoupon(ctx, sharedDB, b.ID, first.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another account's coupon: %v", err)
	}
	if err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error { return db.UseCoupon(ctx, tx, first.ID, "cs_x") }); err != nil {
		t.Fatal(err)
	}
	zero := int64(0)
	if _, err := db.UpdateCoupon(ctx, sharedDB, a.ID, first.ID, store.CouponPatch{MaxUses: &zero}); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("maxUses below the uses: %v", err)
	}
	if err := db.DeleteCoupon(ctx, sharedDB, a.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := mk(a.ID, "blackFRIDAY"); err != nil {
		t.Fatalf("the code of a deleted coupon: %v", err)
	}
	rows, total, err := db.ListCoupons(ctx, sharedDB, a.ID, store.CouponFilter{Page: 1, PageSize: 10, Search: "friday", Status: store.CouponActive})
	if err != nil || total != 1 || len(rows) != 1 {
		t.Fatalf("list: %d rows, total %d, %v", len(rows), total, err)
	}
}
