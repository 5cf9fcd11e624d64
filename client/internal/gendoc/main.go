// Command gendoc generates the Go client (client/oapi/*.gen.go): it
// writes the merchant API's OpenAPI document as api builds it (never
// fetched from a server), seen as the client sees it and in OpenAPI 3.0,
// to a temporary file, runs oapi-codegen (the go.mod tool) on it with
// client/oapi/oapi-codegen.yaml into a temporary file, and cuts that into
// files of at most 450 lines named for what they hold (split.go): one per
// tag of the operations, models.gen.go, client.gen.go. Run in client/oapi:
//
//	go run ../internal/gendoc .
//
// (client/oapi/generate.go's //go:generate line). The document is not
// committed: only a change that alters the generated code makes the
// committed client stale. `gendoc -document FILE` writes the served
// document (3.1) for the TypeScript client (clients/typescript).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jangada/jangada/api"
)

func main() {
	// -document FILE writes the merchant document as the API serves it
	// (GET /v1/openapi.json), for the TypeScript client's generator
	// (`make clients`), which reads OpenAPI 3.1 as it is.
	if len(os.Args) == 3 && os.Args[1] == "-document" {
		if err := os.WriteFile(os.Args[2], api.MerchantOpenAPI(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gendoc:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendoc <dir> | gendoc -document <file>")
		os.Exit(2)
	}
	if err := generate(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gendoc:", err)
		os.Exit(1)
	}
}

// generate writes the client's files (clientFiles) into dir and removes
// any other *.gen.go there (a file a former layout made); it runs in the
// directory of oapi-codegen.yaml.
func generate(dir string) error {
	files, err := clientFiles()
	if err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.gen.go"))
	if err != nil {
		return err
	}
	for _, name := range old {
		if _, ok := files[filepath.Base(name)]; !ok {
			if err := os.Remove(name); err != nil {
				return err
			}
		}
	}
	for name, code := range files {
		if err := os.WriteFile(filepath.Join(dir, name), code, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// clientFiles is the client generated from clientDocument, by file name:
// oapi-codegen's one file, in a temporary directory, cut by split into
// files of at most maxLines lines. It runs in the directory of
// oapi-codegen.yaml.
func clientFiles() (map[string][]byte, error) {
	doc, err := clientDocument()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "gendoc")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	spec := filepath.Join(tmp, "openapi.json")
	if err := os.WriteFile(spec, doc, 0o644); err != nil {
		return nil, err
	}
	out := filepath.Join(tmp, "client.gen.go")
	cmd := exec.Command("go", "tool", "oapi-codegen", "-config", "oapi-codegen.yaml", "-o", out, spec)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("oapi-codegen: %w\n%s", err, msg)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	return split(src, doc)
}

// clientDocument is the merchant document as the client sees it, in 3.0.
func clientDocument() ([]byte, error) {
	view, err := clientView(api.MerchantOpenAPI())
	if err != nil {
		return nil, err
	}
	doc, err := api.OpenAPI30(view)
	if err != nil {
		return nil, err
	}
	return append(doc, '\n'), nil
}

const envelopeRef = "#/components/schemas/Envelope"

// clientView rewrites the answers as the client's transport delivers them
// (client.New): the success envelope unwrapped, so that each operation's
// 200 is its data (none when the envelope has no data), and no error
// answers, since the transport turns every error envelope into a
// *client.Error. The generated code then decodes data into its own type,
// and carries no per-operation envelope or error types.
func clientView(doc []byte) ([]byte, error) {
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	paths, _ := d["paths"].(map[string]any)
	for _, item := range paths {
		item, _ := item.(map[string]any)
		for _, op := range item {
			op, _ := op.(map[string]any)
			responses, _ := op["responses"].(map[string]any)
			ok, _ := responses["200"].(map[string]any)
			if ok == nil {
				return nil, fmt.Errorf("operation %v has no 200 answer", op["operationId"])
			}
			op["responses"] = map[string]any{"200": unwrapped(ok)}
		}
	}
	doubles(d)
	comps, _ := d["components"].(map[string]any)
	delete(comps, "responses")
	schemas, _ := comps["schemas"].(map[string]any)
	delete(schemas, "Envelope")
	delete(schemas, "Error")
	return json.Marshal(d)
}

// doubles gives every JSON number its 64-bit format: oapi-codegen makes a
// bare number a float32, which cannot hold the centavos of a large amount,
// and knows no format decimal (an amount's two places, x-decimal-places).
func doubles(node any) {
	switch n := node.(type) {
	case map[string]any:
		if n["type"] == "number" && (n["format"] == nil || n["format"] == "decimal") {
			n["format"] = "double"
		}
		for _, v := range n {
			doubles(v)
		}
	case []any:
		for _, v := range n {
			doubles(v)
		}
	}
}

// unwrapped is a 200 answer with its envelope's data as the body.
func unwrapped(res map[string]any) map[string]any {
	content, _ := res["content"].(map[string]any)
	media, _ := content["application/json"].(map[string]any)
	if media == nil {
		return res // a raw answer (not an envelope): as it is
	}
	schema, _ := media["schema"].(map[string]any)
	if ref, _ := schema["$ref"].(string); ref == envelopeRef {
		return map[string]any{"description": res["description"]}
	}
	all, _ := schema["allOf"].([]any)
	for _, part := range all {
		part, _ := part.(map[string]any)
		props, _ := part["properties"].(map[string]any)
		if data, ok := props["data"]; ok {
			return map[string]any{"description": res["description"], "content": map[string]any{
				"application/json": map[string]any{"schema": data},
			}}
		}
	}
	if strings.Contains(fmt.Sprint(schema), envelopeRef) {
		panic(fmt.Sprintf("gendoc: an envelope gendoc does not know: %v", schema))
	}
	return res
}
