package e2e

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

// A CRYPTO session of a link without products, checked out
// without a coupon, is paid by its own deposit; its hosted page learns of its expiry live, though
// crypto writes no events: the session's event stream reads it again once its
// time is up. The expiry is staged (the session's and its deposit's expiresAt
// moved into the past, the deposit's workflow started again: its durable
// timer fires after its grace).
func TestCryptoSessionStreamShowsItsExpiry(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	e.enable(m, domain.FeatureCrypto)
	linkID := e.link(m, map[string]any{"name": "Doação", "fixedAmount": 22, "allowedMethods": []string{"CRYPTO"}})
	sid, txID, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "CRYPTO"})
	if r.Status != 200 {
		t.Fatalf("checkout: %d %s", r.Status, r.Message)
	}
	// A link with no products, paid without a coupon: its CRYPTO session
	// is paid by a deposit too (the PIX sessions' one-transaction path
	// once gave it a PIX charge).
	if c := r.m(t); c["address"] == nil || c["copyPaste"] != nil {
		t.Fatalf("CRYPTO checkout answered %v", c)
	}
	if _, err := e.app.DB.ExecContext(context.Background(), `UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, sid); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", e.base+"/pay/session/"+sid+"/events", nil)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
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
		case <-time.After(30 * time.Second):
			t.Fatal("no event on the stream")
		}
		return ""
	}
	if l := next(); l != `{"status":"OPEN"}` {
		t.Fatalf("first event %s", l)
	}
	e.restartExpired(domain.TypeCryptoIn, txID, func(t domain.Transaction) (workflows.Start, any, any) {
		return workflows.CryptoStart(t), workflows.CryptoDepositWorkflow, workflows.CryptoInput{Record: t}
	})
	if l := next(); l != `{"status":"EXPIRED"}` {
		t.Fatalf("after the deposit expired: %s", l)
	}
}
