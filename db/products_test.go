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

// newLinesProduct stores a TEXT_LINES product of acct with lines.
func newLinesProduct(t *testing.T, accountID string, lines ...string) store.Product {
	t.Helper()
	var p store.Product
	err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
		var err error
		p, err = db.InsertProduct(t.Context(), tx, store.Product{ID: domain.NewID("prod_"), AccountID: accountID, Name: "Licença",
			Status: store.ProductActive, Deliveries: store.Deliveries{{Type: store.DeliveryTextLines}}}, lines)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Concurrent sales of a TEXT_LINES product each get a different line, in
// order, until none is left; then every further sale is refused with
// ErrNoLinesLeft and writes nothing. A sale asking again gets its line.
func TestTakeProductLineUnderConcurrency(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Linhas")
	const stock, sales = 5, 12
	var lines []string
	for i := range stock {
		lines = append(lines, fmt.Sprintf("KEY-%d", i+1))
	}
	p := newLinesProduct(t, acct.ID, lines...)
	if p.LinesAvailable != stock || p.LinesDelivered != 0 {
		t.Fatalf("new product counts %d left, %d given; want %d, 0", p.LinesAvailable, p.LinesDelivered, stock)
	}
	got := make([]string, sales)
	errs := make([]error, sales)
	var wg sync.WaitGroup
	for i := range sales {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
				var err error
				got[i], err = db.TakeProductLine(ctx, tx, p.ID, fmt.Sprintf("sale-%d", i))
				return err
			})
		}()
	}
	wg.Wait()
	seen := map[string]int{}
	refused := 0
	for i := range sales {
		switch {
		case errors.Is(errs[i], store.ErrNoLinesLeft):
			refused++
		case errs[i] != nil:
			t.Fatalf("sale %d: %v", i, errs[i])
		default:
			if prev, dup := seen[got[i]]; dup {
				t.Fatalf("sales %d and %d both got %q", prev, i, got[i])
			}
			seen[got[i]] = i
		}
	}
	if len(seen) != stock || refused != sales-stock {
		t.Fatalf("%d lines handed out, %d sales refused; want %d and %d", len(seen), refused, stock, sales-stock)
	}
	for _, l := range lines {
		if _, ok := seen[l]; !ok {
			t.Fatalf("line %q was never handed out: %v", l, seen)
		}
	}
	// The same sale again: the same line, nothing more taken.
	first := seen["KEY-1"]
	err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
		again, err := db.TakeProductLine(ctx, tx, p.ID, fmt.Sprintf("sale-%d", first))
		if err == nil && again != "KEY-1" {
			err = fmt.Errorf("the sale's retry got %q, want KEY-1", again)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	after, err := db.GetProduct(ctx, sharedDB, acct.ID, p.ID)
	if err != nil || after.LinesAvailable != 0 || after.LinesDelivered != stock {
		t.Fatalf("after the sales: %d left, %d given, %v; want 0, %d", after.LinesAvailable, after.LinesDelivered, err, stock)
	}
}

// An update's linesText replaces the lines not handed out; the lines
// handed out stay with their sales; dropping TEXT_LINES drops the stock.
func TestUpdateProductLines(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Estoque")
	p := newLinesProduct(t, acct.ID, "A", "B", "C")
	take := func(sale string) (string, error) {
		var l string
		err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
			var err error
			l, err = db.TakeProductLine(ctx, tx, p.ID, sale)
			return err
		})
		return l, err
	}
	if l, err := take("s1"); err != nil || l != "A" {
		t.Fatalf("first sale: %q, %v", l, err)
	}
	newStock := []string{"X", "Y"}
	up, err := db.UpdateProduct(ctx, sharedDB, acct.ID, p.ID, store.ProductPatch{Lines: &newStock})
	if err != nil || up.LinesAvailable != 2 || up.LinesDelivered != 1 {
		t.Fatalf("replace the stock: %d left, %d given, %v; want 2, 1", up.LinesAvailable, up.LinesDelivered, err)
	}
	if l, err := take("s2"); err != nil || l != "X" {
		t.Fatalf("sale after the new stock: %q, %v; want X", l, err)
	}
	if l, err := take("s1"); err != nil || l != "A" {
		t.Fatalf("the first sale again: %q, %v; want A", l, err)
	}
	none := store.Deliveries{{Type: store.DeliveryLink, RedirectURL: "https://example.com/d"}}
	up, err = db.UpdateProduct(ctx, sharedDB, acct.ID, p.ID, store.ProductPatch{Deliveries: &none, Lines: &[]string{}})
	if err != nil || up.LinesAvailable != 0 || up.LinesDelivered != 2 || up.Deliveries[0].Type != store.DeliveryLink {
		t.Fatalf("drop TEXT_LINES: %+v, %v", up, err)
	}
	if _, err := take("s3"); !errors.Is(err, store.ErrNoLinesLeft) {
		t.Fatalf("a sale with no stock: %v, want ErrNoLinesLeft", err)
	}
}

// A sku is unique among the account's live products (a 400 naming sku);
// LockProducts and MissingProducts see only the account's live products.
func TestProductSKUAndScope(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b := newAccount(t, sharedDB, "Loja SKU"), newAccount(t, sharedDB, "Loja Outra")
	mk := func(accountID, sku string) (store.Product, error) {
		var p store.Product
		err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
			var err error
			p, err = db.InsertProduct(ctx, tx, store.Product{ID: domain.NewID("prod_"), AccountID: accountID, Name: "Curso",
				SKU: &sku, Status: store.ProductActive, Deliveries: store.Deliveries{}}, nil)
			return err
		})
		return p, err
	}
	first, err := mk(a.ID, "CUR-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mk(a.ID, "CUR-1"); !errors.Is(err, domain.ErrInvalid) || err.Error()[:3] != "sku" {
		t.Fatalf("the same sku again: %v, want a 400 naming sku", err)
	}
	other, err := mk(b.ID, "CUR-1")
	if err != nil {
		t.Fatalf("the same sku in another account: %v", err)
	}
	second, err := mk(a.ID, "CUR-2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateProduct(ctx, sharedDB, a.ID, second.ID, store.ProductPatch{SKU: storeStr("CUR-1")}); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("update to a taken sku: %v", err)
	}
	missing, err := db.MissingProducts(ctx, sharedDB, a.ID, []string{first.ID, other.ID, "prod_nope"})
	if err != nil || len(missing) != 2 {
		t.Fatalf("missing: %v, %v; want the other account's and the unknown one", missing, err)
	}
	err = db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
		got, err := db.LockProducts(ctx, tx, a.ID, []string{second.ID, other.ID, first.ID})
		if err == nil && (len(got) != 2 || got[0].ID > got[1].ID) {
			err = fmt.Errorf("locked %d products, want this account's two in id order", len(got))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteProduct(ctx, sharedDB, a.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := mk(a.ID, "CUR-1"); err != nil {
		t.Fatalf("the sku of a deleted product: %v, want it free", err)
	}
	if _, err := db.GetProduct(ctx, sharedDB, a.ID, first.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a deleted product: %v", err)
	}
}
