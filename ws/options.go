package ws

import (
	"context"
	"net/http"
	"time"

	"github.com/jangada/jangada/ratelimit"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/clientip"
)

// Authenticator resolves an API key presented from ip; it refuses revoked
// keys and addresses outside the key's allowlist.
type Authenticator func(ctx context.Context, secret, ip string) (domain.APIKey, error)

// Owner reports whether a payment belongs to an account.
type Owner func(ctx context.Context, accountID, paymentID string) bool

// Ack is one acknowledgement a client sent.
type Ack struct{ EventID, KeyID string }

// Options configure a hub; zero durations take the specification's values.
type Options struct {
	Authenticate Authenticator
	Owns         Owner
	// Revoked returns which of the keys are revoked: the periodic re-check
	// behind the revocation NOTIFY (which a reconnecting listener can miss).
	Revoked func(ctx context.Context, keyIDs []string) ([]string, error)
	// RecordAcks stores acknowledgements (batched).
	RecordAcks func(ctx context.Context, acks []Ack) error

	AuthTimeout     time.Duration // 10 s: no authentication by then closes with 1008
	PingPeriod      time.Duration // 30 s between server pings
	PongWait        time.Duration // 15 s for the client's ping to answer
	PaymentTTL      time.Duration // 30 min per paymentId subscription
	RecheckInterval time.Duration // 1 min between revocation re-checks
	// MessageRate and MessageBurst bound client messages per connection
	// (token bucket); over it a message is refused with RATE_LIMIT, and
	// AbuseLimit refusals within 10 s close the connection with 1008.
	MessageRate  float64
	MessageBurst int
	AbuseLimit   int
	// SendBuffer is how many frames may wait for a slow client; a client
	// that lets it fill is disconnected (it must resync through REST)
	// rather than silently losing events.
	SendBuffer int
	// MaxPerIP bounds the open connections from one address (100): more is
	// refused with 429 before the upgrade. MaxPerKey bounds the
	// authenticated connections of one key (100): more is closed with 1008.
	MaxPerIP  int
	MaxPerKey int
	// ClientIP finds the client's address of a request (clientip.Trusted,
	// from JANGADA_TRUSTED_PROXIES); nil: the peer. Caps, the failed
	// authentication budget and key allowlists all use it.
	ClientIP func(*http.Request) string
	// AuthFailuresPerMinute is how many failed authentications an address
	// may make in a minute (20); beyond it, its next attempts are refused
	// before the key is looked up.
	AuthFailuresPerMinute int
	// AuthFailures counts failed authentications per address, and Slots
	// the connections per address and per key: shared by every API
	// process through Redis with JANGADA_REDIS_URL; nil: this process's.
	AuthFailures ratelimit.Counter
	Slots        ratelimit.Slots
}

func (o *Options) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.AuthTimeout, 10*time.Second)
	def(&o.PingPeriod, 30*time.Second)
	def(&o.PongWait, 15*time.Second)
	def(&o.PaymentTTL, 30*time.Minute)
	def(&o.RecheckInterval, time.Minute)
	if o.MessageRate <= 0 {
		o.MessageRate = 20
	}
	if o.MessageBurst <= 0 {
		o.MessageBurst = 40
	}
	if o.AbuseLimit <= 0 {
		o.AbuseLimit = 100
	}
	if o.SendBuffer <= 0 {
		o.SendBuffer = 64
	}
	if o.MaxPerIP <= 0 {
		o.MaxPerIP = 100
	}
	if o.MaxPerKey <= 0 {
		o.MaxPerKey = 100
	}
	if o.AuthFailuresPerMinute <= 0 {
		o.AuthFailuresPerMinute = 20
	}
	if o.ClientIP == nil {
		o.ClientIP = clientip.Peer
	}
	if o.AuthFailures == nil {
		o.AuthFailures = ratelimit.New()
	}
	if o.Slots == nil {
		o.Slots = ratelimit.NewLocalSlots()
	}
}
