// Package ws is the WebSocket event gateway (protocol version 1) on
// {ws_url}/v1: clients authenticate with an API key, subscribe to event
// patterns or to one payment, and receive the same envelopes as webhooks.
// Each API process runs one Hub, fed by its own outbox tail
// (dispatch.Tail), so a client connected to any process gets every event.
package ws

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/olahol/melody"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
)

// Protocol limits of the specification.
const (
	MaxSubscriptions = 100
	MaxFrame         = 64 << 10
	MaxPattern       = 64
)

// Hub holds the live connections of one process.
type Hub struct {
	m    *melody.Melody
	opts Options

	mu        sync.RWMutex
	conns     map[*melody.Session]*conn
	byAccount map[string]map[*conn]struct{} // authenticated connections

	acks *ackRecorder
	stop chan struct{}
	once sync.Once
}

// New builds the hub with melody configured for this protocol rather than
// its defaults (any Origin, 512-byte messages, 256-frame buffers).
func New(o Options) *Hub {
	o.defaults()
	m := melody.New()
	m.Config.MaxMessageSize = MaxFrame // larger frames: gorilla closes with 1009
	m.Config.MessageBufferSize = o.SendBuffer
	m.Config.WriteWait = 10 * time.Second
	// Protocol-level pings find dead TCP peers; the JSON heartbeat of the
	// specification is the hub's own (see heartbeat).
	m.Config.PingPeriod = o.PingPeriod
	m.Config.PongWait = o.PingPeriod + o.PongWait
	// Clients are servers, never browsers: a request carrying an Origin is
	// a browser's (cross-site WebSocket hijacking) and is refused.
	m.Upgrader.CheckOrigin = func(r *http.Request) bool { return r.Header.Get("Origin") == "" }
	// Read buffer size 0 makes gorilla reuse the 4 KiB reader net/http
	// already holds for the connection's life; writes take a buffer from a
	// pool only while writing. Buffers are most of an idle connection's cost.
	m.Upgrader.ReadBufferSize = 0
	m.Upgrader.WriteBufferSize = 4096
	m.Upgrader.WriteBufferPool = &sync.Pool{}
	m.Upgrader.HandshakeTimeout = 10 * time.Second
	h := &Hub{m: m, opts: o, conns: map[*melody.Session]*conn{}, byAccount: map[string]map[*conn]struct{}{}, stop: make(chan struct{})}
	h.acks = newAckRecorder(o.RecordAcks, h.stop)
	m.HandleConnect(h.onConnect)
	m.HandleDisconnect(h.onDisconnect)
	m.HandleMessage(h.onMessage)
	m.HandleMessageBinary(func(s *melody.Session, _ []byte) {
		if c := h.conn(s); c != nil {
			c.sendError("BAD_REQUEST", "frames must be JSON text")
		}
	})
	m.HandleError(h.onError)
	if o.Revoked != nil {
		go h.recheckRevocations()
	}
	return h
}

// preKey carries an upgrade's pending state to onConnect.
type preKey struct{}

// pending is what ServeHTTP hands onConnect through the request: the key
// authenticated before the upgrade, if any, and the channel that tells
// ServeHTTP the upgrade is done.
type pending struct {
	key      *domain.APIKey
	upgraded chan struct{}
}

// ServeHTTP upgrades requests on /v1. A key given as ?token= or as
// Authorization: Bearer is checked before the upgrade (401, or 403 outside
// the key's IP allowlist); without one, the client has AuthTimeout to send
// {action: authenticate}.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1" {
		http.NotFound(w, r)
		return
	}
	secret := r.URL.Query().Get("token")
	if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && secret == "" {
		secret = strings.TrimSpace(v)
	}
	ip := h.opts.ClientIP(r)
	if h.throttled(ip) {
		refuse(w, http.StatusTooManyRequests, "too many failed authentications from this address; try again in a minute")
		return
	}
	releaseIP, ok := h.opts.Slots.Acquire(r.Context(), "ws-ip:"+ip, h.opts.MaxPerIP)
	if !ok {
		refuse(w, http.StatusTooManyRequests, "too many open connections from this address")
		return
	}
	p := &pending{upgraded: make(chan struct{})}
	if secret != "" {
		k, err := h.opts.Authenticate(r.Context(), secret, ip)
		if err != nil {
			releaseIP()
			if errors.Is(err, domain.ErrUnavailable) {
				// The key could not be checked (the database is away):
				// the address's budget of failures stays whole.
				w.Header().Set("Retry-After", "3")
				refuse(w, http.StatusServiceUnavailable, domain.ErrUnavailable.Error())
				return
			}
			h.authFailed(ip)
			status, msg := http.StatusUnauthorized, "missing or invalid API key"
			if de, ok := err.(*domain.Error); ok && de.Kind == domain.ErrForbidden {
				status, msg = http.StatusForbidden, de.Message
			}
			refuse(w, status, msg)
			return
		}
		p.key = &k
	}
	r = r.WithContext(context.WithValue(r.Context(), preKey{}, p))
	// The connection lives in a goroutine of its own and this handler
	// returns once upgraded: net/http holds a 4 KiB write buffer, the
	// request's state and a deep stack while its handler runs, which an
	// idle connection would carry for life. melody uses w only to upgrade.
	go func() {
		defer releaseIP()
		if err := h.m.HandleRequest(w, r); err != nil {
			// Refused before onConnect: ServeHTTP is still waiting.
			slog.Debug("websocket upgrade", "error", err)
			close(p.upgraded)
		}
	}()
	<-p.upgraded
}

