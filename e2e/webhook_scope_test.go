package e2e

import "testing"

// An endpoint created through the API belongs to its key: another key of
// the same account, even with webhooks/* (here "*"), cannot read, list,
// redirect, disable or delete it, nor touch a dashboard endpoint, which only
// the admin API manages.
func TestWebhookEndpointsAreBoundToTheirKey(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	a := e.merchant()
	b := e.secondKey(a)
	r := e.call(a.Key, "POST", "/v1/webhooks/create", map[string]any{"url": "https://example.com/a", "events": []string{"*"}})
	if r.Status != 200 {
		t.Fatalf("create: %d %s", r.Status, r.Message)
	}
	own := r.m(t)["id"].(string)
	d := e.admin("POST", "/accounts/"+a.ID+"/webhooks", map[string]any{"url": "https://example.com/dash", "events": []string{"*"}})
	if d.Status != 200 {
		t.Fatalf("dashboard endpoint: %d %s", d.Status, d.Message)
	}
	dash := d.m(t)["id"].(string)

	for _, c := range []struct {
		who  merchant
		id   string
		what string
	}{{b, own, "another key's endpoint"}, {b, dash, "a dashboard endpoint"}, {a, dash, "a dashboard endpoint"}} {
		if x := e.call(c.who.Key, "GET", "/v1/webhooks/get/"+c.id, nil); x.Status != 404 {
			t.Errorf("reads %s: %d", c.what, x.Status)
		}
		if x := e.call(c.who.Key, "PATCH", "/v1/webhooks/update/"+c.id, map[string]any{"url": "https://attacker.example/x", "status": "DISABLED"}); x.Status != 404 {
			t.Errorf("redirects %s: %d", c.what, x.Status)
		}
		if x := e.call(c.who.Key, "DELETE", "/v1/webhooks/delete/"+c.id, nil); x.Status != 404 {
			t.Errorf("deletes %s: %d", c.what, x.Status)
		}
	}
	if l := e.call(b.Key, "GET", "/v1/webhooks/list", nil).m(t); l["total"] != 0.0 {
		t.Errorf("another key lists %v", l)
	}
	// Untouched: the owner still sees its endpoint as it made it, and the
	// admin API still sees both.
	if g := e.call(a.Key, "GET", "/v1/webhooks/get/"+own, nil).m(t); g["url"] != "https://example.com/a" || g["status"] != "ACTIVE" {
		t.Fatalf("owner's endpoint changed: %v", g)
	}
	if l := e.call(a.Key, "GET", "/v1/webhooks/list", nil).m(t); l["total"] != 1.0 {
		t.Errorf("owner lists %v", l)
	}
	if l := e.admin("GET", "/accounts/"+a.ID+"/webhooks", nil).m(t); l["total"] != 2.0 {
		t.Errorf("admin lists %v", l)
	}
}
