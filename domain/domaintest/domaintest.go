// Package domaintest holds the helpers the domain packages' table tests
// share: decoding a body as the HTTP edge does and checking a field error.
package domaintest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
)

// DecodeBody unmarshals a JSON request body as the HTTP edge does, so that
// amounts go through money's JSON rules (reais in, centavos out).
func DecodeBody[T any](t testing.TB, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return v
}

// WantFieldErr checks that err is a business error of kind and that its
// message starts with prefix (the field name, then a space).
func WantFieldErr(t testing.TB, err error, kind error, prefix string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one starting with %q", prefix)
	}
	if !errors.Is(err, kind) {
		t.Fatalf("error %q is not %v", err, kind)
	}
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("error %q is not a *domain.Error", err)
	}
	if !strings.HasPrefix(err.Error(), prefix+" ") {
		t.Fatalf("error %q does not start with %q", err, prefix+" ")
	}
}
