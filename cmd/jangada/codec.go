package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/jangada/jangada/codec"
	"github.com/jangada/jangada/config"
)

// runCodec serves the payload codec endpoint (POST /encode, /decode) for an
// operator's Temporal Web UI and CLI (`temporal --codec-endpoint`), with the
// key of JANGADA_PAYLOAD_KEY, on a loopback address only: it opens every
// sealed payload and seals what the worker will trust, so it runs on the
// operator's side, behind the operator's access (their workstation, whose
// browser the UI makes call it; or a bastion reached through an
// authenticating proxy) — never beside the merchant ports.
func runCodec(ctx context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("codec", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8234", "loopback address to listen on")
	origins := fs.String("origins", "http://localhost:8233,http://127.0.0.1:8233", "comma-separated origins of the Temporal Web UI allowed to call it from a browser")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := cfg.RequirePayloadKey(); err != nil {
		return err
	}
	c, err := codec.FromBase64(cfg.PayloadKey)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv, err := c.Serve(l, strings.Split(*origins, ",")...)
	if err != nil {
		l.Close()
		return err
	}
	fmt.Printf("payload codec endpoint on http://%s (UI: TEMPORAL_CODEC_ENDPOINT; CLI: --codec-endpoint)\n", l.Addr())
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}
