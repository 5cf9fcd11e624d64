package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestClientIsFresh fails when the committed client is stale: generated
// again (into a temporary file) from the document api builds now, with the
// committed configuration, it must be the committed client.gen.go. Fix:
// go generate ./client/...
func TestClientIsFresh(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "oapi"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out := filepath.Join(t.TempDir(), "client.gen.go")
	if err := generate(out); err != nil {
		t.Fatal(err)
	}
	gen, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	code, err := os.ReadFile("client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gen, code) {
		t.Fatal("client/oapi/client.gen.go is stale: run go generate ./client/...")
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
