package db_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
)

func storeStr(s string) *string { return &s }

// Payers with the same document, arriving at once, make one customer: each
// caller gets it, and it counts every payment added inside a transaction.
func TestFindOrCreateCustomerUnderConcurrency(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Clientes")
	const n = 8
	ids := make([]string, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
				c, err := db.FindOrCreateCustomer(ctx, tx, store.Customer{AccountID: acct.ID, Name: "Maria Silva",
					Document: "529.982.247-25", Email: storeStr("maria@example.com")})
				if err != nil {
					return err
				}
				ids[i] = c.ID
				return db.AddCustomerPayment(ctx, tx, c.ID, 1050)
			})
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("same document made two customers: %v", ids)
		}
	}
	c, err := db.GetCustomer(ctx, sharedDB, acct.ID, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if c.Document != "52998224725" || c.Type != store.CustomerPF || c.Status != store.CustomerActive {
		t.Fatalf("minimal customer %+v: want the bare document, PF, ACTIVE", c)
	}
	if c.Transactions != n || c.Volume != money.Cents(n*1050) {
		t.Fatalf("customer counts %d payments of %s, want %d of %s", c.Transactions, c.Volume, n, money.Cents(n*1050))
	}
}

// A document is unique among an account's live customers: a second insert
// is a 400 naming document; another account may have it; a deleted
// customer frees it; another account's customer is not found.
func TestCustomerDocumentUniquePerAccount(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b := newAccount(t, sharedDB, "Loja A"), newAccount(t, sharedDB, "Loja B")
	mk := func(accountID string) (store.Customer, error) {
		return db.InsertCustomer(ctx, sharedDB, store.Customer{ID: domain.NewID("cus_"), AccountID: accountID,
			Name: "Empresa", Document: "12ABC34501DE35", Email: storeStr("e@example.com")})
	}
	first, err := mk(a.ID)
	if err != nil || first.Type != store.CustomerPJ {
		t.Fatalf("first insert: %+v, %v (want a PJ)", first, err)
	}
	if _, err := mk(a.ID); !errors.Is(err, domain.ErrInvalid) || err.Error()[:8] != "document" {
		t.Fatalf("second insert in the same account: %v, want a 400 naming document", err)
	}
	if _, err := mk(b.ID); err != nil {
		t.Fatalf("another account with the same document: %v", err)
	}
	if _, err := db.GetCustomer(ctx, sharedDB, b.ID, first.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another account's customer: %v, want not found", err)
	}
	if err := db.DeleteCustomer(ctx, sharedDB, b.ID, first.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("delete through another account: %v, want not found", err)
	}
	if err := db.DeleteCustomer(ctx, sharedDB, a.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := mk(a.ID); err != nil {
		t.Fatalf("the document of a deleted customer: %v, want it free", err)
	}
}

// The list filters by status and type and searches name, e-mail and
// document (with or without punctuation); an update refuses another
// customer's document.
func TestListAndUpdateCustomers(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Lista")
	maria, err := db.InsertCustomer(ctx, sharedDB, store.Customer{ID: domain.NewID("cus_"), AccountID: acct.ID,
		Name: "Maria Silva", Document: "52998224725", Email: storeStr("maria@example.com")})
	if err != nil {
		t.Fatal(err)
	}
	firma, err := db.InsertCustomer(ctx, sharedDB, store.Customer{ID: domain.NewID("cus_"), AccountID: acct.ID,
		Name: "Firma Ltda", Document: "11222333000181", Email: storeStr("contato@firma.com.br"), Status: store.CustomerBlocked})
	if err != nil {
		t.Fatal(err)
	}
	list := func(f store.CustomerFilter) []string {
		t.Helper()
		f.Page, f.PageSize = 1, 50
		rows, total, err := db.ListCustomers(ctx, sharedDB, acct.ID, f)
		if err != nil || total != len(rows) {
			t.Fatalf("list %+v: %d rows, total %d, %v", f, len(rows), total, err)
		}
		var ids []string
		for _, r := range rows {
			ids = append(ids, r.ID)
		}
		return ids
	}
	for _, tt := range []struct {
		f    store.CustomerFilter
		want []string
	}{
		{store.CustomerFilter{}, []string{firma.ID, maria.ID}},
		{store.CustomerFilter{Search: "silva"}, []string{maria.ID}},
		{store.CustomerFilter{Search: "FIRMA.COM"}, []string{firma.ID}},
		{store.CustomerFilter{Search: "529.982"}, []string{maria.ID}},
		{store.CustomerFilter{Search: "100%"}, nil},
		{store.CustomerFilter{Status: store.CustomerBlocked}, []string{firma.ID}},
		{store.CustomerFilter{Type: store.CustomerPF}, []string{maria.ID}},
	} {
		got := list(tt.f)
		if len(got) != len(tt.want) || (len(got) > 0 && (got[0] != tt.want[0] || got[len(got)-1] != tt.want[len(tt.want)-1])) {
			t.Errorf("list %+v = %v, want %v", tt.f, got, tt.want)
		}
	}
	if _, err := db.UpdateCustomer(ctx, sharedDB, acct.ID, maria.ID, store.CustomerPatch{Document: storeStr(firma.Document)}); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("update to another customer's document: %v, want a 400", err)
	}
	up, err := db.UpdateCustomer(ctx, sharedDB, acct.ID, maria.ID, store.CustomerPatch{Document: storeStr("11444777000161"), City: storeStr("Recife")})
	if err != nil || up.Type != store.CustomerPJ || up.City == nil || *up.City != "Recife" || up.Name != "Maria Silva" {
		t.Fatalf("update to a CNPJ: %+v, %v (want type PJ, city set, name kept)", up, err)
	}
}
