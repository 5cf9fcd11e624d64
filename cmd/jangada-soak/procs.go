package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/jangada/jangada/internal/procs"
)

// proc is one child process of the split (temporal, an api, a worker).
type proc = procs.Proc

// buildBinary builds the jangada binary with the embedded Temporal into
// the user's cache directory, where an unchanged build is not relinked.
func buildBinary(ctx context.Context) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return procs.Build(ctx, filepath.Join(dir, "jangada-soak"))
}
