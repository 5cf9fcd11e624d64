package service

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// processorCallsAllowed are the outside party's calls a use case may make
// itself, each because the HTTP answer needs the party's reply (the recipe's
// table, docs/architecture.md "a call to an outside party"); every other
// call is an activity's, which Temporal retries.
var processorCallsAllowed = []string{
	"NewCharge", "NewAuthorization", "CreditReport", "RegisterBoleto", "TokenizeCard",
	"CryptoRate", "CryptoDepositAddress", "RechargeOffer", "CancelRecharge",
}

// TestProcessorCallsAreTheRecipesExceptions reads the package's sources
// for calls through a Processor field and fails on one the recipe does not
// list (the sandbox's simulator, behind the sandbox routes, is not one).
func TestProcessorCallsAreTheRecipesExceptions(t *testing.T) {
	t.Parallel()
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for name, f := range pkgs["service"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			method, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if field, ok := method.X.(*ast.SelectorExpr); ok && field.Sel.Name == "Processor" {
				calls++
				if !slices.Contains(processorCallsAllowed, method.Sel.Name) {
					t.Errorf("%s: a use case calls Processor.%s; make it an activity, or list it in the recipe with the reason", name, method.Sel.Name)
				}
			}
			return true
		})
	}
	if calls == 0 {
		t.Fatal("found no processor call: the test no longer reads the use cases")
	}
}
