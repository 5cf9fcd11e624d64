package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// maxLines is the project's limit on a file's length (docs/architecture.md),
// generated files included.
const maxLines = 450

// decl is one top-level declaration of oapi-codegen's output: its source
// text (doc comment and trailing line comment included) and the file group
// it goes to.
type decl struct {
	node  ast.Decl
	text  string
	lines int
	group string
}

// split cuts oapi-codegen's single file src into files of at most maxLines
// lines, named for what they hold: an operation's declarations (its params
// and body types, its Client and ClientWithResponses methods, its request
// builders, its response type and parser) go to the file of the operation's
// first tag in the OpenAPI document doc (payment-pix: payment_pix.gen.go);
// the schemas' types to models.gen.go; the client core (Client, its
// options) to client.gen.go; each of the two interfaces is cut by tag
// (splitInterfaces), its parts filed with their operations. A group over the limit is
// cut between declarations into numbered parts (client_1.gen.go, ...).
// The declarations are copied as text, in oapi-codegen's order, so the
// split is deterministic; each file imports what its declarations use.
func split(src, doc []byte) (map[string][]byte, error) {
	tags, err := operationTags(doc)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "client.gen.go", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	header, err := generatedLine(src)
	if err != nil {
		return nil, err
	}
	decls, err := declarations(fset, f, src)
	if err != nil {
		return nil, err
	}
	if err := classify(decls, tags); err != nil {
		return nil, err
	}
	if decls, err = splitInterfaces(decls, fset, src, tags); err != nil {
		return nil, err
	}
	imports := f.Imports
	groups := map[string][]*decl{}
	var order []string
	for _, d := range decls {
		if _, ok := groups[d.group]; !ok {
			order = append(order, d.group)
		}
		groups[d.group] = append(groups[d.group], d)
	}
	out := map[string][]byte{}
	for _, g := range order {
		base := strings.NewReplacer("-", "_", " ", "_", ".", "_").Replace(strings.ToLower(g))
		parts := cut(groups[g], maxLines-headerLines-len(imports)-4)
		for i, part := range parts {
			name := base + ".gen.go"
			if len(parts) > 1 {
				name = base + "_" + strconv.Itoa(i+1) + ".gen.go"
			}
			code, err := render(header, g, part, imports)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if n := bytes.Count(code, []byte("\n")); n > maxLines {
				return nil, fmt.Errorf("%s: %d lines (a single declaration over %d?)", name, n, maxLines)
			}
			out[name] = code
		}
	}
	return out, nil
}

// operationTags maps each operation's id, normalised (lower case, letters
// and digits only), to its first tag.
func operationTags(doc []byte) (map[string]string, error) {
	var d struct {
		Paths map[string]map[string]struct {
			OperationID string   `json:"operationId"`
			Tags        []string `json:"tags"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	tags := map[string]string{}
	for _, item := range d.Paths {
		for _, op := range item {
			if op.OperationID == "" || len(op.Tags) == 0 {
				continue
			}
			if op.Tags[0] == groupModels || op.Tags[0] == groupClient {
				return nil, fmt.Errorf("tag %q: gendoc's own group has that name", op.Tags[0])
			}
			tags[normalised(op.OperationID)] = op.Tags[0]
		}
	}
	return tags, nil
}

// normalised is a name in lower case without its separators: an
// operation id and the Go name oapi-codegen made of it compare equal.
func normalised(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// headerLines is what render puts before the imports: the generated-code
// line, the line naming the group, a blank line, the package clause and a
// blank line.
const headerLines = 5

// generatedLine is oapi-codegen's "Code generated ... DO NOT EDIT." line,
// which every file keeps (go vet and editors skip generated files by it).
func generatedLine(src []byte) (string, error) {
	for line := range strings.SplitSeq(string(src), "\n") {
		if strings.HasPrefix(line, "// Code generated ") && strings.HasSuffix(line, " DO NOT EDIT.") {
			return line, nil
		}
	}
	return "", fmt.Errorf("no generated-code line")
}

// declarations are the file's top-level declarations but the imports, each
// with its text from its doc comment to the end of its last line. Every
// comment must belong to one (or to the file's header): a comment between
// declarations would otherwise be lost.
func declarations(fset *token.FileSet, f *ast.File, src []byte) ([]*decl, error) {
	tf := fset.File(f.Pos())
	var decls []*decl
	type span struct{ from, to int }
	var spans []span
	for _, n := range f.Decls {
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		start := n.Pos()
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Doc != nil {
				start = n.Doc.Pos()
			}
		case *ast.GenDecl:
			if n.Doc != nil {
				start = n.Doc.Pos()
			}
		}
		from := tf.Offset(start)
		to := tf.Offset(n.End())
		if i := bytes.IndexByte(src[to:], '\n'); i >= 0 {
			to += i
		} else {
			to = len(src)
		}
		text := string(src[from:to])
		decls = append(decls, &decl{node: n, text: text, lines: strings.Count(text, "\n") + 1})
		spans = append(spans, span{from, to})
	}
	pkg := tf.Offset(f.Package)
	for _, c := range f.Comments {
		at := tf.Offset(c.Pos())
		if at < pkg {
			continue
		}
		if !slices.ContainsFunc(spans, func(s span) bool { return s.from <= at && at < s.to }) {
			return nil, fmt.Errorf("comment outside any declaration at %s", fset.Position(c.Pos()))
		}
	}
	return decls, nil
}
