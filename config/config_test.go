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

// The trusted proxies, the admin address and the WebSocket caps: their defaults, and
// a bad trusted-proxy list refused at start rather than trusting anyone.
func TestLoadProxiesAdminAndWSCaps(t *testing.T) {
	cfg, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AdminAddr != "127.0.0.1:8082" || len(cfg.TrustedProxies) != 0 ||
		cfg.WSMaxPerAddress != 100 || cfg.WSMaxPerKey != 100 {
		t.Fatalf("defaults: admin %q proxies %v ws caps %d/%d", cfg.AdminAddr,
			cfg.TrustedProxies, cfg.WSMaxPerAddress, cfg.WSMaxPerKey)
	}
	t.Setenv("JANGADA_TRUSTED_PROXIES", "10.0.0.0/8,fd00::/8")
	t.Setenv("JANGADA_WS_MAX_PER_ADDRESS", "5000")
	t.Setenv("JANGADA_WS_MAX_PER_KEY", "7")
	t.Setenv("JANGADA_ADMIN_ADDR", "0.0.0.0:9090")
	if cfg, err = Load(); err != nil {
		t.Fatal(err)
	}
	if len(cfg.TrustedProxies) != 2 || cfg.TrustedProxies[1] != "fd00::/8" || cfg.WSMaxPerAddress != 5000 ||
		cfg.WSMaxPerKey != 7 || cfg.AdminAddr != "0.0.0.0:9090" {
		t.Fatalf("from the environment: %+v", cfg)
	}
	t.Setenv("JANGADA_TRUSTED_PROXIES", "10.0.0.0/8,everyone")
	if _, err := Load(); err == nil || !strings.Contains(err.Error(), "TRUSTED_PROXIES") {
		t.Fatalf("a bad proxy list: %v, want an error naming JANGADA_TRUSTED_PROXIES", err)
	}
	t.Setenv("JANGADA_TRUSTED_PROXIES", "")
	t.Setenv("JANGADA_WS_MAX_PER_KEY", "0")
	if _, err := Load(); err == nil {
		t.Fatal("a WebSocket cap of 0 was accepted")
	}
}
