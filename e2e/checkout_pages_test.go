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

// Hosted pages: the pay page escapes what the merchant typed,
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

	nonce := formNonce(t, body)
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

// formNonce is the nonce a pay page drew into its form.
func formNonce(t *testing.T, body string) string {
	t.Helper()
	const attr = `name="nonce" value="`
	i := strings.Index(body, attr)
	if i < 0 {
		t.Fatalf("no nonce in the form:\n%s", body)
	}
	rest := body[i+len(attr):]
	return rest[:strings.IndexByte(rest, '"')]
}

// TestPayFormCannotBeFixedOrForged: the pay form's nonce named the session
// and the client could choose it, so an attacker's nonce posted from a
// victim's browser landed the victim on the attacker's session (the
// attacker's payer data, and the attacker reading the delivery after the
// victim paid). Only a nonce the server issued for the link is taken, it
// is bound to the payer (another payer with the same nonce gets another
// session), cross-origin posts are refused, and a form body is bounded and
// never multipart.
func TestPayFormCannotBeFixedOrForged(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	linkID := e.link(m, map[string]any{"name": "Ingresso", "fixedAmount": 12.5, "customerMode": "OPTIONAL"})
	_, body := e.page("GET", "/pay/"+linkID, nil)
	nonce := formNonce(t, body)
	attacker := url.Values{"method": {"PIX"}, "nonce": {nonce}, "name": {"Eva Mal"}, "document": {"529.982.247-25"}, "email": {"eva@example.com"}}
	victim := url.Values{"method": {"PIX"}, "nonce": {nonce}, "name": {"Ana Lima"}, "document": {"111.444.777-35"}, "email": {"ana@example.com"}}
	post := func(form url.Values) string {
		t.Helper()
		res, body := e.page("POST", "/pay/"+linkID, form)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("checkout: %d\n%s", res.StatusCode, body)
		}
		return res.Header.Get("Location")
	}
	mine := post(attacker)
	if again := post(attacker); again != mine {
		t.Fatalf("the same payer's form sent twice: %s then %s, want one session", mine, again)
	}
	if theirs := post(victim); theirs == mine {
		t.Fatalf("another payer with the same nonce landed on session %s", mine)
	}
	// A nonce the client picks is not the server's: each post is new.
	picked := url.Values{"method": {"PIX"}, "nonce": {strings.Repeat("ab", 32)}}
	if a, b := post(picked), post(picked); a == b {
		t.Fatalf("a client-picked nonce named session %s twice", a)
	}

	// A cross-site post (what a form on another site makes the victim's
	// browser send) is refused before anything is made.
	req, _ := http.NewRequest("POST", e.base+"/pay/"+linkID, strings.NewReader(victim.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden || res.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("cross-site post: %d, want 403 with the pages' headers", res.StatusCode)
	}
	// Bodies are bounded and never multipart.
	big := url.Values{"method": {"PIX"}, "name": {strings.Repeat("a", 70<<10)}}
	if res, _ := e.page("POST", "/pay/"+linkID, big); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 70 KiB form: %d, want 413", res.StatusCode)
	}
	mp, _ := http.NewRequest("POST", e.base+"/pay/"+linkID, strings.NewReader("--x\r\nContent-Disposition: form-data; name=\"method\"\r\n\r\nPIX\r\n--x--\r\n"))
	mp.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	if res, err := noRedirect.Do(mp); err != nil || res.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("a multipart form: %v %v, want 415", res.StatusCode, err)
	}
}
