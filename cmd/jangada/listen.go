package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jangada/jangada/internal/listen"
)

const listenUsage = `usage: jangada listen --api-key KEY --forward-to URL [--events PATTERNS] [--ws-url URL] [--secret whsec_…]

Connects to the WebSocket gateway, subscribes to the events and forwards each one to URL exactly as a
webhook delivery would arrive (same body, x-jangada-* and Standard Webhooks headers, both signatures),
signed with the whsec_ secret printed at start. One line per event: time, event, delivery id (the
gateway's, also sent as x-jangada-delivery), resource id, the receiver's answer. A lost connection is retried after 1, 2, 4, 8, 16, then every 30 s, and
re-subscribed.

  --api-key KEY       the merchant API key (default $JANGADA_API_KEY)
  --forward-to URL    where to POST each event, e.g. http://localhost:3000/hooks
  --events PATTERNS   comma-separated patterns, e.g. payment.*,transfer.* (default *)
  --ws-url URL        the gateway (default ws://localhost:8081/v1)
  --secret whsec_…    sign with this secret instead of a new one (keeps the receiver's setting across runs)
`

// usageError is a command line that cannot run: the usage is printed and
// main exits 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// isUsage reports whether err is a usageError.
func isUsage(err error) bool {
	var u usageError
	return errors.As(err, &u)
}

// parseListen reads listen's flags; -h/--help/help is flag.ErrHelp.
func parseListen(args []string) (listen.Options, error) {
	fs := flag.NewFlagSet("listen", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the usage is ours, printed once by runListen
	o := listen.Options{}
	fs.StringVar(&o.APIKey, "api-key", os.Getenv("JANGADA_API_KEY"), "")
	fs.StringVar(&o.ForwardTo, "forward-to", "", "")
	events := fs.String("events", "*", "")
	fs.StringVar(&o.WSURL, "ws-url", "ws://localhost:8081/v1", "")
	fs.StringVar(&o.Secret, "secret", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err.Error()}
	}
	for _, a := range fs.Args() {
		if a == "help" {
			return o, flag.ErrHelp
		}
	}
	if fs.NArg() > 0 {
		return o, usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	switch {
	case o.APIKey == "":
		return o, usageError{"--api-key is required"}
	case o.ForwardTo == "":
		return o, usageError{"--forward-to is required"}
	}
	for _, p := range strings.Split(*events, ",") {
		if p = strings.TrimSpace(p); p != "" {
			o.Patterns = append(o.Patterns, p)
		}
	}
	return o, nil
}

// runListen is `jangada listen` (internal/listen).
func runListen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseListen(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, listenUsage)
		return nil
	}
	if err != nil {
		fmt.Fprintf(stderr, "jangada listen: %v\n\n%s", err, listenUsage)
		return err
	}
	o.Out = stdout
	l, err := listen.New(o)
	if err != nil {
		fmt.Fprintf(stderr, "jangada %v\n\n%s", err, listenUsage)
		return usageError{err.Error()}
	}
	return l.Run(ctx)
}
