package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// serveAdmin sends one request to the operators' listener.
func (f *fixture) serveAdmin(method, path string, headers ...string) *httptest.ResponseRecorder {
	f.t.Helper()
	r := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	f.srv.AdminHandler().ServeHTTP(w, r)
	recordAnswer(method, path, w.Code)
	return w
}

// The runtime profiles are the operators': on the admin listener only, and
// the admin token opens them, nothing else does.
func TestAdminPprof(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if w := f.serveAdmin("GET", "/admin/v1/debug/pprof/heap?debug=1"); w.Code != http.StatusUnauthorized {
		t.Fatalf("without the admin token: %d, want 401", w.Code)
	}
	w := f.serveAdmin("GET", "/admin/v1/debug/pprof/heap?debug=1", "X-Admin-Token", testAdminToken)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "heap profile") {
		t.Fatalf("heap profile: %d %.200s", w.Code, w.Body.String())
	}
	if w := f.serveAdmin("GET", "/admin/v1/debug/pprof/", "X-Admin-Token", testAdminToken); w.Code != http.StatusOK ||
		!strings.Contains(w.Body.String(), "goroutine") {
		t.Fatalf("index: %d", w.Code)
	}
	// Not on the merchant port, even with the token.
	r := httptest.NewRequest("GET", "/admin/v1/debug/pprof/heap?debug=1", nil)
	r.Header.Set("X-Admin-Token", testAdminToken)
	w = httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(w, r)
	if w.Code != http.StatusNotFound {
		t.Fatalf("pprof on the merchant listener: %d, want 404", w.Code)
	}
}
