package sandbox

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strconv"
	"strings"
	"testing"
)

// TestEveryKindIsDelivered reads the package's Kind constants and checks
// that each has its deliverer: a simulation that arms a kind without
// registering what its delivery does would settle nothing.
func TestEveryKindIsDelivered(t *testing.T) {
	t.Parallel()
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := 0
	for _, f := range pkgs["sandbox"].Files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				for i, n := range v.Names {
					if !strings.HasPrefix(n.Name, "Kind") || i >= len(v.Values) {
						continue
					}
					lit, ok := v.Values[i].(*ast.BasicLit)
					if !ok {
						continue
					}
					kind, _ := strconv.Unquote(lit.Value)
					kinds++
					if _, ok := deliverers[kind]; !ok {
						t.Errorf("%s (%q) has no onDelivery entry", n.Name, kind)
					}
				}
			}
		}
	}
	if kinds != len(deliverers) {
		t.Errorf("%d Kind constants, %d deliverers", kinds, len(deliverers))
	}
}
