package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath finds Debian's chromium, installing it with the project's
// script when it is missing; "" when it cannot be had.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	// A test runs in its package's folder (whatever -trimpath does to
	// the binary's file names).
	script := filepath.Join("..", "scripts", "ensure-chromium.sh")
	if out, err := exec.Command("bash", script).CombinedOutput(); err != nil {
		t.Logf("scripts/ensure-chromium.sh: %v: %s", err, out)
		return ""
	}
	p, _ := exec.LookPath("chromium")
	return p
}

// Payment links in a real browser: headless chromium opens a link's pay page,
// fills and sends its form, lands on the session page (QR, copy-paste,
// countdown), and once the sandbox pays the charge the page says "pago"
// without reloading (Server-Sent Events). The merchant's `<script>` in the
// link's name renders as text. A screenshot is saved in the test's temp
// dir; the page's first paint and the "pago" latency are logged.
func TestCheckoutBrowser(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	prod := e.product(m, map[string]any{"name": "<script>document.title='pwned'</script>", "price": 19.90, "deliveries": []map[string]any{
		{"type": "TEXT_LINES", "linesText": "CHAVE-<b>1</b>"}}})
	linkID := e.link(m, map[string]any{"name": "<script>document.title='pwned'</script>", "fixedAmount": 19.90, "customerMode": "REQUIRED",
		"productIds": []string{prod}})

	if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/pay/"+linkID), chromedp.WaitVisible("#pagar")); err != nil {
		t.Fatalf("pay page: %v", err)
	}
	title := value(t, ctx, chromedp.Title())
	nameText := value(t, ctx, chromedp.Text("h1"))
	productText := value(t, ctx, chromedp.Text(".product-name"))
	if title == "pwned" || nameText != "<script>document.title='pwned'</script>" || productText != nameText {
		t.Fatalf("the merchant's <script> ran or was not shown as text: title %q, h1 %q, product %q", title, nameText, productText)
	}

	if err := chromedp.Do(ctx,
		chromedp.SendKeys("#name", "Ana Lima"),
		chromedp.SendKeys("#document", "529.982.247-25"),
		chromedp.SendKeys("#email", "ana@example.com"),
		chromedp.Click("#pagar"),
		chromedp.WaitVisible("#qr"),
	); err != nil {
		t.Fatalf("checkout through the form: %v", err)
	}
	sessionURL := value(t, ctx, chromedp.Location())
	status := value(t, ctx, chromedp.Text("#status"))
	copyPaste := value(t, ctx, chromedp.Value("#copia"))
	firstPaint := value(t, ctx, chromedp.Evaluate[float64](
		`(performance.getEntriesByName('first-contentful-paint')[0]||performance.getEntriesByType('paint')[0]||{startTime:-1}).startTime`))
	// A marker that a reload would erase.
	value(t, ctx, chromedp.Evaluate[bool](`window.__notReloaded = true`))
	if status != "aguardando pagamento" || !strings.HasPrefix(copyPaste, "000201") {
		t.Fatalf("session page: status %q, copy-paste %q", status, copyPaste)
	}
	sid := sessionURL[strings.LastIndex(sessionURL, "/")+1:]
	txID := e.session(m, sid)["transactionId"].(string)

	// Pay once the page's event stream is open.
	eventuallyWithin(t, 20*time.Second, "the session page's event stream to watch", func() bool {
		return e.app.Watchers.Count() > 0
	})
	payAt := time.Now()
	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+txID+"/pay", nil); p.Status != 200 {
		t.Fatalf("pay: %d %s", p.Status, p.Message)
	}
	value(t, ctx, chromedp.Poll[bool](`document.getElementById('status').textContent === 'pago'`, chromedp.WithPollingInterval(10*time.Millisecond)))
	update := time.Since(payAt)
	if got := value(t, ctx, chromedp.Text("#itens")); got != "<script>document.title='pwned'</script>: CHAVE-<b>1</b>" {
		t.Fatalf("delivery shown = %q", got)
	}
	if !value(t, ctx, chromedp.Evaluate[bool](`window.__notReloaded === true`)) {
		t.Fatal(`the page reloaded to show "pago": it must update live`)
	}
	shots := screenshots(t)
	shots.save(ctx, "checkout-paid.png")
	t.Logf("session page first contentful paint %.0f ms; \"pago\" shown %s after the pay call; screenshot in %s",
		firstPaint, update.Round(time.Millisecond), shots.dir)
	e.verifyLedger()
}

// newBrowser is a phone-sized headless chromium (Debian's, installed by
// the project's script when missing) for one test, 90 s at most, closed
// with the test; the test is skipped when chromium cannot be had.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	chromium := chromiumPath(t)
	if chromium == "" {
		t.Skip("chromium is not installed and scripts/ensure-chromium.sh could not install it (needs root, apt-get and Debian's package mirror)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:0:0],
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(390, 844), // a phone
		chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	return ctx
}

// shotSaver keeps a test's screenshots in its temp dir, and a copy in
// JANGADA_E2E_SCREENSHOTS when set (the temp dir goes with the test).
type shotSaver struct {
	t   *testing.T
	dir string
}

func screenshots(t *testing.T) shotSaver { return shotSaver{t: t, dir: t.TempDir()} }

func (s shotSaver) save(ctx context.Context, name string) {
	s.t.Helper()
	shot := value(s.t, ctx, chromedp.FullScreenshot(100))
	dirs := []string{s.dir}
	if keep := os.Getenv("JANGADA_E2E_SCREENSHOTS"); keep != "" {
		dirs = append(dirs, keep)
	}
	for _, d := range dirs {
		if err := os.WriteFile(filepath.Join(d, name), shot, 0o644); err != nil {
			s.t.Fatal(err)
		}
	}
}

// value runs one browser action and returns its result, failing the test
// on an error.
func value[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return v
}
