package api

import (
	"encoding/json"
	"testing"

	"github.com/jangada/jangada/domain"
)

// Every catalog event is in the document's webhooks section, with its
// envelope, its data schema and the delivery headers; no section documents
// an event the catalog does not have.
func TestEveryEventIsDocumented(t *testing.T) {
	t.Parallel()
	var doc struct {
		Webhooks map[string]struct {
			Post struct {
				Parameters  []struct{ Name string }
				RequestBody struct {
					Content map[string]struct {
						Schema struct {
							Properties map[string]json.RawMessage
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(MerchantOpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, name := range domain.Catalog {
		if _, ok := eventDocs[name]; !ok {
			t.Errorf("%s: no eventDocs entry (api/openapi_events.go)", name)
		}
		hook, ok := doc.Webhooks[name]
		if !ok {
			t.Errorf("%s: not in the document's webhooks", name)
			continue
		}
		if len(hook.Post.Parameters) != len(deliveryHeaders) {
			t.Errorf("%s: %d header parameters, want %d", name, len(hook.Post.Parameters), len(deliveryHeaders))
		}
		data := hook.Post.RequestBody.Content["application/json"].Schema.Properties["data"]
		if len(data) == 0 || string(data) == "{}" {
			t.Errorf("%s: no data schema", name)
		}
	}
	catalog := map[string]bool{}
	for _, name := range domain.Catalog {
		catalog[name] = true
	}
	for name := range eventDocs {
		if !catalog[name] {
			t.Errorf("eventDocs documents %s, which the catalog does not have", name)
		}
	}
}
