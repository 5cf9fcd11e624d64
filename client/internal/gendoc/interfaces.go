package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// splitInterfaces replaces each of oapi-codegen's client interfaces
// (ClientInterface, ClientWithResponsesInterface: a method or two per
// operation, over a thousand lines for the whole API, one declaration that
// no cut between declarations can bring under maxLines) with one interface
// per tag, named for the tag and the interface (PaymentPixClient,
// PaymentPixClientWithResponses) and filed with that tag's operations, and
// the interface itself embedding them in oapi-codegen's order: its name,
// its doc comment and its method set stay what callers and mocks know.
func splitInterfaces(decls []*decl, fset *token.FileSet, src []byte, tags map[string]string) ([]*decl, error) {
	ops := make([]string, 0, len(tags))
	for op := range tags {
		ops = append(ops, op)
	}
	sortLongestFirst(ops)
	tf := fset.File(decls[0].node.Pos())
	var out []*decl
	for _, d := range decls {
		g, ok := d.node.(*ast.GenDecl)
		if !ok || !isInterface(d.node) || !strings.HasSuffix(candidates(d.node)[0], "Interface") {
			out = append(out, d)
			continue
		}
		spec := g.Specs[0].(*ast.TypeSpec)
		base := strings.TrimSuffix(spec.Name.Name, "Interface")
		var order []string
		methods := map[string][]string{}
		for _, m := range spec.Type.(*ast.InterfaceType).Methods.List {
			if len(m.Names) != 1 {
				return nil, fmt.Errorf("%s: an embedded interface or a field of several names", spec.Name.Name)
			}
			op := owner(normalised(m.Names[0].Name), ops)
			if op == "" {
				return nil, fmt.Errorf("%s.%s: no operation owns it", spec.Name.Name, m.Names[0].Name)
			}
			tag := tags[op]
			if _, seen := methods[tag]; !seen {
				order = append(order, tag)
			}
			from, to := m.Pos(), m.End()
			if m.Doc != nil {
				from = m.Doc.Pos()
			}
			if m.Comment != nil {
				to = m.Comment.End()
			}
			methods[tag] = append(methods[tag], string(src[tf.Offset(from):tf.Offset(to)]))
		}
		var embeds []string
		for _, tag := range order {
			name := camel(tag) + base
			text := fmt.Sprintf("// %s is the part of %s that calls the operations tagged %s.\ntype %s interface {\n\t%s\n}",
				name, spec.Name.Name, tag, name, strings.Join(methods[tag], "\n\n\t"))
			piece, err := parsed(text, tag)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			out = append(out, piece)
			embeds = append(embeds, name)
		}
		head := d.text[:strings.Index(d.text, "type "+spec.Name.Name)]
		whole, err := parsed(head+"type "+spec.Name.Name+" interface {\n\t"+strings.Join(embeds, "\n\t")+"\n}", d.group)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Name.Name, err)
		}
		out = append(out, whole)
	}
	return out, nil
}

// parsed is a declaration written here, parsed on its own (render reads
// the packages it uses from its syntax tree).
func parsed(text, group string) (*decl, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package oapi\n\n"+text+"\n", parser.ParseComments)
	if err != nil {
		return nil, err
	}
	return &decl{node: f.Decls[0], text: text, lines: strings.Count(text, "\n") + 1, group: group}, nil
}

// camel is a tag as a Go name: payment-pix, PaymentPix.
func camel(tag string) string {
	var b strings.Builder
	for _, word := range strings.FieldsFunc(tag, func(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == '.' || r == '/' }) {
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	return b.String()
}
