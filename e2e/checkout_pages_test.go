package e2e

import (
	"bufio"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// page fetches a hosted page and returns its status, headers and body.
func (e *env) page(method, path string, form url.Values) (*http.Response, string) {
	e.t.Helper()
	var res *http.Response
	var err error
	if method == "POST" {
		res, err = noRedirect.PostForm(e.base+path, form)
	} else {
		res, err = noRedirect.Get(e.base + path)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// Issue 24, hosted pages: the pay page escapes what the merchant typed,
// sends a Content-Security-Policy and takes no API key; its form makes a
// checkout and sends the payer to the session's page, which shows the QR,
// the copy-paste code and the total; the session's event stream says
// "PAID" once the charge is paid, without the page reloading.
func TestCheckoutHostedPages(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	linkID := e.link(m, map[string]any{"name": `<script>alert("x")</script> Ingresso`, "description": `<img src=x onerror=alert(1)>`,
		"customerMode": "OPTIONAL"})

	res, body := e.page("GET", "/pay/"+linkID, nil)
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("pay page: %d CSP %q", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}
	if strings.Contains(body, `<script>alert`) || strings.Contains(body, `<img src=x`) ||
		!strings.Contains(body, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; Ingresso`) {
		t.Fatalf("the merchant's text is not escaped:\n%s", body)
	}
	for _, want := range []string{`lang="pt-BR"`, `name="amount"`, `name="couponCode"`, `name="document"`, `value="PIX"`, `name="nonce"`} {
		if !strings.Contains(body, want) {
			t.Errorf("pay page lacks %s", want)
		}
	}

	// A bad amount shows the form again with the error, the typed name escaped.
	res, body = e.page("POST", "/pay/"+linkID, url.Values{"amount": {"0,50"}, "method": {"PIX"}, "name": {"<b>Ana</b>"}})
	if res.StatusCode != 400 || !strings.Contains(body, "amount must be between 1.00 and 1000000.00") || !strings.Contains(body, "&lt;b&gt;Ana&lt;/b&gt;") {
		t.Fatalf("bad amount: %d\n%s", res.StatusCode, body)
	}

	nonce := strings.Repeat("ab", 16)
	form := url.Values{"amount": {"12,50"}, "method": {"PIX"}, "nonce": {nonce}, "name": {"Ana Lima"}, "document": {"529.982.247-25"}, "email": {"ana@example.com"}}
	res, _ = e.page("POST", "/pay/"+linkID, form)
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/pay/session/cs_") {
		t.Fatalf("checkout form: %d %q", res.StatusCode, loc)
	}
	// The same form sent twice (a double click) makes one session.
	if again, _ := e.page("POST", "/pay/"+linkID, form); again.Header.Get("Location") != loc {
		t.Fatalf("resent form went to %q, want %q", again.Header.Get("Location"), loc)
	}
	sid := strings.TrimPrefix(loc, "/pay/session/")
	res, body = e.page("GET", loc, nil)
	if res.StatusCode != 200 || res.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("session page: %d", res.StatusCode)
	}
	for _, want := range []string{`src="data:image/png;base64,`, `id="copia"`, "00020126", "R$ 12,50", "aguardando pagamento", `id="contagem"`} {
		if !strings.Contains(body, want) {
			t.Errorf("session page lacks %q", want)
		}
	}

	// The event stream: OPEN now, PAID after the sandbox pays the charge.
	req, _ := http.NewRequest("GET", e.base+loc+"/events", nil)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if ct := stream.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events Content-Type %q", ct)
	}
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stream.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				lines <- strings.TrimPrefix(sc.Text(), "data: ")
			}
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l := <-lines:
			return l
		case <-time.After(20 * time.Second):
			t.Fatal("no event on the stream")
		}
		return ""
	}
	if l := next(); l != `{"status":"OPEN"}` {
		t.Fatalf("first event %s", l)
	}
	txID := e.session(m, sid)["transactionId"].(string)
	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+txID+"/pay", nil); p.Status != 200 {
		t.Fatalf("pay: %d %s", p.Status, p.Message)
	}
	if l := next(); !strings.HasPrefix(l, `{"status":"PAID"`) {
		t.Fatalf("after the payment: %s", l)
	}
	if _, body = e.page("GET", loc, nil); !strings.Contains(body, ">pago<") {
		t.Fatalf("paid session page:\n%s", body)
	}
	if res, _ := e.page("GET", "/pay/session/cs_nope", nil); res.StatusCode != 404 {
		t.Fatalf("unknown session page: %d", res.StatusCode)
	}
	e.verifyLedger()
}
