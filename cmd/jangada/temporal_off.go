//go:build !devserver

package main

import (
	"context"
	"errors"

	"github.com/jangada/jangada/config"
)

// runTemporal is absent from production builds, like runDev: the embedded
// Temporal server and UI add 200 MB to the binary.
func runTemporal(context.Context, config.Config, []string) error {
	return errors.New("this binary was built without the embedded dev server: build with -tags devserver for `jangada temporal`")
}
