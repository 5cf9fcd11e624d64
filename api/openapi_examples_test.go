package api

import "testing"

// TestEveryBodyHasAnExample holds every operation that reads a JSON body,
// in both APIs, to an Example: the document shows it, the required fields
// are derived from it and the contract test sends it.
func TestEveryBodyHasAnExample(t *testing.T) {
	t.Parallel()
	for _, api := range []struct {
		name   string
		routes []Route
		docs   map[string]Doc
	}{
		{"merchant", Routes(), merchantDocs},
		{"admin", adminRoutes(), adminDocs},
	} {
		for _, r := range api.routes {
			doc := api.docs[docKey(r)]
			if doc.Body != nil && doc.Example == nil {
				t.Errorf("%s %s reads a %T body but has no Example: add a realistic, valid one to its Doc", api.name, docKey(r), doc.Body)
			}
			if doc.Body == nil && (doc.Example != nil || len(doc.Alternatives) > 0) {
				t.Errorf("%s %s has an Example but no Body", api.name, docKey(r))
			}
		}
	}
}
