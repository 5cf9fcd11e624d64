package devserver

import (
	"context"
	"fmt"
	"net/http"
	"time"

	uiserver "github.com/temporalio/ui-server/v2/server"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	uiserveroptions "github.com/temporalio/ui-server/v2/server/server_options"
)

// newUI builds the Web UI server with the embedded assets, pointed at the
// in-process frontend.
func newUI(o Options, frontendAddr string) *uiserver.Server {
	return uiserver.NewServer(uiserveroptions.WithConfigProvider(&uiconfig.Config{
		Host:                o.FrontendIP,
		Port:                o.UIPort,
		TemporalGRPCAddress: frontendAddr,
		EnableUI:            true,
		DefaultNamespace:    o.Namespace,
		// Plain HTTP: a Secure CSRF cookie would never be sent back by the
		// browser and every write action in the UI would fail.
		CORS: uiconfig.CORS{CookieInsecure: true},
		// Echo's banner and per-request access log go straight to stdout.
		HideLogs: true,
		// No outbound calls to temporal.io from a dev box.
		DisableNewsFetch: true,
		Codec:            uiconfig.Codec{Endpoint: o.CodecEndpoint},
	}))
}

// startUI runs the UI in the background (its Start blocks, and calls
// os.Exit on a listen error, hence the port pre-check in Start) and waits
// until it answers HTTP so UIURL is usable as soon as Start returns and Stop
// can never race the listener being created.
func startUI(ctx context.Context, ui *uiserver.Server, url string) error {
	go func() { _ = ui.Start() }()
	hc := &http.Client{Timeout: time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/healthz", nil)
		if err != nil {
			return err
		}
		if resp, err := hc.Do(req); err == nil {
			_ = resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("devserver: UI did not come up at %s: %w", url, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
