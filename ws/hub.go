package ws

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/olahol/melody"

	"github.com/jangada/jangada/domain"
)

// Protocol limits of the spec.
const (
	AuthDeadline     = 10 * time.Second
	MaxSubscriptions = 100
	PaymentSubTTL    = 30 * time.Minute
	MaxFrame         = 64 << 10
)

// Authenticator resolves an API key presented from ip.
type Authenticator func(ctx context.Context, secret, ip string) (domain.APIKey, error)

// Owner reports whether a payment belongs to an account.
type Owner func(ctx context.Context, accountID, paymentID string) bool

// Hub holds the live connections of one process.
type Hub struct {
	m     *melody.Melody
	auth  Authenticator
	owns  Owner
	mu    sync.RWMutex
	conns map[*melody.Session]*conn
}

// conn is one connection's protocol state.
type conn struct {
	mu       sync.Mutex
	key      *domain.APIKey
	patterns map[string]bool
	payments map[string]time.Time
}

// New builds the hub with melody configured for this protocol, not its
// defaults (which accept any Origin and 512-byte messages).
func New(auth Authenticator, owns Owner) *Hub {
	m := melody.New()
	m.Config.MaxMessageSize = MaxFrame
	m.Config.MessageBufferSize = 512
	m.Config.PingPeriod = 30 * time.Second
	m.Config.PongWait = 45 * time.Second
	m.Upgrader.CheckOrigin = func(r *http.Request) bool { return r.Header.Get("Origin") == "" } // server clients only
	h := &Hub{m: m, auth: auth, owns: owns, conns: map[*melody.Session]*conn{}}
	m.HandleConnect(h.onConnect)
	m.HandleDisconnect(h.onDisconnect)
	m.HandleMessage(h.onMessage)
	return h
}

// ServeHTTP upgrades requests on /v1.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1" {
		http.NotFound(w, r)
		return
	}
	keys := map[string]any{}
	secret := r.URL.Query().Get("token")
	if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && secret == "" {
		secret = strings.TrimSpace(v)
	}
	if secret != "" {
		k, err := h.auth(r.Context(), secret, clientIP(r))
		if err != nil {
			http.Error(w, `{"success":false,"message":"invalid API key"}`, http.StatusUnauthorized)
			return
		}
		keys["key"] = &k
	}
	h.m.HandleRequestWithKeys(w, r, keys)
}

func clientIP(r *http.Request) string {
	host := r.RemoteAddr
	if i := strings.LastIndex(host, ":"); i >= 0 {
		host = host[:i]
	}
	return strings.Trim(host, "[]")
}

func (h *Hub) onConnect(s *melody.Session) {
	c := &conn{patterns: map[string]bool{}, payments: map[string]time.Time{}}
	if v, ok := s.Get("key"); ok {
		c.key = v.(*domain.APIKey)
		h.send(s, map[string]any{"event": "authenticated", "version": 1})
	} else {
		time.AfterFunc(AuthDeadline, func() {
			c.mu.Lock()
			authed := c.key != nil
			c.mu.Unlock()
			if !authed {
				s.CloseWithMsg(melody.FormatCloseMessage(1008, "authentication timeout"))
			}
		})
	}
	h.mu.Lock()
	h.conns[s] = c
	h.mu.Unlock()
}

func (h *Hub) onDisconnect(s *melody.Session) {
	h.mu.Lock()
	delete(h.conns, s)
	h.mu.Unlock()
}

func (h *Hub) send(s *melody.Session, v any) {
	b, _ := json.Marshal(v)
	s.Write(b)
}

// CloseKey closes every connection authenticated with the key, at once.
func (h *Hub) CloseKey(keyID string) {
	h.mu.RLock()
	var victims []*melody.Session
	for s, c := range h.conns {
		c.mu.Lock()
		if c.key != nil && c.key.ID == keyID {
			victims = append(victims, s)
		}
		c.mu.Unlock()
	}
	h.mu.RUnlock()
	for _, s := range victims {
		s.CloseWithMsg(melody.FormatCloseMessage(1008, "API key revoked"))
	}
}

// Close closes every connection (shutdown).
func (h *Hub) Close() error { return h.m.Close() }

// Count is the number of open connections.
func (h *Hub) Count() int { return h.m.Len() }
