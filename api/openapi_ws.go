package api

import (
	"slices"

	"github.com/jangada/jangada/domain"
)

// The WebSocket gateway's frames as components of the merchant document,
// for a typed client (clients/typescript's events helper): what a client
// sends (WebSocketClientMessage), the gateway's own answers
// (WebSocketServerMessage) and its event frames (WebSocketEvent, each
// event's envelope exactly as the webhooks section types it by name). The
// words are the domain's (domain.WSActions, domain.WSErrorCodes, the
// catalog), which ws/ speaks.

// wsObject is a frame: an object of these properties, these required.
func wsObject(desc string, props map[string]any, required ...string) map[string]any {
	return map[string]any{"type": "object", "description": desc, "properties": props, "required": required}
}

func constString(v string) map[string]any { return map[string]any{"type": "string", "const": v} }

func plainString(desc string) map[string]any {
	return map[string]any{"type": "string", "description": desc}
}

// wsSchemas are the frames' components.
func (d *apiDoc) wsSchemas() map[string]any {
	target := func(action, desc string) map[string]any {
		return wsObject(desc, map[string]any{
			"action":    constString(action),
			"pattern":   plainString("an event type or pattern: a-z, 0-9, _, . and *, up to 64 characters (payment.*, *)"),
			"paymentId": plainString("one payment's events, for 30 minutes or until it is paid, fails or expires"),
		}, "action")
	}
	client := map[string]map[string]any{
		"authenticate": wsObject("authenticates the connection (within 10 s of opening it)",
			map[string]any{"action": constString("authenticate"), "apiKey": plainString("the API key")}, "action", "apiKey"),
		"subscribe":   target("subscribe", "subscribes to a pattern or a paymentId (one of them); idempotent"),
		"unsubscribe": target("unsubscribe", "ends a subscription; the connection stays open"),
		"ack":         wsObject("acknowledges an event frame (tracking only: nothing is redelivered)", map[string]any{"action": constString("ack"), "id": plainString("the event frame's id (its delivery id)")}, "action", "id"),
		"ping":        wsObject("answers the gateway's ping (every 30 s; unanswered for 15 s, the connection closes)", map[string]any{"action": constString("ping")}, "action"),
	}
	var clientOf []any
	for _, a := range domain.WSActions {
		clientOf = append(clientOf, client[a])
	}
	echo := map[string]any{"pattern": map[string]any{"type": "string"}, "paymentId": map[string]any{"type": "string"}}
	subscribed := map[string]any{"event": constString("subscribed"), "expiresAt": map[string]any{"type": "string", "format": "date-time", "description": "a paymentId subscription's end"}}
	unsubscribed := map[string]any{"event": constString("unsubscribed")}
	for k, v := range echo {
		subscribed[k], unsubscribed[k] = v, v
	}
	server := []any{
		wsObject("the connection is authenticated", map[string]any{"event": constString("authenticated"),
			"version": map[string]any{"type": "integer", "const": domain.WSProtocolVersion}}, "event", "version"),
		wsObject("a subscription holds (echoes its pattern or paymentId)", subscribed, "event"),
		wsObject("a subscription ended", unsubscribed, "event"),
		wsObject("the gateway's heartbeat: answer {action: ping}", map[string]any{"event": constString("ping")}, "event"),
		wsObject("the answer to a client's ping", map[string]any{"event": constString("pong")}, "event"),
		wsObject("a refused frame; the connection stays open unless a close follows (1008)", map[string]any{
			"event": constString("error"), "code": map[string]any{"type": "string", "enum": slices.Clone(domain.WSErrorCodes)},
			"message": map[string]any{"type": "string"}, "pattern": map[string]any{"type": "string"}, "paymentId": map[string]any{"type": "string"},
		}, "event", "code"),
	}
	var data []any
	seen := map[string]bool{}
	for _, name := range domain.Catalog {
		ref := d.named(eventDocs[name].Data)
		if key := fmtKey(ref); !seen[key] {
			seen[key] = true
			data = append(data, ref)
		}
	}
	return map[string]any{
		"WebSocketClientMessage": map[string]any{"description": "a frame a client sends (JSON text)", "oneOf": clientOf},
		"WebSocketServerMessage": map[string]any{"description": "a frame of the gateway's own (not an event)", "oneOf": server},
		"WebSocketEvent": wsObject("an event frame: the webhook delivery's envelope (webhooks section, by event), id the delivery id of the event to this connection's key", map[string]any{
			"id":        plainString("the delivery id: send it back in an ack"),
			"event":     map[string]any{"type": "string", "enum": slices.Clone(domain.Catalog)},
			"createdAt": map[string]any{"type": "string", "format": "date-time"},
			"data":      map[string]any{"anyOf": data},
		}, "id", "event", "createdAt", "data"),
	}
}

// fmtKey identifies a schema reference for deduplication.
func fmtKey(ref any) string {
	if m, ok := ref.(map[string]any); ok {
		if s, ok := m["$ref"].(string); ok {
			return s
		}
	}
	return ""
}
