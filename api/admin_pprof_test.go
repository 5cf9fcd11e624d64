package api

import (
	"net/http"
	"strings"
	"testing"
)

// The runtime profiles are the operators': the admin token opens them,
// nothing else does.
func TestAdminPprof(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if w := f.serve("GET", "/admin/v1/debug/pprof/heap?debug=1", ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("without the admin token: %d, want 401", w.Code)
	}
	w := f.serve("GET", "/admin/v1/debug/pprof/heap?debug=1", "", "X-Admin-Token", testAdminToken)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "heap profile") {
		t.Fatalf("heap profile: %d %.200s", w.Code, w.Body.String())
	}
	if w := f.serve("GET", "/admin/v1/debug/pprof/", "", "X-Admin-Token", testAdminToken); w.Code != http.StatusOK ||
		!strings.Contains(w.Body.String(), "goroutine") {
		t.Fatalf("index: %d", w.Code)
	}
}
