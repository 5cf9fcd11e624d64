package ws

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
)

// Every error code and action the gateway's code speaks is in the domain's
// lists, which the API's document describes the frames with.
func TestProtocolWordsAreTheDomains(t *testing.T) {
	codes := regexp.MustCompile(`(?:sendError\(|"code": )"([A-Z_]+)"`)
	actions := regexp.MustCompile(`(?:case|m\.Action ==) "([a-z]+)"`)
	files, _ := filepath.Glob("*.go")
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range codes.FindAllSubmatch(src, -1) {
			seen++
			if !slices.Contains(domain.WSErrorCodes, string(m[1])) {
				t.Errorf("%s: error code %s is not in domain.WSErrorCodes", f, m[1])
			}
		}
		for _, m := range actions.FindAllSubmatch(src, -1) {
			seen++
			if !slices.Contains(domain.WSActions, string(m[1])) {
				t.Errorf("%s: action %s is not in domain.WSActions", f, m[1])
			}
		}
	}
	if seen < 10 {
		t.Fatalf("only %d protocol words found: the patterns no longer match the code", seen)
	}
}
