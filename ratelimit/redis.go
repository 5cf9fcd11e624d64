package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// Defaults of the shared budgets' connection.
const (
	// DefaultRedisTimeout bounds every call to Redis: a budget answered
	// by Redis in that time is shared; one that is not is counted here.
	DefaultRedisTimeout = 10 * time.Millisecond
	// DefaultRedisCooldown is how long the budgets skip Redis after a
	// failure before one call tries it again, so a dead Redis costs a
	// request nothing beyond the one call that found it dead.
	DefaultRedisCooldown = time.Second
)

// The shared budgets' health on /metrics.
var (
	// SharedFallbacks counts the budget decisions taken in this process
	// because Redis did not answer.
	SharedFallbacks = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "jangada_ratelimit_fallbacks_total",
		Help: "Rate-limit decisions taken by this process's local limiter because the shared one (Redis) did not answer.",
	})
	// SharedAvailable is 1 while Redis answers, 0 while the budgets are
	// counted per process.
	SharedAvailable = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "jangada_ratelimit_shared_available",
		Help: "1 while the shared rate limiter (Redis) answers; 0 while each process counts its share alone.",
	})
)

func init() { prometheus.MustRegister(SharedFallbacks, SharedAvailable) }

// errDown is a call not made: Redis failed within the cooldown.
var errDown = errors.New("ratelimit: redis is down")

// Redis is the shared budgets' connection: every call bounded by Timeout,
// and a breaker that skips Redis for a second after a refused or broken
// connection, or after slowCalls calls in a row ran out of time. While it
// is away each process counts 1/Replicas of every budget alone, so the
// replicas together stay near the budget.
type Redis struct {
	Client   redis.UniversalClient
	Timeout  time.Duration
	Replicas int
	// Prefix keeps one deployment's (or one test's) keys apart.
	Prefix string
	// Cooldown is how long Redis is skipped after a failure.
	Cooldown time.Duration

	downUntil atomic.Int64 // unix nanos; 0: up
	down      atomic.Bool
	// slow counts the calls in a row that ran out of time.
	slow atomic.Int32
}

// slowCalls is how many calls in a row must run out of time before Redis
// is taken for away: one slow answer (a busy machine) falls back for its
// own request only, so the budgets do not flap between Redis and the
// process's share.
const slowCalls = 3

// NewRedis connects to the Redis at url (redis://host:port/db) for
// replicas API processes, with calls bounded by timeout (0: the default).
func NewRedis(url string, replicas int, timeout time.Duration) (*Redis, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = DefaultRedisTimeout
	}
	// No retries and short dials: a call that fails is counted here at
	// once, never waited for.
	opts.MaxRetries, opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = -1, 50*time.Millisecond, timeout, timeout
	opts.PoolTimeout = timeout
	opts.ContextTimeoutEnabled = true
	SharedAvailable.Set(1)
	return &Redis{Client: redis.NewClient(opts), Timeout: timeout, Replicas: max(replicas, 1), Prefix: "jangada:",
		Cooldown: DefaultRedisCooldown}, nil
}

// Close closes the connection.
func (r *Redis) Close() error { return r.Client.Close() }

// do runs f against Redis within Timeout, unless Redis failed within the
// cooldown; a failure opens the breaker (logged and counted once), a
// success after one closes it.
func (r *Redis) do(ctx context.Context, f func(context.Context) error) error {
	return r.within(ctx, r.Timeout, f)
}

// within is do with its own bound (a batch of lease renewals).
func (r *Redis) within(ctx context.Context, timeout time.Duration, f func(context.Context) error) error {
	if until := r.downUntil.Load(); until != 0 && time.Now().UnixNano() < until {
		SharedFallbacks.Inc()
		return errDown
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := f(ctx); err != nil && !errors.Is(err, redis.Nil) {
		SharedFallbacks.Inc()
		if timedOut(err) && r.slow.Add(1) < slowCalls {
			return err
		}
		r.slow.Store(0)
		r.downUntil.Store(time.Now().Add(r.Cooldown).UnixNano())
		if !r.down.Swap(true) {
			SharedAvailable.Set(0)
			slog.Warn("shared rate limiter unavailable: each API process counts its share of every budget", "error", err,
				"share", "1/"+strconv.Itoa(r.Replicas))
		}
		return err
	}
	r.downUntil.Store(0)
	r.slow.Store(0)
	if r.down.Swap(false) {
		SharedAvailable.Set(1)
		slog.Info("shared rate limiter back")
	}
	return nil
}

// Up reports whether the last call to Redis succeeded.
func (r *Redis) Up() bool { return !r.down.Load() }

// timedOut reports whether err is a call that ran out of time (rather
// than a refused or broken connection).
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// share is a process's part of limit while Redis is away (at least 1).
func (r *Redis) share(limit int) int { return max(limit/r.Replicas, 1) }

// key is id's Redis key under the prefix and a budget kind.
func (r *Redis) key(kind, id string) string { return r.Prefix + kind + ":" + id }

// newMember is a random suffix for sorted-set members.
func newMember() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
