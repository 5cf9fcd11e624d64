package domain

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The event names are one list: every Event… constant of event.go is in
// Catalog and Catalog holds nothing else, so a product that adds an event
// constant and forgets the list (or the reverse) fails here.
func TestCatalogListsEveryEventConstant(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "event.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []string
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			for i, name := range v.Names {
				if !strings.HasPrefix(name.Name, "Event") {
					continue
				}
				lit, ok := v.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s is not a string literal", name.Name)
				}
				ev, _ := strconv.Unquote(lit.Value)
				consts = append(consts, ev)
				if !slices.Contains(Catalog, ev) {
					t.Errorf("%s = %q is not in Catalog", name.Name, ev)
				}
			}
		}
	}
	for _, ev := range Catalog {
		if !slices.Contains(consts, ev) {
			t.Errorf("Catalog's %q has no Event… constant in event.go", ev)
		}
	}
	seen := map[string]bool{}
	for _, ev := range Catalog {
		if seen[ev] {
			t.Errorf("%q is listed twice", ev)
		}
		seen[ev] = true
	}
}

// Every event of the list is reached by its family's pattern and by "*",
// and the derived family patterns are the ones endpoints may subscribe to
// (KnownPattern): adding an event to the list is all it takes for webhooks
// and WebSocket subscriptions to route it.
func TestEveryCatalogEventMatchesItsFamilyPattern(t *testing.T) {
	families := FamilyPatterns()
	if families[0] != "*" {
		t.Fatalf("FamilyPatterns()[0] = %q, want *", families[0])
	}
	for _, ev := range Catalog {
		if !ValidPattern(ev) || !KnownPattern(ev) {
			t.Errorf("%q is not a known pattern of itself", ev)
		}
		fp := Family(ev) + ".*"
		if !slices.Contains(families, fp) {
			t.Errorf("%q: family pattern %q not derived", ev, fp)
		}
		for _, p := range []string{"*", fp} {
			if !Matches(p, ev) {
				t.Errorf("Matches(%q, %q) = false", p, ev)
			}
		}
		for _, other := range families[1:] {
			if other != fp && Matches(other, ev) {
				t.Errorf("%q also matches another family's pattern %q", ev, other)
			}
		}
	}
	for _, p := range families {
		if !KnownPattern(p) {
			t.Errorf("derived pattern %q is not a known pattern", p)
		}
	}
	want := []string{"*", "payment.*", "refund.*", "transfer.*", "med.*", "invoice.*", "webhook.*"}
	if !slices.Equal(families, want) {
		t.Errorf("FamilyPatterns() = %v, want %v", families, want)
	}
	if Family("payment_link.paid") != "payment" || Family("transfer.internal.received") != "transfer" {
		t.Error("Family: payment_link.paid is a payment event, transfer.internal.received a transfer event")
	}
}
