package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// What `make run` writes into the tree (the dev payload
// key under .data/, the dev binary) and built binaries are neither committed
// (`git add .`) nor baked into an image (`COPY . .`).
func TestLocalStateIsIgnored(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	local := []string{".data/payload.key", ".data/temporal.db", ".bin/jangada", "bin/jangada", "api/api.test", ".env"}
	if _, err := exec.LookPath("git"); err == nil {
		for _, p := range local {
			cmd := exec.Command("git", "check-ignore", "-q", "--no-index", p)
			cmd.Dir = root
			if err := cmd.Run(); err != nil {
				t.Errorf(".gitignore does not cover %s (%v)", p, err)
			}
		}
	}
	raw, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	for _, want := range []string{".data/", ".bin/", "bin/", "**/*.key", ".env", ".git/"} {
		if !slices.Contains(lines, want) {
			t.Errorf(".dockerignore lacks %q", want)
		}
	}
}
