package schedule

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
)

func TestActsForChecksTheKeyAsItStands(t *testing.T) {
	t.Parallel()
	pix, internal, cripto := Payload{Method: MethodPix}, Payload{Method: MethodInternal}, Payload{Method: MethodCrypto}
	revoked := domain.NewTime(time.Now())
	for _, c := range []struct {
		name string
		key  domain.APIKey
		p    Payload
		from string
		want string // "" = allowed
	}{
		{"full key", domain.APIKey{Permissions: []string{"*"}}, pix, "203.0.113.7", ""},
		{"group wildcard", domain.APIKey{Permissions: []string{"transfer-internal/*"}}, internal, "", ""},
		{"schedules only cannot send PIX", domain.APIKey{Permissions: []string{"transfer-scheduled/*"}}, pix, "", "permission transfer-pix/create"},
		{"PIX key cannot move internally", domain.APIKey{Permissions: []string{"transfer-pix/create"}}, internal, "", "permission transfer-internal/create"},
		{"crypto runs quote and send", domain.APIKey{Permissions: []string{"transfer-crypto-auto/create"}}, cripto, "", ""},
		{"PIX key cannot send crypto", domain.APIKey{Permissions: []string{"transfer-pix/*"}}, cripto, "", "permission transfer-crypto-auto/create"},
		{"revoked", domain.APIKey{Permissions: []string{"*"}, RevokedAt: &revoked}, pix, "", "revoked"},
		{"allowlist still admits", domain.APIKey{Permissions: []string{"*"}, IPAllowlist: []string{"203.0.113.0/24"}}, pix, "203.0.113.7", ""},
		{"allowlist no longer admits", domain.APIKey{Permissions: []string{"*"}, IPAllowlist: []string{"198.51.100.0/24"}}, pix, "203.0.113.7", "203.0.113.7"},
	} {
		err := ActsFor(c.key, c.p, c.from)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != "" && (err == nil || !errors.Is(err, domain.ErrForbidden) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want a refusal about %q", c.name, err, c.want)
		}
	}
}
