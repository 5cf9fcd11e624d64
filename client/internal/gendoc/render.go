package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"path"
	"strconv"
	"strings"
	"unicode"
)

// Groups of the declarations no operation owns.
const (
	groupModels = "models" // the schemas' types, before the client in oapi-codegen's output
	groupClient = "client" // Client, ClientWithResponses, their options and interfaces
)

// classify gives each declaration its group: the tag of the operation it
// belongs to (the longest operation id its name starts with, once New or
// Parse is cut; a method by its receiver, a Client's by its own name), or
// models for the schemas (oapi-codegen writes them before RequestEditorFn,
// where its client begins), or client.
func classify(decls []*decl, tags map[string]string) error {
	ops := make([]string, 0, len(tags))
	for op := range tags {
		ops = append(ops, op)
	}
	// Longest first: sandboxMedsResolve before sandboxMeds.
	sortLongestFirst(ops)
	models := map[string]bool{}
	inModels := true
	for _, d := range decls {
		names := candidates(d.node)
		if names[0] == "RequestEditorFn" {
			inModels = false
		}
		d.group = ""
		for _, name := range names {
			if op := owner(normalised(name), ops); op != "" {
				d.group = tags[op]
				break
			}
		}
		switch {
		case d.group != "":
		case inModels || models[names[0]]:
			d.group = groupModels
			models[names[0]] = true
		case isInterface(d.node) && strings.HasSuffix(names[0], "Interface"):
			// ClientInterface, ClientWithResponsesInterface: a file each
			// (client_interface.gen.go), named for the interface.
			d.group = snake(names[0])
		default:
			d.group = groupClient
		}
	}
	if inModels {
		return fmt.Errorf("no RequestEditorFn: oapi-codegen's layout changed")
	}
	return nil
}

// isInterface reports whether n declares an interface type.
func isInterface(n ast.Decl) bool {
	g, ok := n.(*ast.GenDecl)
	if !ok || g.Tok != token.TYPE {
		return false
	}
	_, ok = g.Specs[0].(*ast.TypeSpec).Type.(*ast.InterfaceType)
	return ok
}

// snake is a Go name in snake case: ClientWithResponses, client_with_responses.
func snake(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sortLongestFirst orders operation ids by length, longest first, then by name.
func sortLongestFirst(ops []string) {
	for i := 1; i < len(ops); i++ {
		for j := i; j > 0 && (len(ops[j]) > len(ops[j-1]) || len(ops[j]) == len(ops[j-1]) && ops[j] < ops[j-1]); j-- {
			ops[j], ops[j-1] = ops[j-1], ops[j]
		}
	}
}

// owner is the first of ops (longest first) that name starts with.
func owner(name string, ops []string) string {
	for _, op := range ops {
		if strings.HasPrefix(name, op) {
			return op
		}
	}
	return ""
}

// candidates are the names that tell a declaration's owner, the first one
// naming it: a method's receiver type (a Client's or ClientWithResponses'
// own name), a function's name and that name without New or Parse, a
// type's name, a constant's type (an enum's values) or its name.
func candidates(n ast.Decl) []string {
	switch n := n.(type) {
	case *ast.FuncDecl:
		if n.Recv != nil && len(n.Recv.List) == 1 {
			t := n.Recv.List[0].Type
			if star, ok := t.(*ast.StarExpr); ok {
				t = star.X
			}
			recv := fmt.Sprint(t)
			if recv == "Client" || recv == "ClientWithResponses" {
				return []string{n.Name.Name}
			}
			return []string{recv}
		}
		name := n.Name.Name
		return []string{name, strings.TrimPrefix(strings.TrimPrefix(name, "New"), "Parse")}
	case *ast.GenDecl:
		switch s := n.Specs[0].(type) {
		case *ast.TypeSpec:
			return []string{s.Name.Name}
		case *ast.ValueSpec:
			if id, ok := s.Type.(*ast.Ident); ok {
				return []string{id.Name}
			}
			return []string{s.Names[0].Name}
		}
	}
	return []string{""}
}

// cut splits a group's declarations, in order, into parts whose
// declarations take at most budget lines (each with the blank line before it).
func cut(decls []*decl, budget int) [][]*decl {
	var parts [][]*decl
	var part []*decl
	used := 0
	for _, d := range decls {
		if len(part) > 0 && used+d.lines+1 > budget {
			parts = append(parts, part)
			part, used = nil, 0
		}
		part = append(part, d)
		used += d.lines + 1
	}
	return append(parts, part)
}

// render is one file: the generated-code line, what the file holds, the
// imports its declarations use (standard library first, as goimports
// groups them) and the declarations, gofmt'ed.
func render(header, group string, decls []*decl, imports []*ast.ImportSpec) ([]byte, error) {
	used := map[string]bool{}
	for _, d := range decls {
		ast.Inspect(d.node, func(n ast.Node) bool {
			// A package name is left unresolved by the parser; a local
			// variable of the same name is resolved, so it does not count.
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
					used[id.Name] = true
				}
			}
			return true
		})
	}
	var std, others []string
	for _, spec := range imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return nil, err
		}
		name := path.Base(p)
		line := spec.Path.Value
		if spec.Name != nil {
			name = spec.Name.Name
			line = name + " " + line
		}
		if !used[name] {
			continue
		}
		if strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
			others = append(others, line)
		} else {
			std = append(std, line)
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n// gendoc cut oapi-codegen's output into files: this one holds %s.\n\npackage oapi\n\n", header, holds(group))
	if len(std)+len(others) > 0 {
		b.WriteString("import (\n")
		for _, l := range std {
			b.WriteString("\t" + l + "\n")
		}
		if len(std) > 0 && len(others) > 0 {
			b.WriteString("\n")
		}
		for _, l := range others {
			b.WriteString("\t" + l + "\n")
		}
		b.WriteString(")\n\n")
	}
	for i, d := range decls {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(d.text)
	}
	b.WriteString("\n")
	return format.Source(b.Bytes())
}

// holds says what a group's file holds, for its header.
func holds(group string) string {
	switch group {
	case groupModels:
		return "the schemas' types"
	case groupClient:
		return "the client core (Client, ClientWithResponses and their options)"
	}
	if strings.HasSuffix(group, "_interface") {
		name := ""
		for word := range strings.SplitSeq(group, "_") {
			name += strings.ToUpper(word[:1]) + word[1:]
		}
		return "the interface " + name
	}
	return "the operations tagged " + group
}
