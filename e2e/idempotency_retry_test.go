package e2e

import "testing"

// A create whose answer was lost (the work committed, the stored answer did
// not) is retried after its claim can be taken over: the retry answers with
// what the first attempt did and moves nothing again; a refusal given after
// a takeover is not kept; a duplicate sent while the first is in flight is
// a 409 with Retry-After; and an Idempotency-Key belongs to the API key that
// sent it.
func TestRetriesAfterALostAnswer(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	from, to := e.merchant(), e.merchant()
	e.fund(from, 100)
	post := func(m merchant, path, idem string, body any) resp {
		return e.request("POST", path, map[string]string{"X-API-Key": m.Key, "Idempotency-Key": idem}, body)
	}
	// lose forgets the stored answer of a key, as if PostgreSQL had
	// restarted before it was written; stale also ages the claim past
	// db.IdempotencyClaimTTL, so that a retry may take it over.
	lose := func(m merchant, idem string, stale bool) {
		t.Helper()
		age := "0"
		if stale {
			age = "120"
		}
		if _, err := e.app.DB.Exec(`UPDATE idempotency_keys SET status = NULL, response = NULL,
			created_at = now() - $3 * interval '1 second' WHERE account_id = $1 AND key = $2`,
			m.ID, m.KeyID+" "+idem, age); err != nil {
			t.Fatal(err)
		}
	}

	internal := map[string]any{"amount": 30, "recipientEmail": to.Email}
	first := post(from, "/v1/transfer-internal/create", "int-lost", internal)
	if first.Status != 200 {
		t.Fatalf("internal transfer: %d %s", first.Status, first.Message)
	}
	lose(from, "int-lost", false)
	if r := post(from, "/v1/transfer-internal/create", "int-lost", internal); r.Status != 409 || r.Header.Get("Retry-After") == "" {
		t.Fatalf("duplicate while the first is in flight: %d %s, Retry-After %q; want 409 with Retry-After", r.Status, r.Message, r.Header.Get("Retry-After"))
	}
	lose(from, "int-lost", true)
	again := post(from, "/v1/transfer-internal/create", "int-lost", internal)
	if again.Status != 200 || again.m(t)["id"] != first.m(t)["id"] || again.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("retry after the lost answer: %d %s %v, want the first transfer %v", again.Status, again.Message, again.Data, first.m(t)["id"])
	}
	wantBalance(t, e, from, 70, 0, 70)
	wantBalance(t, e, to, 30, 0, 30)

	// A refusal after a takeover is not kept: the first attempt may have
	// done the work the retry is refused, so the next retry runs again.
	big := map[string]any{"amount": 500, "pixKey": "a@b.co", "pixKeyType": "EMAIL"}
	if r := post(from, "/v1/transfer-pix/create", "too-big", big); r.Status != 400 {
		t.Fatalf("PIX out above the balance: %d %s", r.Status, r.Message)
	}
	lose(from, "too-big", true)
	if r := post(from, "/v1/transfer-pix/create", "too-big", big); r.Status != 400 {
		t.Fatalf("retry after takeover: %d %s", r.Status, r.Message)
	}
	var kept int
	if err := e.app.DB.Get(&kept, `SELECT count(*) FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND status IS NOT NULL`,
		from.ID, from.KeyID+" too-big"); err != nil || kept != 0 {
		t.Fatalf("a 400 given after a takeover was kept (%d rows, %v)", kept, err)
	}

	// Another key of the account reusing an Idempotency-Key starts afresh:
	// it never receives the first key's endpoint and its secret.
	other := e.keyFor(from, "webhooks/create", "webhooks/list")
	hook := map[string]any{"url": "https://example.com/idem", "events": []string{"*"}}
	w1 := post(from, "/v1/webhooks/create", "hook-1", hook)
	w2 := post(other, "/v1/webhooks/create", "hook-1", hook)
	if w1.Status != 200 || w2.Status != 200 || w2.Header.Get("Idempotent-Replayed") != "" ||
		w1.m(t)["id"] == w2.m(t)["id"] || w1.m(t)["secret"] == w2.m(t)["secret"] {
		t.Fatalf("another key with the same Idempotency-Key: %d %v / %d %v, want its own endpoint", w1.Status, w1.Data, w2.Status, w2.Data)
	}
	e.verifyLedger()
}
