package twofactor

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

func codeAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNewSecret(t *testing.T) {
	t.Parallel()
	e, err := NewSecret("Jangada", "ana@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Secret) < 16 || !strings.HasPrefix(e.URI, "otpauth://totp/Jangada:ana@example.com?") || !strings.Contains(e.URI, "secret="+e.Secret) {
		t.Fatalf("enrollment %+v", e)
	}
	if other, _ := NewSecret("Jangada", "ana@example.com"); other.Secret == e.Secret {
		t.Fatal("two enrollments got the same secret")
	}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	e, _ := NewSecret("Jangada", "ana@example.com")
	now := time.Date(2026, 11, 29, 12, 0, 10, 0, time.UTC)
	step := now.Unix() / 30
	tests := []struct {
		name     string
		code     string
		last     int64
		wantStep int64 // 0: refused
	}{
		{"this step", codeAt(t, e.Secret, now), 0, step},
		{"the step before (clock skew)", codeAt(t, e.Secret, now.Add(-30*time.Second)), 0, step - 1},
		{"the step after", codeAt(t, e.Secret, now.Add(30*time.Second)), 0, step + 1},
		{"two steps old", codeAt(t, e.Secret, now.Add(-60*time.Second)), 0, 0},
		{"replayed", codeAt(t, e.Secret, now), step, 0},
		{"older than the last accepted", codeAt(t, e.Secret, now.Add(-30*time.Second)), step, 0},
		{"wrong", "000000", 0, 0},
		{"not six digits", "12345", 0, 0},
	}
	for _, tt := range tests {
		got, err := Verify(e.Secret, tt.code, now, tt.last)
		if tt.wantStep == 0 {
			// A wrong code could collide with a real one 3 times in 10^6.
			if err == nil && tt.code != "000000" {
				t.Errorf("%s: accepted at step %d", tt.name, got)
			}
			if err != nil && !errors.Is(err, ErrCode) {
				t.Errorf("%s: error %v", tt.name, err)
			}
			continue
		}
		if err != nil || got != tt.wantStep {
			t.Errorf("%s: Verify = %d, %v; want step %d", tt.name, got, err, tt.wantStep)
		}
	}
}

func TestRecoveryCodes(t *testing.T) {
	t.Parallel()
	codes, hashes := RecoveryCodes()
	if len(codes) != RecoveryCount || len(hashes) != RecoveryCount {
		t.Fatalf("%d codes, %d hashes", len(codes), len(hashes))
	}
	seen := map[string]bool{}
	for i, c := range codes {
		if len(c) != 14 || c[4] != '-' || c[9] != '-' || seen[c] {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
		if hashes[i] == c || strings.Contains(hashes[i], c) {
			t.Fatal("a hash holds its code")
		}
	}
	// Typed in lower case without dashes, used once.
	typed := strings.ToLower(strings.ReplaceAll(codes[3], "-", ""))
	left, ok := UseRecovery(hashes, typed)
	if !ok || len(left) != RecoveryCount-1 {
		t.Fatalf("UseRecovery = %d left, %v", len(left), ok)
	}
	if _, again := UseRecovery(left, codes[3]); again {
		t.Fatal("a recovery code was used twice")
	}
	if _, ok := UseRecovery(left, "AAAA-AAAA-AAAA"); ok {
		t.Fatal("an unknown code was accepted")
	}
}

func TestSealer(t *testing.T) {
	if _, err := NewSealer([]byte("short")); err == nil {
		t.Fatal("a short key was taken")
	}
	s, err := NewSealer([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	sealed := s.Seal("sub_1", "JBSWY3DPEHPK3PXP")
	if strings.Contains(sealed, "JBSWY3DPEHPK3PXP") || sealed == s.Seal("sub_1", "JBSWY3DPEHPK3PXP") {
		t.Fatalf("sealed %q shows the secret or is not randomised", sealed)
	}
	if got, err := s.Open("sub_1", sealed); err != nil || got != "JBSWY3DPEHPK3PXP" {
		t.Fatalf("open = %q, %v", got, err)
	}
	if _, err := s.Open("sub_2", sealed); err != ErrSealed {
		t.Fatalf("opened for another owner: %v", err)
	}
	other, _ := NewSealer([]byte("fedcba9876543210fedcba9876543210"))
	if _, err := other.Open("sub_1", sealed); err != ErrSealed {
		t.Fatalf("opened under another key: %v", err)
	}
	if _, err := s.Open("sub_1", "!!"); err != ErrSealed {
		t.Fatalf("garbage opened: %v", err)
	}
}
