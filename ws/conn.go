package ws

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/olahol/melody"

	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
)

// terminal payment events end a paymentId subscription.
var terminal = map[string]bool{domain.EventPaymentPaid: true, domain.EventPaymentFailed: true, domain.EventPaymentExpired: true}

// conn is one connection's protocol state. Kept small: an idle
// authenticated connection costs this, melody's session and two goroutines.
type conn struct {
	h         *Hub
	s         *melody.Session
	connected time.Time

	mu       sync.Mutex
	k        *domain.APIKey
	patterns []string             // at most MaxSubscriptions, so a slice beats a map
	payments map[string]time.Time // paymentId → expiry; nil until used

	// token bucket and abuse window (touched only by the read goroutine)
	tokens      float64
	last        time.Time
	strikes     int
	strikeStart time.Time

	authTimer *time.Timer
	hb        *time.Timer
	// heartbeat state, under mu
	awaiting  bool      // a server ping waits for its answer
	lastPing  time.Time // the client's last ping
	lastCheck time.Time // the previous successful heartbeat check
	closing   bool
	// keySlot gives back the slot of the key's connection cap.
	keySlot func()
	// recent holds the ids of the last events sent, so that an ack, which
	// names a delivery id, is recorded against its event; nil until the
	// first event, so an idle connection pays nothing for it.
	recent     []string
	recentNext int
}

// recentDeliveries is how many of its last events a connection can match
// an ack against. An ack is tracking only: one for an older event is not
// recorded, which costs the client nothing (the gateway never redelivers).
const recentDeliveries = 64

// delivered remembers that ev's frame was queued to the connection.
func (c *conn) delivered(eventID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.recent) < recentDeliveries {
		c.recent = append(c.recent, eventID)
		return
	}
	c.recent[c.recentNext] = eventID
	c.recentNext = (c.recentNext + 1) % recentDeliveries
}

// ackedEvent is the event an ack's id names: a delivery id sent on this
// connection, or the event id itself (what frames carried before they
// carried the delivery id, which a client written then still sends).
func (c *conn) ackedEvent(id string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.k == nil {
		return "", false
	}
	// Newest first: a client acks what it just read. At most
	// recentDeliveries hashes, microseconds, on the read goroutine.
	for i := range c.recent {
		ev := c.recent[(c.recentNext-1-i+2*len(c.recent))%len(c.recent)]
		if ev == id || webhook.SocketDeliveryID(ev, c.k.ID) == id {
			return ev, true
		}
	}
	return "", false
}

// releaseKey gives the key's connection slot back (once, if taken).
func (c *conn) releaseKey() {
	c.mu.Lock()
	release := c.keySlot
	c.keySlot = nil
	c.mu.Unlock()
	if release != nil {
		release()
	}
}

func (c *conn) key() *domain.APIKey {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.k
}

// authenticated binds the key, indexes the connection and says so; a key
// already holding MaxPerKey connections is refused and the connection
// closed.
func (c *conn) authenticated(k *domain.APIKey) {
	release, ok := c.h.opts.Slots.Acquire(context.Background(), "ws-key:"+k.ID, c.h.opts.MaxPerKey)
	if !ok {
		c.sendError("TOO_MANY_CONNECTIONS", "this API key has too many open connections")
		c.close(websocket.ClosePolicyViolation, "too many connections for this key")
		return
	}
	c.mu.Lock()
	c.k, c.keySlot = k, release
	c.mu.Unlock()
	if c.authTimer != nil {
		c.authTimer.Stop()
	}
	c.h.index(c, k.AccountID)
	c.send(map[string]any{"event": "authenticated", "version": domain.WSProtocolVersion})
}

func (c *conn) send(v any) {
	b, _ := json.Marshal(v)
	c.s.Write(b)
}

func (c *conn) sendError(code, message string) {
	c.send(map[string]any{"event": "error", "code": code, "message": message})
}

// close sends a close frame after the frames already queued, then ends the
// connection.
func (c *conn) close(code int, reason string) {
	c.mu.Lock()
	already := c.closing
	c.closing = true
	c.mu.Unlock()
	if !already {
		c.s.CloseWithMsg(websocket.FormatCloseMessage(code, reason))
	}
}

func (c *conn) stopTimers() {
	if c.authTimer != nil {
		c.authTimer.Stop()
	}
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.hb.Stop()
}

// beat is the specification's heartbeat, alternating two phases on one
// timer: send {event: ping}; PongWait later, check that the client sent a
// ping since the previous check, else close. A client that pings on its
// own at least once per PingPeriod never misses a check.
func (c *conn) beat() {
	o := c.h.opts
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return
	}
	if !c.awaiting {
		c.awaiting = true
		c.hb.Reset(o.PongWait)
		c.mu.Unlock()
		c.send(map[string]any{"event": "ping"})
		return
	}
	since := c.lastCheck
	if since.IsZero() {
		since = c.connected
	}
	if !c.lastPing.After(since) {
		c.mu.Unlock()
		c.close(websocket.ClosePolicyViolation, "heartbeat not answered")
		return
	}
	c.awaiting = false
	c.lastCheck = time.Now()
	c.hb.Reset(max(o.PingPeriod-o.PongWait, time.Millisecond))
	c.mu.Unlock()
}

// allow applies the message rate limit; ok false means refuse the message,
// abuse true means close the connection.
func (c *conn) allow(now time.Time) (ok, notify, abuse bool) {
	o := c.h.opts
	c.tokens = min(float64(o.MessageBurst), c.tokens+now.Sub(c.last).Seconds()*o.MessageRate)
	c.last = now
	if c.tokens >= 1 {
		c.tokens--
		return true, false, false
	}
	if now.Sub(c.strikeStart) > 10*time.Second {
		c.strikeStart, c.strikes = now, 0
	}
	c.strikes++
	// One RATE_LIMIT per burst of refusals (and then every 10th): answering
	// each one would let a flood double itself.
	return false, c.strikes == 1 || c.strikes%10 == 0, c.strikes >= o.AbuseLimit
}

// wants reports whether the connection gets ev, and retires the paymentId
// subscription a terminal event ends. Called under the hub's read lock.
func (c *conn) wants(ev domain.Event, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.k == nil || c.closing || ev.Type == domain.EventWebhookTest { // its endpoint's only
		return false
	}
	match := false
	if exp, ok := c.payments[ev.ResourceID]; ok {
		if now.Before(exp) {
			match = true
		}
		if !now.Before(exp) || terminal[ev.Type] {
			delete(c.payments, ev.ResourceID)
		}
	}
	if !match && dispatch.ForKey(ev, c.k.AccountID, &c.k.ID) {
		match = domain.AnyMatches(c.patterns, ev.Type)
	}
	return match
}

// subscriptions counts live subscriptions (expired paymentIds are dropped).
func (c *conn) subscriptions(now time.Time) int {
	for id, exp := range c.payments {
		if !now.Before(exp) {
			delete(c.payments, id)
		}
	}
	return len(c.patterns) + len(c.payments)
}
