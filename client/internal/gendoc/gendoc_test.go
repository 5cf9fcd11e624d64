package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/jangada/jangada/api"
	"github.com/jangada/jangada/client/oapi"
)

// TestClientIsFresh fails when the committed client is stale: generated
// again (in memory) from the document api builds now, with the committed
// configuration, its files must be the committed *.gen.go files of
// client/oapi, no more, no fewer, byte for byte; and none is over maxLines.
// Fix: go generate ./client/...
func TestClientIsFresh(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "oapi"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	gen, err := clientFiles()
	if err != nil {
		t.Fatal(err)
	}
	committed, err := filepath.Glob("*.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range committed {
		code, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		switch want, ok := gen[name]; {
		case !ok:
			t.Errorf("client/oapi/%s is no longer generated: run go generate ./client/...", name)
		case !bytes.Equal(want, code):
			t.Errorf("client/oapi/%s is stale: run go generate ./client/...", name)
		}
	}
	for name, code := range gen {
		if !slices.Contains(committed, name) {
			t.Errorf("client/oapi/%s is missing: run go generate ./client/...", name)
		}
		if n := bytes.Count(code, []byte("\n")); n > maxLines {
			t.Errorf("%s has %d lines, over %d", name, n, maxLines)
		}
	}
}

// TestClientViewUnwrapsTheEnvelope checks the view's answers: a create's
// 200 is its data's schema, an operation without data has no body, no
// error answers, and numbers are 64-bit.
func TestClientViewUnwrapsTheEnvelope(t *testing.T) {
	doc, err := clientDocument()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"$ref": "#/components/schemas/ChargeCreated"`, `"format": "double"`} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("the client's document lacks %s", want)
		}
	}
	for _, gone := range []string{"#/components/schemas/Envelope", "#/components/responses/", `"float"`} {
		if bytes.Contains(doc, []byte(gone)) {
			t.Errorf("the client's document still has %s", gone)
		}
	}
}

// TestClientCoversEveryOperation: every operation of the merchant document
// has its typed call in the generated client (XxxWithResponse).
func TestClientCoversEveryOperation(t *testing.T) {
	tags, err := operationTags(api.MerchantOpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	iface := reflect.TypeFor[oapi.ClientWithResponsesInterface]()
	for i := range iface.NumMethod() {
		have[normalised(iface.Method(i).Name)] = true
	}
	for op := range tags {
		if !have[op+"withresponse"] {
			t.Errorf("operation %s has no %sWithResponse in client/oapi", op, op)
		}
	}
	if len(tags) < 100 {
		t.Fatalf("%d operations: the document lost its paths?", len(tags))
	}
}
