package main

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// subscriber is one merchant's WebSocket client on one api process,
// subscribed to "*". When its connection drops (the api restarted) it
// reconnects with backoff, re-authenticates and re-subscribes, as the
// specification tells clients to; what it missed meanwhile is REST's to
// recover, so it records the intervals it was subscribed.
type subscriber struct {
	m   merchant
	api *proc

	mu        sync.Mutex
	got       map[string]int // delivery id → frames received
	intervals []interval
	open      time.Time // start of the current subscription, if any
	dials     int
}

// interval is a span during which the subscriber was subscribed.
type interval struct{ from, to time.Time }

func newSubscriber(m merchant, api *proc) *subscriber {
	return &subscriber{m: m, api: api, got: map[string]int{}}
}

// run keeps the subscriber connected until ctx ends.
func (s *subscriber) run(ctx context.Context) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		if s.session(ctx) {
			backoff = 100 * time.Millisecond
		}
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
	}
}

// session is one connection: it reports whether it got subscribed.
func (s *subscriber) session(ctx context.Context) bool {
	s.mu.Lock()
	s.dials++
	s.mu.Unlock()
	d := websocket.Dialer{HandshakeTimeout: 5 * time.Second}
	c, _, err := d.DialContext(ctx, "ws://"+s.api.WSAddr+"/v1?token="+s.m.Key, nil)
	if err != nil {
		return false
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	var wmu sync.Mutex
	write := func(v any) error {
		wmu.Lock()
		defer wmu.Unlock()
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		return c.WriteJSON(v)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	subscribed := false
	defer func() {
		if subscribed {
			s.mu.Lock()
			s.intervals = append(s.intervals, interval{s.open, time.Now()})
			s.open = time.Time{}
			s.mu.Unlock()
		}
	}()
	var f struct {
		ID    string `json:"id"`
		Event string `json:"event"`
	}
	for {
		_, raw, err := c.ReadMessage()
		if err != nil {
			return subscribed
		}
		f.ID, f.Event = "", ""
		if json.Unmarshal(raw, &f) != nil {
			continue
		}
		switch f.Event {
		case "authenticated":
			if write(map[string]any{"action": "subscribe", "pattern": "*"}) != nil {
				return false
			}
		case "subscribed":
			subscribed = true
			s.mu.Lock()
			s.open = time.Now()
			s.mu.Unlock()
			// From here the server's heartbeat keeps the connection alive;
			// a dead server is noticed by the read deadline below.
			c.SetReadDeadline(time.Time{})
		case "ping":
			write(map[string]any{"action": "ping"})
		case "pong", "unsubscribed", "error":
		default:
			if f.ID != "" {
				s.mu.Lock()
				s.got[f.ID]++
				s.mu.Unlock()
			}
		}
	}
}

// subscribed reports whether the subscriber is subscribed now.
func (s *subscriber) subscribed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.open.IsZero()
}

// result copies what the subscriber saw: frames by delivery id, the
// intervals it was subscribed (the current one up to now) and its dials.
func (s *subscriber) result() (map[string]int, []interval, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	got := make(map[string]int, len(s.got))
	for k, v := range s.got {
		got[k] = v
	}
	ivs := append([]interval(nil), s.intervals...)
	if !s.open.IsZero() {
		ivs = append(ivs, interval{s.open, time.Now()})
	}
	return got, ivs, s.dials
}
