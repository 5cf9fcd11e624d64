package main

import (
	"testing"

	"github.com/jangada/jangada/config"
)

// The admin CLI follows the instance it runs beside: JANGADA_ADMIN_URL
// when set, else the server's own JANGADA_ADMIN_ADDR.
func TestAdminBase(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr, url, want string
	}{
		{"", "", "http://127.0.0.1:8082"},
		{"127.0.0.1:9182", "", "http://127.0.0.1:9182"},
		{"0.0.0.0:8082", "", "http://localhost:8082"},
		{"127.0.0.1:9182", "https://ops.example.com", "https://ops.example.com"},
	} {
		if got := adminBase(config.Config{AdminAddr: c.addr}, c.url); got != c.want {
			t.Errorf("adminBase(%q, %q) = %q, want %q", c.addr, c.url, got, c.want)
		}
	}
}