// refuse answers an HTTP request that will not be upgraded.
func refuse(w http.ResponseWriter, status int, msg string) {
	body, _ := json.Marshal(map[string]any{"success": false, "message": msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

// throttled reports whether ip spent its failed-authentication budget.
func (h *Hub) throttled(ip string) bool {
	return h.opts.AuthFailures.Exhausted(context.Background(), "ws-auth:"+ip, h.opts.AuthFailuresPerMinute)
}

// authFailed counts a failed authentication from ip.
func (h *Hub) authFailed(ip string) {
	h.opts.AuthFailures.Allow(context.Background(), "ws-auth:"+ip, h.opts.AuthFailuresPerMinute)
}

func (h *Hub) conn(s *melody.Session) *conn {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.conns[s]
}

func (h *Hub) onConnect(s *melody.Session) {
	c := &conn{h: h, s: s, connected: time.Now()}
	c.tokens = float64(h.opts.MessageBurst)
	c.last = c.connected
	h.mu.Lock()
	h.conns[s] = c
	h.mu.Unlock()
	Connections.Inc()
	p, _ := s.Request.Context().Value(preKey{}).(*pending)
	if p != nil {
		// The upgrade is done: ServeHTTP may return (see there).
		defer close(p.upgraded)
	}
	if p != nil && p.key != nil {
		c.authenticated(p.key)
	} else {
		c.authTimer = time.AfterFunc(h.opts.AuthTimeout, func() {
			if c.key() == nil {
				c.close(websocket.ClosePolicyViolation, "authentication timeout")
			}
		})
	}
	// Under mu: beat reads hb from the timer's goroutine.
	c.mu.Lock()
	c.hb = time.AfterFunc(h.opts.PingPeriod, c.beat)
	c.mu.Unlock()
}

func (h *Hub) onDisconnect(s *melody.Session) {
	h.mu.Lock()
	c := h.conns[s]
	if c != nil {
		Connections.Dec()
	}
	delete(h.conns, s)
	if c != nil && c.k != nil {
		if set := h.byAccount[c.k.AccountID]; set != nil {
			delete(set, c)
			if len(set) == 0 {
				delete(h.byAccount, c.k.AccountID)
			}
		}
	}
	h.mu.Unlock()
	if c != nil {
		c.stopTimers()
		c.releaseKey()
	}
}

// onError handles melody's errors; a full send buffer means the client
// does not keep up: it is cut off at once (its buffer cannot even take the
// close frame), and will resync through REST after reconnecting.
func (h *Hub) onError(s *melody.Session, err error) {
	if err == melody.ErrMessageBufferFull {
		go func() {
			ws := s.WebsocketConnection()
			ws.WriteControl(websocket.CloseMessage,
				websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "too slow: events were not read"), time.Now().Add(time.Second))
			ws.Close()
		}()
	}
}

// index adds an authenticated connection to its account's set.
func (h *Hub) index(c *conn, accountID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, live := h.conns[c.s]; !live {
		return
	}
	set := h.byAccount[accountID]
	if set == nil {
		set = map[*conn]struct{}{}
		h.byAccount[accountID] = set
	}
	set[c] = struct{}{}
}

// Publish sends ev to the account's connections that want it: by pattern
// when the routing rule gives the event to their key, or by a live
// paymentId subscription. Called from one goroutine (the process's outbox
// tail), it keeps each connection's frames in commit order.
func (h *Hub) Publish(ev domain.Event) {
	now := time.Now()
	h.mu.RLock()
	var targets []*conn
	for c := range h.byAccount[ev.AccountID] {
		if c.wants(ev, now) {
			targets = append(targets, c)
		}
	}
	h.mu.RUnlock()
	// The envelope id is the delivery id of the event to the connection's
	// key, as the specification makes it: one frame per key, shared by
	// that key's connections (most events have one target key).
	var frames map[string][]byte
	for _, c := range targets {
		k := c.key()
		if k == nil {
			continue
		}
		frame, ok := frames[k.ID]
		if !ok {
			frame = webhook.Encode(webhook.SocketDeliveryID(ev.ID, k.ID), ev)
			if frames == nil {
				frames = make(map[string][]byte, 1)
			}
			frames[k.ID] = frame
		}
		c.delivered(ev.ID)
		c.s.Write(frame)
	}
}

// CloseKey closes every connection authenticated with the key, at once.
func (h *Hub) CloseKey(keyID string) {
	h.mu.RLock()
	var victims []*conn
	for _, set := range h.byAccount {
		for c := range set {
			if k := c.key(); k != nil && k.ID == keyID {
				victims = append(victims, c)
			}
		}
	}
	h.mu.RUnlock()
	for _, c := range victims {
		c.close(websocket.ClosePolicyViolation, "API key revoked")
	}
}

func (h *Hub) recheckRevocations() {
	t := time.NewTicker(h.opts.RecheckInterval)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		seen := map[string]bool{}
		var ids []string
		h.mu.RLock()
		for _, set := range h.byAccount {
			for c := range set {
				if k := c.key(); k != nil && !seen[k.ID] {
					seen[k.ID] = true
					ids = append(ids, k.ID)
				}
			}
		}
		h.mu.RUnlock()
		if len(ids) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		revoked, err := h.opts.Revoked(ctx, ids)
		cancel()
		if err != nil {
			slog.Warn("websocket revocation re-check", "error", err)
			continue
		}
		for _, id := range revoked {
			h.CloseKey(id)
		}
	}
}

// Close closes every connection (shutdown) with 1001.
func (h *Hub) Close() error {
	h.once.Do(func() { close(h.stop) })
	return h.m.CloseWithMsg(websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"))
}

// Count is the number of open connections.
func (h *Hub) Count() int { return h.m.Len() }
