package api

import (
	"net/http"
	"strings"
)

// idempotentRoute says whether the idempotency middleware guards the row
// (the rule New applies).
func idempotentRoute(r Route) bool {
	return r.Method == http.MethodPost && (strings.HasSuffix(r.Path, "/create") || r.Idempotent)
}

// errorCodes are the error statuses a route may answer, each a shared
// response with the error envelope.
func errorCodes(admin bool, r Route) []string {
	codes := []string{"400", "401"}
	if !admin {
		codes = append(codes, "403")
	}
	codes = append(codes, "404", "409")
	if idempotentRoute(r) {
		codes = append(codes, "422")
	}
	return append(codes, "429", "500", "503")
}

var errorStatuses = map[string]string{
	"400": "invalid input; the message names the field",
	"401": "missing or invalid credentials",
	"403": "the key lacks the permission (x-permission) or the account the feature (x-feature)",
	"404": "not found (another account's id is not found either)",
	"409": "conflict with the resource's state",
	"422": "the Idempotency-Key names a resource another request made (the key was reused after its 24 h window with another body): nothing was done; send a new key",
	"429": "rate limited; Retry-After says when to try again",
	"500": "internal error",
	"503": "a dependency is unavailable; Retry-After says when to try again",
}

func errorResponses() map[string]any {
	out := map[string]any{}
	for code, desc := range errorStatuses {
		out[code] = map[string]any{
			"description": desc,
			"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}},
		}
	}
	return out
}
