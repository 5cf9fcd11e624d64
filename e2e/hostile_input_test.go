package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/jangada/jangada/api"
)

// Whatever a client sends — hostile bodies, path ids and query strings —
// every route of the route table answers a success or a 4xx error
// envelope, never a 5xx: bad input never reaches the database as an error.
func TestHostileInputOnEveryRoute(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	e.negatives = true // every request is hostile on purpose: answers checked, not requests
	m := e.merchant()
	ids := []string{"%00", "a%00b", "%ff%fe", strings.Repeat("x", 300), "..%2F..%2Fetc", "%27%3B%20DROP%20TABLE%20accounts%3B--", "-1", "0"}
	queries := []string{"", "page=%00", "page=-1", "pageSize=100000", "status=%ff", "dateFrom=yesterday", "search=%00",
		"externalReference=" + strings.Repeat("y", 2000), "subaccountId=%27", "page=1&page=x"}
	bodies := []string{"", "{", "[]", "null", `{"amount": "%00"}`, `{"amount": 1e999, "description": "\u0000"}`,
		`{"description": "` + strings.Repeat("z", 100_000) + `"}`, "{\"description\": \"\xff\xfe\"}",
		`{"pixKey": "\u0000", "pixKeyType": "EMAIL", "amount": 1}`, `{"transactionId": "\u0000", "amount": 1}`,
		`{"recipientEmail": "a@b.co\u0000", "amount": 1}`, `{"url": "https://example.com/\u0000", "events": ["*"]}`,
		`{"triggerType": "ONCE", "scheduledAt": "\u0000", "payload": {"method": "interna"}}`}
	check := func(method, target, body string) {
		t.Helper()
		res := e.call(m.Key, method, target, body)
		if res.Status >= 500 || (res.Status >= 400 && (res.Success || res.Message == "" || res.ReqID == "")) {
			t.Fatalf("%s %s body %.60q: %d %q", method, target, body, res.Status, res.Message)
		}
	}
	for _, r := range api.Routes() {
		paths := []string{"/v1" + r.Path}
		if strings.Contains(r.Path, ":id") {
			paths = paths[:0]
			for _, id := range ids {
				paths = append(paths, "/v1"+strings.Replace(r.Path, ":id", id, 1))
			}
		}
		for _, path := range paths {
			for _, q := range queries { // hostile query strings everywhere
				check(r.Method, path+"?"+q, "")
			}
			if r.Method == http.MethodGet {
				continue // GET routes read no body
			}
			for _, body := range bodies {
				check(r.Method, path, body)
			}
		}
	}
}
