package api

import (
	"net/http"
	"reflect"
	"strings"
)

// idempotentRoute says whether the idempotency middleware guards the row
// (the rule New applies).
func idempotentRoute(r Route) bool {
	return r.Method == http.MethodPost && (strings.HasSuffix(r.Path, "/create") || r.Idempotent)
}

// errorCodes are the error statuses a route may answer, each a shared
// response with the error envelope, derived from what the row and its Doc
// say the request carries and what the chain New builds for it does:
//
//   - 400 everywhere: besides a body, a query, a path parameter or an
//     Idempotency-Key, any query string is input the server checks on
//     every route (cleanInput refuses a NUL, invalid UTF-8 or an
//     oversized value of any parameter, declared or not: the e2e
//     hostile-input test sends them to every route);
//   - 401 everywhere: every route is authenticated;
//   - 403 on every merchant route: its permission (x-permission) and
//     feature (x-feature) are checked, and any key's IP allowlist is,
//     whatever the route (the admin API has neither);
//   - 404 where something is looked up: a path parameter, or an id the
//     body or query names (lookupFields);
//   - 409 and 422 where the Idempotency-Key middleware runs (a retry in
//     flight; a key reused past its window for another request);
//   - 429, 500 and 503 everywhere: every route is rate-limited, and any may
//     fail or find a dependency away.
func errorCodes(admin bool, r Route, doc Doc) []string {
	idem := idempotentRoute(r) && !admin
	params := len(pathParams(r.Path)) > 0
	codes := []string{"400", "401"}
	if !admin {
		codes = append(codes, "403")
	}
	if params || lookupFields(doc.Body) || lookupFields(doc.Query) {
		codes = append(codes, "404")
	}
	if idem {
		codes = append(codes, "409", "422")
	}
	return append(codes, "429", "500", "503")
}

// lookupFields says whether a body or query names a resource the use case
// looks up, and so may not find, at any depth: a field named id or ending
// in Id (transactionId, subaccountId, linkId, e2eId, a schedule payload's
// subaccountId, …), or one of the names the spec gives a looked-up
// resource without the suffix (a dunning's payment, a report's customer,
// an internal transfer's recipient account by recipientEmail).
func lookupFields(v any) bool {
	if v == nil {
		return false
	}
	return lookupIn(reflect.TypeOf(v), 0)
}

func lookupIn(t reflect.Type, depth int) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || depth > 3 {
		return false
	}
	for name, ft := range fieldTypes(t) {
		switch {
		case name == "id", strings.HasSuffix(name, "Id"), strings.HasSuffix(name, "ID"),
			name == "payment", name == "customer", name == "recipientEmail":
			return true
		case lookupIn(ft, depth+1):
			return true
		}
	}
	return false
}

var errorStatuses = map[string]string{
	"400": "invalid input (a body, a parameter, any query value); the message names the field",
	"401": "missing or invalid credentials",
	"403": "the key lacks the permission (x-permission), the account the feature (x-feature), or the key's IP allowlist refuses the caller's address",
	"404": "not found (another account's id is not found either)",
	"409": "a request with the same Idempotency-Key is still in progress: retry after Retry-After",
	"422": "the Idempotency-Key names a resource another request made (the key was reused after its 24 h window with another body): nothing was done; send a new key",
	"429": "rate limited; Retry-After says when to try again",
	"500": "internal error",
	"503": "a dependency is unavailable; Retry-After says when to try again",
}

// retryAfter are the error answers that carry Retry-After.
var retryAfter = map[string]bool{"409": true, "429": true, "503": true}

func errorResponses() map[string]any {
	out := map[string]any{}
	for code, desc := range errorStatuses {
		// The limiter's headers are on every answer it counted: all but
		// a 503 given before it (the key could not be checked), so they
		// are optional, as every header but X-Request-Id is.
		headers := map[string]any{"X-Request-Id": headerRef("X-Request-Id")}
		for _, h := range rateLimitHeaders {
			headers[h] = headerRef(h)
		}
		if retryAfter[code] {
			headers["Retry-After"] = headerRef("Retry-After")
		}
		out[code] = map[string]any{
			"description": desc,
			"headers":     headers,
			"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}},
		}
	}
	return out
}
