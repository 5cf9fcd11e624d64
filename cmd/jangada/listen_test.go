package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"
)

func TestListenFlags(t *testing.T) {
	t.Setenv("JANGADA_API_KEY", "")
	o, err := parseListen([]string{"--api-key", "k", "--forward-to", "http://localhost:3000/hooks", "--events", "payment.*, transfer.*"})
	if err != nil {
		t.Fatal(err)
	}
	if o.APIKey != "k" || o.WSURL != "ws://localhost:8081/v1" || strings.Join(o.Patterns, "|") != "payment.*|transfer.*" {
		t.Errorf("options %+v", o)
	}
	for _, help := range [][]string{{"-h"}, {"--help"}, {"help"}, {"--api-key", "k", "-h"}} {
		if _, err := parseListen(help); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%v: %v, want help", help, err)
		}
	}
	for _, bad := range [][]string{{}, {"--api-key", "k"}, {"--forward-to", "http://a"}, {"--nope"}, {"--api-key", "k", "--forward-to", "http://a", "extra"}} {
		if _, err := parseListen(bad); !isUsage(err) {
			t.Errorf("%v: %v, want a usage error", bad, err)
		}
	}
}

func TestRunListenHelpAndUsage(t *testing.T) {
	t.Setenv("JANGADA_API_KEY", "")
	var out, errOut bytes.Buffer
	if err := runListen(context.Background(), []string{"--help"}, &out, &errOut); err != nil || !strings.Contains(out.String(), "--forward-to URL") {
		t.Errorf("help: %v, stdout %q", err, out.String())
	}
	out.Reset()
	err := runListen(context.Background(), []string{"--forward-to", "http://a"}, &out, &errOut)
	if !isUsage(err) || !strings.Contains(errOut.String(), "--api-key is required") || !strings.Contains(errOut.String(), "usage: jangada listen") {
		t.Errorf("missing key: %v, stderr %q", err, errOut.String())
	}
}
