package ratelimit

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Slots caps what is held at once per id (open WebSocket connections per
// key, per address): Acquire takes one of limit slots and answers its
// release.
type Slots interface {
	Acquire(ctx context.Context, id string, limit int) (release func(), ok bool)
}

// LocalSlots counts held slots in this process only.
type LocalSlots struct {
	mu   sync.Mutex
	held map[string]int
}

// NewLocalSlots is an empty count.
func NewLocalSlots() *LocalSlots { return &LocalSlots{held: map[string]int{}} }

// Acquire takes one of id's limit slots.
func (s *LocalSlots) Acquire(_ context.Context, id string, limit int) (func(), bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[id] >= limit {
		return nil, false
	}
	s.held[id]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.held[id]--; s.held[id] <= 0 {
				delete(s.held, id) // the map holds only ids with slots taken
			}
		})
	}, true
}

// Held is how many of id's slots are taken here.
func (s *LocalSlots) Held(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held[id]
}

// SlotLease is how long a shared slot lives without its holder renewing
// it: a process that dies gives its slots back within it.
const SlotLease = time.Minute

// SharedSlots are Slots every API process shares through Redis: each id's
// held slots are a sorted set of leases (member: the holder's slot, score:
// when its lease ends), renewed by the holding process every third of
// SlotLease, so a process that dies frees its slots within a lease. A take
// is one optimistic transaction (WATCH, drop the lapsed leases, count,
// add). While Redis is away a process takes from its local share.
type SharedSlots struct {
	r     *Redis
	local *LocalSlots
	lease time.Duration

	mu   sync.Mutex
	held map[string]string // member → its Redis key
	seq  uint64
	proc string
	stop chan struct{}
	once sync.Once
}

// NewSharedSlots counts slots on r and renews this process's leases until
// Close.
func NewSharedSlots(r *Redis) *SharedSlots { return newSharedSlots(r, SlotLease) }

func newSharedSlots(r *Redis, lease time.Duration) *SharedSlots {
	s := &SharedSlots{r: r, local: NewLocalSlots(), lease: lease, held: map[string]string{}, proc: newMember(),
		stop: make(chan struct{})}
	go s.renew()
	return s
}

// Close stops renewing the leases (they lapse within SlotLease).
func (s *SharedSlots) Close() { s.once.Do(func() { close(s.stop) }) }

// Acquire takes one of id's limit slots across every process.
func (s *SharedSlots) Acquire(ctx context.Context, id string, limit int) (func(), bool) {
	key := s.r.key("slots", id)
	s.mu.Lock()
	s.seq++
	member := s.proc + ":" + strconv.FormatUint(s.seq, 36)
	s.mu.Unlock()
	taken := false
	err := s.r.do(ctx, func(ctx context.Context) error {
		for range 5 { // another process's take in between: read again
			err := s.r.Client.Watch(ctx, func(tx *redis.Tx) error {
				now := time.Now()
				if err := tx.ZRemRangeByScore(ctx, key, "-inf", strconv.FormatInt(now.UnixMilli(), 10)).Err(); err != nil {
					return err
				}
				n, err := tx.ZCard(ctx, key).Result()
				if err != nil || n >= int64(limit) {
					return err
				}
				_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
					p.ZAdd(ctx, key, redis.Z{Score: float64(now.Add(s.lease).UnixMilli()), Member: member})
					p.PExpire(ctx, key, 2*s.lease)
					return nil
				})
				taken = err == nil
				return err
			}, key)
			if err != redis.TxFailedErr {
				return err
			}
		}
		return nil // contended five times over: refused, not failed
	})
	if err != nil {
		return s.local.Acquire(ctx, id, s.r.share(limit))
	}
	if !taken {
		return nil, false
	}
	s.mu.Lock()
	s.held[member] = key
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.held, member)
			s.mu.Unlock()
			// A release Redis misses lapses with its lease.
			_ = s.r.do(context.Background(), func(ctx context.Context) error { return s.r.Client.ZRem(ctx, key, member).Err() })
		})
	}, true
}

// renew extends this process's leases every third of a lease.
func (s *SharedSlots) renew() {
	t := time.NewTicker(s.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		s.mu.Lock()
		held := make(map[string]string, len(s.held))
		for m, k := range s.held {
			held[m] = k
		}
		s.mu.Unlock()
		if len(held) == 0 {
			continue
		}
		until := float64(time.Now().Add(s.lease).UnixMilli())
		_ = s.r.within(context.Background(), time.Second, func(ctx context.Context) error {
			_, err := s.r.Client.Pipelined(ctx, func(p redis.Pipeliner) error {
				for m, k := range held {
					p.ZAddXX(ctx, k, redis.Z{Score: until, Member: m})
					p.PExpire(ctx, k, 2*s.lease)
				}
				return nil
			})
			return err
		})
	}
}
