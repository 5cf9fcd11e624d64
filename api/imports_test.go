package api

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbiddenImports are packages the HTTP layer must not import: handlers
// reach the database only through a use case (usecases.go), so that every
// route can be tested with the generated mocks and the layer rule of
// docs/architecture.md holds.
var forbiddenImports = []string{
	"github.com/jangada/jangada/db",
	"github.com/jangada/jangada/processor/sandbox",
}

// Package api does not import db (nor a processor
// adapter: the sandbox routes reach the simulator through service and
// processor.Simulator). Test files may (they build fixtures).
func TestAPIDoesNotImportDB(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checked++
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: import %s: %v", name, imp.Path.Value, err)
			}
			for _, bad := range forbiddenImports {
				if path == bad {
					t.Errorf("%s imports %s: handlers call a use case of package service instead", name, bad)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source file of package api found: the test runs in the wrong directory")
	}
}
