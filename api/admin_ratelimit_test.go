package api

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/jangada/jangada/config"
)

// The admin API has its own budget per address, spent before the token is
// checked: guessing the token is throttled.
func TestAdminAPIHasItsOwnRateLimit(t *testing.T) {
	t.Parallel()
	s := New(Deps{Config: config.Config{AdminToken: "0123456789abcdef", AdminRateLimitPerMinute: 3, RateLimitPerMinute: 100}})
	codes := []int{}
	for range 5 {
		req := httptest.NewRequest(http.MethodGet, "/admin/v1/accounts/acc_x", nil)
		req.Header.Set("X-Admin-Token", "wrong-guess")
		w := httptest.NewRecorder()
		s.AdminHandler().ServeHTTP(w, req)
		codes = append(codes, w.Code)
	}
	want := []int{401, 401, 401, 429, 429}
	for i := range want {
		if codes[i] != want[i] {
			t.Fatalf("codes %v, want %v", codes, want)
		}
	}
}
