package e2e

import (
	"strings"
	"testing"
)

// A schedule acts for the key that created it, with that key's
// permissions as they stand at run time: a key that may schedule but not
// send PIX cannot schedule a PIX out, and once the key is revoked its
// schedule's runs fail with the reason recorded.
func TestScheduleActsForItsKey(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, to := e.merchant(), e.merchant()
	e.fund(m, 50)
	scheduler := e.keyFor(m, "transfer-scheduled/*", "transfer-internal/create")
	if r := e.call(scheduler.Key, "POST", scheduledPath+"create", weeklyPix(10)); r.Status != 403 || !strings.Contains(r.Message, "transfer-pix/create") {
		t.Fatalf("PIX schedule without transfer-pix/create: %d %s", r.Status, r.Message)
	}
	weekly := weeklyPix(5)
	weekly["payload"] = map[string]any{"method": "interna", "amount": 5, "recipientEmail": to.Email}
	s := e.schedule(scheduler, weekly)
	if r := e.admin("DELETE", "/keys/"+scheduler.KeyID, nil); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Message)
	}
	// Another key of the account asks for a run now: the run acts for the
	// revoked key, so it is refused and moves nothing.
	r := e.call(m.Key, "POST", scheduledPath+"run-now/"+s["id"].(string), nil)
	if r.Status != 400 && r.Status != 403 || !strings.Contains(r.Message, "revoked") {
		t.Fatalf("run of a revoked key's schedule: %d %s", r.Status, r.Message)
	}
	wantBalance(t, e, m, 50, 0, 50)
	wantBalance(t, e, to, 0, 0, 0)
}
