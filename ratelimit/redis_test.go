package ratelimit

import (
	"context"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
)

// redisAddr is the Redis every development machine and CI run has.
func redisAddr() string {
	if a := os.Getenv("JANGADA_TEST_REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

// proxy is a TCP relay in front of the test Redis that a test can cut and
// restore: Redis going away and coming back, for one process's view.
type proxy struct {
	ln   net.Listener
	mu   sync.Mutex
	open bool
	// stalled: connections are taken and never answered (a hung Redis).
	stalled bool
	conns   []net.Conn
	dials   atomic.Int64
}

func newProxy(t *testing.T) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, open: true}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.dials.Add(1)
			p.mu.Lock()
			if p.stalled {
				p.conns = append(p.conns, c)
				p.mu.Unlock()
				continue
			}
			if !p.open {
				p.mu.Unlock()
				c.Close()
				continue
			}
			up, err := net.Dial("tcp", redisAddr())
			if err != nil {
				p.mu.Unlock()
				c.Close()
				continue
			}
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
	return p
}

// cut drops every relayed connection and refuses new ones.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.open = false
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.open, p.stalled = true, false
}

// stall drops the relayed connections and takes new ones without ever
// answering: every call runs out of time.
func (p *proxy) stall() {
	p.cut()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stalled = true
}

