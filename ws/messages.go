package ws

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/gorilla/websocket"
	"github.com/olahol/melody"

	"github.com/jangada/jangada/domain"
)

// clientMessage is any client frame; unknown fields are ignored.
type clientMessage struct {
	Action    string `json:"action"`
	APIKey    string `json:"apiKey"`
	Pattern   string `json:"pattern"`
	PaymentID string `json:"paymentId"`
	ID        string `json:"id"`
}

func (h *Hub) onMessage(s *melody.Session, raw []byte) {
	c := h.conn(s)
	if c == nil {
		return
	}
	ok, notify, abuse := c.allow(time.Now())
	if abuse {
		c.close(websocket.ClosePolicyViolation, "message rate limit abused")
		return
	}
	if !ok {
		if notify {
			c.sendError("RATE_LIMIT", "too many messages; slow down")
		}
		return
	}
	var m clientMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		c.sendError("BAD_REQUEST", "messages must be JSON objects with string fields")
		return
	}
	if m.Action == "authenticate" {
		h.authenticate(c, m.APIKey)
		return
	}
	if c.key() == nil {
		c.sendError("UNAUTHENTICATED", "authenticate first: {\"action\":\"authenticate\",\"apiKey\":\"…\"}")
		return
	}
	switch m.Action {
	case "subscribe":
		h.subscribe(c, m)
	case "unsubscribe":
		h.unsubscribe(c, m)
	case "ping":
		c.mu.Lock()
		c.lastPing = time.Now()
		c.mu.Unlock()
		c.send(map[string]any{"event": "pong"})
	case "ack":
		if m.ID == "" || len(m.ID) > 128 {
			c.sendError("BAD_REQUEST", "ack needs the id of the event frame")
			return
		}
		if ev, ok := c.ackedEvent(m.ID); ok {
			h.acks.add(Ack{EventID: ev, KeyID: c.key().ID})
		}
	default:
		c.sendError("BAD_REQUEST", "unknown action; use authenticate, subscribe, unsubscribe, ack or ping")
	}
}

func (h *Hub) authenticate(c *conn, secret string) {
	if k := c.key(); k != nil {
		c.sendError("BAD_REQUEST", "already authenticated")
		return
	}
	ip := h.opts.ClientIP(c.s.Request)
	if h.throttled(ip) {
		c.sendError("RATE_LIMIT", "too many failed authentications from this address; try again in a minute")
		c.close(websocket.ClosePolicyViolation, "authentication throttled")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	k, err := h.opts.Authenticate(ctx, secret, ip)
	if errors.Is(err, domain.ErrUnavailable) {
		// The database is away: not the client's fault, no budget spent.
		c.sendError("UNAVAILABLE", "service temporarily unavailable; try again shortly")
		c.close(websocket.CloseTryAgainLater, "service unavailable")
		return
	}
	if err != nil {
		h.authFailed(ip)
		// One try per connection: guessing keys costs a reconnect each.
		c.sendError("UNAUTHORIZED", "invalid API key or address not allowed")
		c.close(websocket.ClosePolicyViolation, "authentication failed")
		return
	}
	c.authenticated(&k)
}

// target reads and checks the subscription target of m.
func target(c *conn, m clientMessage) (pattern, paymentID string, ok bool) {
	switch {
	case m.Pattern != "" && m.PaymentID != "":
		c.sendError("BAD_REQUEST", "give either pattern or paymentId, not both")
	case m.PaymentID != "":
		if len(m.PaymentID) > 128 {
			c.sendError("BAD_REQUEST", "paymentId is too long")
			return "", "", false
		}
		return "", m.PaymentID, true
	case m.Pattern != "":
		if !domain.ValidPattern(m.Pattern) {
			c.send(map[string]any{"event": "error", "code": "INVALID_PATTERN", "pattern": m.Pattern,
				"message": "a pattern uses a-z, 0-9, _, . and *, up to 64 characters"})
			return "", "", false
		}
		return m.Pattern, "", true
	default:
		c.sendError("BAD_REQUEST", "subscribe needs a pattern or a paymentId")
	}
	return "", "", false
}

func (h *Hub) subscribe(c *conn, m clientMessage) {
	pattern, paymentID, ok := target(c, m)
	if !ok {
		return
	}
	k := c.key()
	if paymentID != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		owns := h.opts.Owns(ctx, k.AccountID, paymentID)
		cancel()
		if !owns {
			c.send(map[string]any{"event": "error", "code": "FORBIDDEN", "paymentId": paymentID,
				"message": "the payment does not belong to this key's account"})
			return
		}
	}
	now := time.Now()
	c.mu.Lock()
	present := false
	if pattern != "" {
		for _, p := range c.patterns {
			present = present || p == pattern
		}
	} else {
		_, present = c.payments[paymentID]
	}
	if !present && c.subscriptions(now) >= MaxSubscriptions {
		c.mu.Unlock()
		c.sendError("SUBSCRIPTION_LIMIT", "at most 100 subscriptions per connection")
		return
	}
	reply := map[string]any{"event": "subscribed"}
	if pattern != "" {
		if !present {
			c.patterns = append(c.patterns, pattern)
		}
		reply["pattern"] = pattern
	} else {
		if c.payments == nil {
			c.payments = map[string]time.Time{}
		}
		exp := now.Add(h.opts.PaymentTTL)
		c.payments[paymentID] = exp // re-subscribing renews the 30 minutes
		reply["paymentId"] = paymentID
		reply["expiresAt"] = exp.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	c.mu.Unlock()
	c.send(reply)
}

func (h *Hub) unsubscribe(c *conn, m clientMessage) {
	pattern, paymentID, ok := target(c, m)
	if !ok {
		return
	}
	reply := map[string]any{"event": "unsubscribed"}
	c.mu.Lock()
	if pattern != "" {
		for i, p := range c.patterns {
			if p == pattern {
				c.patterns = append(c.patterns[:i], c.patterns[i+1:]...)
				break
			}
		}
		reply["pattern"] = pattern
	} else {
		delete(c.payments, paymentID)
		reply["paymentId"] = paymentID
	}
	c.mu.Unlock()
	c.send(reply)
}
