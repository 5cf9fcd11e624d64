package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestSubaccountPortal: setup, create with a portal, status, update-email,
// revoke, reset-2fa; the password rule; one e-mail per portal on the whole
// platform; the hash never leaves.
func TestSubaccountPortal(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	n := subSeq.Add(1)
	email := fmt.Sprintf("portal%d@example.com", n)
	a := e.createSub(m)
	// One sub-account's portal is the record; all of them, the list envelope.
	one := map[string]any{}
	e.call(m.Key, "GET", "/v1/subaccount/portal/status?id="+a, nil).into(t, &one)
	if one["subaccountId"] != a || one["portal"].(map[string]any)["state"] != "none" {
		t.Fatalf("status before setup: %v", one)
	}
	for _, bad := range []string{"short1!", "nouppercase1!", "NOLOWERCASE1!", "NoDigits!!", "NoSymbol123"} {
		r := e.move(m, "portal/setup", map[string]any{"id": a, "email": email, "password": bad})
		if r.Status != 400 || !strings.Contains(r.Message, "password") {
			t.Errorf("password %q: %d %s", bad, r.Status, r.Message)
		}
	}
	r := e.move(m, "portal/setup", map[string]any{"id": a, "email": email, "password": "Str0ng!pass"})
	if v := r.m(t); r.Status != 200 || v["success"] != true || v["mode"] != "portal_ready" {
		t.Fatalf("setup: %d %s %v", r.Status, r.Message, v)
	}
	// The e-mail is unique on the platform, case-insensitively: another
	// merchant's create, and this merchant's other sub-account, are refused.
	other := e.subMerchant()
	b := pfBody()
	b["portalEmail"], b["portalPassword"] = strings.ToUpper(email), "Str0ng!pass"
	if r := e.call(other.Key, "POST", "/v1/subaccount/create", b); r.Status != 400 || !strings.Contains(r.Message, "portalEmail") {
		t.Fatalf("duplicate portal e-mail on create: %d %s", r.Status, r.Message)
	}
	c := pfBody()
	c["portalEmail"], c["portalPassword"] = fmt.Sprintf("second%d@example.com", n), "An0ther#one"
	cr := e.call(m.Key, "POST", "/v1/subaccount/create", c)
	if cr.Status != 200 || cr.m(t)["portalState"] != "active" {
		t.Fatalf("create with portal: %d %s", cr.Status, cr.Message)
	}
	bID := cr.m(t)["id"].(string)
	if r := e.move(m, "portal/update-email", map[string]any{"id": bID, "email": email}); r.Status != 400 || !strings.Contains(r.Message, "email") {
		t.Fatalf("update-email to a taken e-mail: %d %s", r.Status, r.Message)
	}
	newEmail := fmt.Sprintf("renamed%d@example.com", n)
	r = e.move(m, "portal/update-email", map[string]any{"externalReference": c["externalReference"], "email": newEmail})
	if p := r.m(t)["portal"].(map[string]any); r.Status != 200 || p["email"] != newEmail || p["emailVerified"] != false {
		t.Fatalf("update-email: %d %s", r.Status, r.Data)
	}
	if r := e.move(m, "portal/reset-2fa", map[string]any{"id": bID}); r.Status != 200 || r.m(t)["portal"].(map[string]any)["twoFactorEnabled"] != false {
		t.Fatalf("reset-2fa: %d %s", r.Status, r.Message)
	}
	// All portals, then revoke, which frees the e-mail.
	var all struct {
		Items                        []map[string]any
		Page, PageSize, Total, Pages int
	}
	e.call(m.Key, "GET", "/v1/subaccount/portal/status", nil).into(t, &all)
	if len(all.Items) != 2 || all.Page != 1 || all.PageSize != 50 || all.Total != 2 || all.Pages != 1 {
		t.Fatalf("status of all: %+v", all)
	}
	// Newest first, like every list.
	if all.Items[0]["subaccountId"] != bID || all.Items[1]["subaccountId"] != a {
		t.Fatalf("status of all, newest first: %+v", all.Items)
	}
	e.call(m.Key, "GET", "/v1/subaccount/portal/status?page=2&pageSize=1", nil).into(t, &all)
	if len(all.Items) != 1 || all.Items[0]["subaccountId"] != a || all.Total != 2 || all.Pages != 2 {
		t.Fatalf("status of all, page 2 of 1: %+v", all)
	}
	e.call(m.Key, "GET", "/v1/subaccount/portal/status", nil).into(t, &all)
	for _, it := range all.Items {
		p := it["portal"].(map[string]any)
		if _, ok := p["lastLoginAt"]; !ok || p["state"] != "active" || it["subaccountName"] != "Maria Silva" {
			t.Fatalf("status item: %v", it)
		}
	}
	if r := e.move(m, "portal/revoke", map[string]any{"id": a}); r.Status != 200 || r.m(t)["portal"].(map[string]any)["state"] != "disabled" {
		t.Fatalf("revoke: %d %s", r.Status, r.Message)
	}
	if r := e.move(m, "portal/revoke", map[string]any{"id": a}); r.Status != 400 {
		t.Fatalf("revoke twice: %d", r.Status)
	}
	if r := e.call(other.Key, "POST", "/v1/subaccount/create", b); r.Status != 200 {
		t.Fatalf("e-mail of a revoked portal: %d %s", r.Status, r.Message)
	}
	// Setup again reconfigures a disabled portal.
	if r := e.move(m, "portal/setup", map[string]any{"externalReference": "nope", "email": email, "password": "Str0ng!pass"}); r.Status != 404 {
		t.Fatalf("setup unknown ref: %d", r.Status)
	}
	if r := e.move(m, "portal/setup", map[string]any{"id": a, "email": "again" + email, "password": "Str0ng!pass"}); r.Status != 200 {
		t.Fatalf("setup after revoke: %d %s", r.Status, r.Message)
	}
	// A legacy state (from the previous platform) is reconfigured by setup.
	legacy := e.createSub(m)
	if _, err := e.app.DB.Exec(`UPDATE subaccounts SET portal_state = 'invite_pending', portal_email = $2 WHERE id = $1`, legacy, "legacy"+email); err != nil {
		t.Fatal(err)
	}
	e.call(m.Key, "GET", "/v1/subaccount/portal/status?id="+legacy, nil).into(t, &one)
	if one["portal"].(map[string]any)["state"] != "invite_pending" {
		t.Fatalf("legacy state: %v", one)
	}
	if r := e.move(m, "portal/setup", map[string]any{"id": legacy, "email": "legacy" + email, "password": "Str0ng!pass"}); r.Status != 200 {
		t.Fatalf("setup of a legacy portal: %d %s", r.Status, r.Message)
	}
	e.call(m.Key, "GET", "/v1/subaccount/portal/status?id="+legacy, nil).into(t, &one)
	if one["portal"].(map[string]any)["state"] != "active" {
		t.Fatalf("legacy state after setup: %v", one)
	}
	raw := e.call(m.Key, "GET", "/v1/subaccount/portal/status", nil).Data
	rec := e.call(m.Key, "GET", "/v1/subaccount/get/"+a, nil).Data
	if strings.Contains(string(raw)+string(rec), "argon2") || strings.Contains(string(raw)+string(rec), "assword") {
		t.Fatalf("the password hash leaked: %s %s", raw, rec)
	}
}