// sharedRedis connects to addr with a prefix of its own (tests share the
// Redis), as one of replicas processes, skipping Redis 50 ms after a failure.
func sharedRedis(t *testing.T, addr, prefix string, replicas int) *Redis {
	t.Helper()
	r, err := NewRedis("redis://"+addr+"/0", replicas, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	r.Prefix, r.Cooldown = prefix, 50*time.Millisecond
	t.Cleanup(func() { r.Close() })
	if err := r.Client.Ping(t.Context()).Err(); err != nil {
		t.Skipf("no Redis at %s: %v", addr, err)
	}
	return r
}

// Two processes on one Redis share one budget: ten a minute is ten in all,
// whichever process counts them.
func TestSharedCountsAcrossReplicas(t *testing.T) {
	t.Parallel()
	prefix := "test:" + domain.NewID("") + ":"
	a, b := NewShared(sharedRedis(t, redisAddr(), prefix, 2)), NewShared(sharedRedis(t, redisAddr(), prefix, 2))
	allowed := 0
	for i := range 30 {
		c := a
		if i%2 == 1 {
			c = b
		}
		if d := c.Allow(t.Context(), "key:k", 10); d.Allowed {
			allowed++
		} else if d.RetryAfter <= 0 || d.RetryAfter > 6*time.Second+time.Second/2 {
			t.Fatalf("refused with Retry-After %v", d.RetryAfter)
		}
	}
	if allowed != 10 {
		t.Fatalf("%d allowed across two processes, want 10", allowed)
	}
	if !a.Exhausted(t.Context(), "key:k", 10) || b.Exhausted(t.Context(), "key:other", 10) {
		t.Fatal("Exhausted does not read the shared budget")
	}
}

// While Redis is away a process counts its share alone (a tenth of ten for
// two replicas: five), without waiting on Redis for each request (the
// breaker: one dial per cooldown), and counts the fallbacks; once Redis is
// back the budget is the shared one again.
func TestSharedFallsBackAndReturns(t *testing.T) {
	p := newProxy(t)
	prefix := "test:" + domain.NewID("") + ":"
	r := sharedRedis(t, p.ln.Addr().String(), prefix, 2)
	s := NewShared(r)
	if d := s.Allow(t.Context(), "key:k", 10); !d.Allowed || !r.Up() {
		t.Fatalf("first request: %+v up %v", d, r.Up())
	}
	p.cut()
	before, dials := counterValue(SharedFallbacks), p.dials.Load()
	allowed := 0
	for range 20 {
		if s.Allow(t.Context(), "key:k", 10).Allowed {
			allowed++
		}
	}
	if allowed != 5 || r.Up() {
		t.Fatalf("%d allowed while Redis is away (up %v), want the share: 5", allowed, r.Up())
	}
	if n := counterValue(SharedFallbacks) - before; n < 20 {
		t.Fatalf("%v fallbacks counted, want 20", n)
	}
	if d := p.dials.Load() - dials; d > 2 {
		t.Fatalf("%d dials to a dead Redis within its cooldown: each request waited on it", d)
	}
	p.restore()
	waitUp(t, s, r)
	// The shared budget: the request counted before the cut and this one
	// (the probe counted none).
	if left := s.Allow(t.Context(), "key:k", 10).Remaining; left != 8 {
		t.Fatalf("remaining %d after Redis came back, want the shared count's 8", left)
	}
}

// A slow answer falls back for its own request only: Redis is taken for
// away (the breaker opens) once slowCalls calls in a row ran out of time.
func TestSharedSlowAnswersOpenTheBreakerOnlyInARow(t *testing.T) {
	p := newProxy(t)
	r := sharedRedis(t, p.ln.Addr().String(), "test:"+domain.NewID("")+":", 2)
	s := NewShared(r)
	if !s.Allow(t.Context(), "key:k", 10).Allowed {
		t.Fatal("first request refused")
	}
	p.stall()
	for i := range slowCalls - 1 {
		if d := s.Allow(t.Context(), "key:k", 10); !d.Allowed || !r.Up() {
			t.Fatalf("slow call %d: %+v, up %v: one slow answer opened the breaker", i+1, d, r.Up())
		}
	}
	s.Allow(t.Context(), "key:k", 10)
	if r.Up() {
		t.Fatalf("%d slow calls in a row and Redis is still taken for up", slowCalls)
	}
	p.restore()
	waitUp(t, s, r)
}

// waitUp waits until a request reaches Redis again (after the cooldown).
func waitUp(t *testing.T, s *Shared, r *Redis) {
	t.Helper()
	poll.Until(t, 5*time.Second, "the shared limiter to come back", func() bool {
		s.Exhausted(context.Background(), "probe", 1)
		return r.Up()
	})
}

// Two processes share an e-mail's failures: three allowed in all, then
// both refuse until the oldest leaves the window; while Redis is away each
// counts its share; Forget clears the shared run.
func TestSharedFailuresAcrossReplicas(t *testing.T) {
	t.Parallel()
	p := newProxy(t)
	prefix := "test:" + domain.NewID("") + ":"
	a := NewSharedFailures(sharedRedis(t, redisAddr(), prefix, 2), time.Minute)
	rb := sharedRedis(t, p.ln.Addr().String(), prefix, 2)
	b := NewSharedFailures(rb, time.Minute)
	ctx := t.Context()
	a.Fail(ctx, "email:x", 3)
	b.Fail(ctx, "email:x", 3)
	if d := a.Blocked(ctx, "email:x", 3); d != 0 {
		t.Fatalf("blocked after two failures: %v", d)
	}
	a.Fail(ctx, "email:x", 3)
	for name, f := range map[string]*SharedFailures{"a": a, "b": b} {
		if d := f.Blocked(ctx, "email:x", 3); d <= 55*time.Second || d > time.Minute {
			t.Fatalf("%s: blocked for %v after three failures in all, want about a minute", name, d)
		}
	}
	// Redis away for b: it counts its share (1 of 3 for two replicas) alone.
	p.cut()
	if d := b.Blocked(ctx, "email:y", 3); d != 0 {
		t.Fatalf("blocked with no failure while Redis is away: %v", d)
	}
	b.Fail(ctx, "email:y", 3)
	if d := b.Blocked(ctx, "email:y", 3); d == 0 {
		t.Fatal("not blocked after its share of failures while Redis is away")
	}
	p.restore()
	poll.Until(t, 5*time.Second, "Redis back for b", func() bool {
		b.Blocked(ctx, "probe", 1)
		return rb.Up()
	})
	a.Forget(ctx, "email:x")
	if d := b.Blocked(ctx, "email:x", 3); d != 0 {
		t.Fatalf("blocked after the run was forgotten: %v", d)
	}
}

// Two processes share a key's connection cap; a released slot is free
// again; a slot whose holder stopped renewing it lapses; while Redis is
// away a process takes from its local share.
func TestSharedSlotsAcrossReplicas(t *testing.T) {
	t.Parallel()
	p := newProxy(t)
	prefix := "test:" + domain.NewID("") + ":"
	ctx := t.Context()
	a := NewSharedSlots(sharedRedis(t, redisAddr(), prefix, 2))
	rb := sharedRedis(t, p.ln.Addr().String(), prefix, 2)
	b := NewSharedSlots(rb)
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	var releases []func()
	for i, s := range []*SharedSlots{a, b, a} {
		rel, ok := s.Acquire(ctx, "key:k", 3)
		if !ok {
			t.Fatalf("slot %d refused", i+1)
		}
		releases = append(releases, rel)
	}
	if _, ok := b.Acquire(ctx, "key:k", 3); ok {
		t.Fatal("a fourth slot taken across two processes with a cap of 3")
	}
	releases[0]()
	releases[0]() // a release counts once
	rel, ok := b.Acquire(ctx, "key:k", 3)
	if !ok {
		t.Fatal("a released slot is not free again")
	}
	rel()

	// A holder that stops renewing: its slots lapse after the lease.
	c := newSharedSlots(sharedRedis(t, redisAddr(), prefix, 2), 100*time.Millisecond)
	c.Close()
	if _, ok := c.Acquire(ctx, "key:lapse", 1); !ok {
		t.Fatal("first slot refused")
	}
	if _, ok := a.Acquire(ctx, "key:lapse", 1); ok {
		t.Fatal("a held slot was taken again")
	}
	poll.Until(t, 5*time.Second, "the unrenewed lease to lapse", func() bool {
		rel, ok := a.Acquire(ctx, "key:lapse", 1)
		if ok {
			rel()
		}
		return ok
	})

	// Redis away for b: its share of a cap of 4 for two replicas is 2.
	p.cut()
	got := 0
	for range 4 {
		if _, ok := b.Acquire(ctx, "key:down", 4); ok {
			got++
		}
	}
	if got != 2 {
		t.Fatalf("%d slots taken while Redis is away, want the share: 2", got)
	}
}
