package ws

import (
	"context"
	"encoding/json"
	"time"

	"github.com/olahol/melody"

	"github.com/jangada/jangada/domain"
)

type clientMessage struct {
	Action    string `json:"action"`
	APIKey    string `json:"apiKey"`
	Pattern   string `json:"pattern"`
	PaymentID string `json:"paymentId"`
	ID        string `json:"id"`
}

func (h *Hub) errorMsg(s *melody.Session, code, message string) {
	h.send(s, map[string]any{"event": "error", "code": code, "message": message})
}

func (h *Hub) onMessage(s *melody.Session, raw []byte) {
	h.mu.RLock()
	c := h.conns[s]
	h.mu.RUnlock()
	if c == nil {
		return
	}
	var m clientMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		h.errorMsg(s, "BAD_REQUEST", "messages must be JSON objects")
		return
	}
	c.mu.Lock()
	authed := c.key != nil
	c.mu.Unlock()
	if m.Action == "authenticate" {
		h.authenticate(s, c, m.APIKey)
		return
	}
	if !authed {
		h.errorMsg(s, "UNAUTHENTICATED", "authenticate first")
		return
	}
	switch m.Action {
	case "subscribe", "unsubscribe":
		h.subscription(s, c, m)
	case "ping":
		h.send(s, map[string]any{"event": "pong"})
	case "ack":
	default:
		h.errorMsg(s, "BAD_REQUEST", "unknown action")
	}
}

func (h *Hub) authenticate(s *melody.Session, c *conn, secret string) {
	k, err := h.auth(context.Background(), secret, clientIP(s.Request))
	if err != nil {
		h.errorMsg(s, "UNAUTHORIZED", "invalid API key")
		return
	}
	c.mu.Lock()
	c.key = &k
	c.mu.Unlock()
	h.send(s, map[string]any{"event": "authenticated", "version": 1})
}

func (h *Hub) subscription(s *melody.Session, c *conn, m clientMessage) {
	sub := m.Action == "subscribe"
	reply := map[string]any{"event": m.Action + "d"}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case m.PaymentID != "":
		if sub {
			if !h.owns(context.Background(), c.key.AccountID, m.PaymentID) {
				c.mu.Unlock()
				h.errorMsg(s, "FORBIDDEN", "payment does not belong to this account")
				c.mu.Lock()
				return
			}
			if _, dup := c.payments[m.PaymentID]; !dup && len(c.patterns)+len(c.payments) >= MaxSubscriptions {
				c.mu.Unlock()
				h.errorMsg(s, "LIMIT", "at most 100 subscriptions per connection")
				c.mu.Lock()
				return
			}
			c.payments[m.PaymentID] = time.Now().Add(PaymentSubTTL)
		} else {
			delete(c.payments, m.PaymentID)
		}
		reply["paymentId"] = m.PaymentID
	case ValidPattern(m.Pattern):
		if sub {
			if !c.patterns[m.Pattern] && len(c.patterns)+len(c.payments) >= MaxSubscriptions {
				c.mu.Unlock()
				h.errorMsg(s, "LIMIT", "at most 100 subscriptions per connection")
				c.mu.Lock()
				return
			}
			c.patterns[m.Pattern] = true
		} else {
			delete(c.patterns, m.Pattern)
		}
		reply["pattern"] = m.Pattern
	default:
		c.mu.Unlock()
		h.errorMsg(s, "BAD_REQUEST", "pattern must use a-z, 0-9, _, . and * (up to 64) or give a paymentId")
		c.mu.Lock()
		return
	}
	b, _ := json.Marshal(reply)
	s.Write(b)
}

// envelope is the business event frame, identical in shape to a webhook body.
type envelope struct {
	ID        string          `json:"id"`
	Event     string          `json:"event"`
	CreatedAt domain.Time     `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

// terminal payment events end a paymentId subscription.
var terminal = map[string]bool{domain.EventPaymentPaid: true, domain.EventPaymentFailed: true, domain.EventPaymentExpired: true}

// Publish sends ev to every connection of the key that created its resource
// and subscribed to it by pattern or paymentId.
func (h *Hub) Publish(ev domain.Event) {
	frame, _ := json.Marshal(envelope{ID: ev.ID, Event: ev.Type, CreatedAt: ev.CreatedAt, Data: ev.Data})
	now := time.Now()
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s, c := range h.conns {
		c.mu.Lock()
		match := false
		if c.key != nil && ev.APIKeyID != nil && c.key.ID == *ev.APIKeyID {
			if exp, ok := c.payments[ev.ResourceID]; ok && now.Before(exp) {
				match = true
				if terminal[ev.Type] {
					delete(c.payments, ev.ResourceID)
				}
			}
			for p := range c.patterns {
				match = match || Matches(p, ev.Type)
			}
		}
		c.mu.Unlock()
		if match {
			s.Write(frame)
		}
	}
}
