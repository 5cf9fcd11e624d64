package api

// The headers an answer carries (api/middleware.go, api/ratelimit.go,
// api/idempotency.go), as components/headers that each answer references
// where the chain sends them.

// rateLimitHeaders are the limiter's headers (limit in api/ratelimit.go):
// on every answer the limiter counted.
var rateLimitHeaders = []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"}

// headerDocs are the document's components/headers.
var headerDocs = map[string]struct {
	description string
	schema      map[string]any
}{
	"X-Request-Id": {"the request's id, equal to the envelope's requestId (the caller's own X-Request-Id when it is 8 to 64 of A-Z a-z 0-9 . _ : -)",
		map[string]any{"type": "string"}},
	"RateLimit-Limit":     {"the budget of requests per minute (the API key's, or the caller's address without a valid key)", map[string]any{"type": "integer", "minimum": 0}},
	"RateLimit-Remaining": {"the requests left in the current window", map[string]any{"type": "integer", "minimum": 0}},
	"RateLimit-Reset":     {"seconds until the window resets", map[string]any{"type": "integer", "minimum": 0}},
	"Retry-After":         {"seconds to wait before trying again", map[string]any{"type": "integer", "minimum": 0}},
	"Idempotent-Replayed": {"true when the answer is the stored answer of an earlier request with the same Idempotency-Key (nothing was done again)",
		map[string]any{"type": "string", "enum": []string{"true"}}},
}

// headerComponents is components/headers.
func headerComponents() map[string]any {
	out := map[string]any{}
	for name, h := range headerDocs {
		out[name] = map[string]any{"description": h.description, "schema": h.schema}
	}
	// withRequestID sets it first, on every answer.
	out["X-Request-Id"].(map[string]any)["required"] = true
	return out
}

// headerRef references a header component.
func headerRef(name string) map[string]any {
	return map[string]any{"$ref": "#/components/headers/" + name}
}

// successHeaders are the headers of a route's success: the request id and
// the rate limit's always, Idempotent-Replayed where the idempotency
// middleware may answer a replay.
func successHeaders(r Route, admin bool) map[string]any {
	out := map[string]any{"X-Request-Id": headerRef("X-Request-Id")}
	for _, h := range rateLimitHeaders {
		out[h] = headerRef(h)
	}
	if idempotentRoute(r) && !admin {
		out["Idempotent-Replayed"] = headerRef("Idempotent-Replayed")
	}
	return out
}
