package api

import (
	"fmt"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// formDoc says that a route also reads its body as multipart/form-data
// (readForm): the JSON body's text fields as text parts of the same
// names, and the files below. The document then offers both media types.
type formDoc struct {
	// Files are the file parts by name.
	Files map[string]fileDoc
	// JSONOnly are the body's fields a form does not carry (their
	// content is a file part's there).
	JSONOnly []string
}

// fileDoc is one file part.
type fileDoc struct {
	// Types are the media types accepted (sniffed from the bytes).
	Types []string
	// MaxBytes bounds one file; MaxItems > 1 makes the part a list.
	MaxBytes, MaxItems int
	// Required says a request without the file is refused.
	Required bool
	// Description adds what else holds.
	Description string
}

// multipartMedia is the multipart/form-data media type of a body whose
// JSON schema is body: each scalar field of the JSON body a text part,
// each file of f a binary part with its types in the encoding.
func multipartMedia(body *jsonschema.Schema, f *formDoc) map[string]any {
	props := map[string]any{}
	var required []string
	if body.Properties != nil {
		for p := body.Properties.Oldest(); p != nil; p = p.Next() {
			if slices.Contains(f.JSONOnly, p.Key) || p.Value.Type == "object" || p.Value.Type == "array" {
				continue
			}
			props[p.Key] = p.Value
			if slices.Contains(body.Required, p.Key) {
				required = append(required, p.Key)
			}
		}
	}
	encoding := map[string]any{}
	for name, file := range f.Files {
		desc := fmt.Sprintf("%s, at most %d KiB", strings.Join(file.Types, ", "), file.MaxBytes>>10)
		if file.Description != "" {
			desc += "; " + file.Description
		}
		part := map[string]any{"type": "string", "format": "binary", "description": desc}
		if file.MaxItems > 1 {
			part = map[string]any{"type": "array", "maxItems": file.MaxItems, "items": part, "description": desc}
		}
		props[name] = part
		if file.Required {
			required = append(required, name)
		}
		encoding[name] = map[string]any{"contentType": strings.Join(file.Types, ", ")}
	}
	schema := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		schema["required"] = required
	}
	return map[string]any{"schema": schema, "encoding": encoding}
}
