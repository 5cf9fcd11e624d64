package webhook

import (
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url          string
		allowPrivate bool
		want         string // "" = accepted, else a piece of the error
	}{
		{"https://example.com/hook", false, ""},
		{"http://example.com/hook", false, "https"},
		{"http://example.com/hook", true, ""},
		{"https://127.0.0.1/hook", false, "public"},
		{"https://localhost/hook", false, "localhost"},
		{"http://127.0.0.1:9/hook", true, ""},
		{"ftp://example.com/hook", true, "http or https"},
		{"example.com/hook", false, "http or https"},
		{"https://example.com/" + strings.Repeat("a", 2048), false, "2048"},
	} {
		err := CheckURL(c.url, c.allowPrivate)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s (allowPrivate %v): refused: %v", c.url, c.allowPrivate, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s (allowPrivate %v): got %v, want an error about %q", c.url, c.allowPrivate, err, c.want)
		}
	}
}
