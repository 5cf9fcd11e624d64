package config

import (
	"strings"
	"testing"
)

func TestRequireAdminToken(t *testing.T) {
	t.Parallel()
	for token, ok := range map[string]bool{"": false, "change-me": false, "0123456789abcdef": true, "adm_" + strings.Repeat("x", 40): true} {
		if err := (Config{AdminToken: token}).RequireAdminToken(); (err == nil) != ok {
			t.Errorf("token %q: %v", token, err)
		}
	}
}
