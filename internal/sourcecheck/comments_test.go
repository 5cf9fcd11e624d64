// Package sourcecheck holds checks over the module's own source files.
// It has no code of its own: it reads files only, so it runs in the unit
// tier (make unit).
package sourcecheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// historyMarker is what names where a change came from rather than why
// the code is so: an issue number or a review tag. That history belongs in
// commit bodies and docs/ (docs/architecture.md, "Commits and comments").
var historyMarker = regexp.MustCompile(`(?i)\bissues?\s*#?\d+|\breview finding|\(review\)`)

// Comments say why, never which issue or review asked for it.
func TestCommentsNameNoIssueOrReview(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".gen.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) { // the mocks: their comments are mockgen's
			return nil
		}
		checked++
		rel, _ := filepath.Rel(root, path)
		for _, g := range f.Comments {
			for _, c := range g.List {
				if loc := historyMarker.FindStringIndex(c.Text); loc != nil {
					line := fset.Position(c.Slash).Line + strings.Count(c.Text[:loc[0]], "\n")
					t.Errorf("%s:%d: comment names %q: say why, and leave the history to the commit body",
						rel, line, c.Text[loc[0]:loc[1]])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked under %s: the walk missed the module", checked, root)
	}
}

// moduleRoot is the directory of go.mod, above the package's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// The pattern finds the markers and leaves the security review alone.
func TestHistoryMarker(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"MED disputes (issue 25).":                    true,
		"Issue 21 item 3: a forged notice":            true,
		"decided for issue #24":                       true,
		"Issues 24 and 26: coins confirmed late":      true,
		"Review finding: a paid notice":               true,
		"settled late (review)":                       true,
		"a withdrawal held for security review":       false,
		"the review still times out":                  false,
		"the dispute goes UNDER_REVIEW":               false,
		"(docs/performance.md, item 17, has figures)": false,
		"reissue 5 times before giving up":            false,
	} {
		if got := historyMarker.MatchString(text); got != want {
			t.Errorf("%q: matched %v, want %v", text, got, want)
		}
	}
}
