// Package dispatch moves committed events out of the outbox: it starts one
// durable webhook delivery chain per matching endpoint (Dispatcher, in the
// worker processes) and feeds every API process's WebSocket hub (Tail). It
// also holds the routing rule both share (ForKey); the event names (one
// list, domain.Catalog in domain/event.go) and the patterns derived from
// them (domain/event_patterns.go) are domain rules.
package dispatch

import (
	"github.com/jangada/jangada/domain"
)

// ForKey is the routing rule shared by webhook endpoints and WebSocket
// connections: an event goes to the key that created its transaction;
// events without a key (transfer.internal.received, which belongs to the
// destination account) go to every consumer of the account. keyID nil is
// a dashboard endpoint, which receives the whole account's events. A
// webhook.test goes to no one by this rule: it is delivered to the one
// endpoint it tests, never routed (it carries that endpoint's URL).
func ForKey(ev domain.Event, accountID string, keyID *string) bool {
	if ev.AccountID != accountID || ev.Type == domain.EventWebhookTest {
		return false
	}
	return keyID == nil || ev.APIKeyID == nil || *ev.APIKeyID == *keyID
}
