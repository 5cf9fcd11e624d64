//go:build !devserver

package main

import (
	"context"
	"errors"

	"github.com/jangada/jangada/config"
)

// runDev is absent from production builds: the embedded Temporal server and
// UI add 200 MB to the binary. `make run` builds with -tags devserver.
func runDev(context.Context, config.Config) error {
	return errors.New("this binary was built without the embedded dev server: use `make run` (go run -tags devserver ./cmd/jangada dev)")
}
