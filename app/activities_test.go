package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/jangada/jangada/activities"
)

// TestEveryActivityStructIsHosted reads package activities for the types
// whose exported methods take a context (its activity structs) and checks
// that the money worker hosts each (webhook delivery's on its own worker):
// a product's activities that the app does not build would never run.
func TestEveryActivityStructIsHosted(t *testing.T) {
	hosted := map[string]bool{}
	for _, s := range (&App{}).activities(activities.Base{}, nil) {
		hosted[reflect.TypeOf(s).Elem().Name()] = true
	}
	pkgs, err := parser.ParseDir(token.NewFileSet(), "../activities", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	structs := map[string]bool{}
	for _, f := range pkgs["activities"].Files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() || !takesContext(fn) {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if id, ok := recv.(*ast.Ident); ok && id.Name != "Base" {
				structs[id.Name] = true
			}
		}
	}
	delete(structs, "Webhooks")
	for s := range structs {
		if !hosted[s] {
			t.Errorf("activities.%s has activities but the worker does not host it: add it to App.activities", s)
		}
	}
	for s := range hosted {
		if !structs[s] {
			t.Errorf("App.activities hosts %s, which has no activity", s)
		}
	}
}

func takesContext(fn *ast.FuncDecl) bool {
	if len(fn.Type.Params.List) == 0 {
		return false
	}
	sel, ok := fn.Type.Params.List[0].Type.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Context" && sel.X.(*ast.Ident).Name == "context"
}
