package domain

import (
	"fmt"
	"slices"
)

// A View fills a product's own fields of a record's public form (its
// Details block, shown the product's way). A product whose records live in
// transactions registers one for each type it stores, from its own file,
// so the shared Public needs no branch per product.
type View func(t Transaction, p *PublicTransaction)

var views = map[string]View{}

// RegisterView sets the view of the given transaction types. It is called
// from package-level var declarations; a type registered twice panics at
// start-up, as two products claiming one type is a programming error.
func RegisterView(v View, types ...string) bool {
	for _, t := range types {
		if _, dup := views[t]; dup {
			panic(fmt.Sprintf("domain: a view for %s is already registered", t))
		}
		views[t] = v
	}
	return true
}

// HasView reports whether a transaction type has a registered view.
func HasView(txType string) bool { _, ok := views[txType]; return ok }

// ViewTypes lists the transaction types with a registered view.
func ViewTypes() []string {
	out := make([]string, 0, len(views))
	for t := range views {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}
