//go:build devserver

package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// hookReceiver is a merchant's endpoint on 127.0.0.1: it checks
// x-jangada-signature (lower-case hex HMAC-SHA256 of the raw body, keyed
// with the whole secret) with its own code and counts delivery ids.
type hookReceiver struct {
	srv *httptest.Server

	mu         sync.Mutex
	secret     []byte
	byID       map[string]string          // delivery id → data.id
	byResource map[string]map[string]bool // data.id → delivery ids
	posts      map[string]int             // delivery id → posts received
	badSig     int
	last       time.Time
}

func newHookReceiver() *hookReceiver {
	h := &hookReceiver{byID: map[string]string{}, byResource: map[string]map[string]bool{}, posts: map[string]int{}}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve)) // listens on 127.0.0.1
	return h
}

func (h *hookReceiver) setSecret(s string) {
	h.mu.Lock()
	h.secret = []byte(s)
	h.mu.Unlock()
}

func (h *hookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	at := time.Now()
	if err != nil {
		http.Error(w, "read", 400)
		return
	}
	h.mu.Lock()
	secret := h.secret
	h.mu.Unlock()
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	want := "sha256=" + hex.EncodeToString(mac.Sum(nil))
	var env struct {
		ID   string `json:"id"`
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	id := req.Header.Get("x-jangada-delivery")
	if len(secret) == 0 || !hmac.Equal([]byte(req.Header.Get("x-jangada-signature")), []byte(want)) ||
		json.Unmarshal(body, &env) != nil || id == "" || env.ID != id {
		h.mu.Lock()
		h.badSig++
		h.mu.Unlock()
		http.Error(w, "bad signature or envelope", 400)
		return
	}
	h.mu.Lock()
	h.posts[id]++
	if _, ok := h.byID[id]; !ok {
		h.byID[id] = env.Data.ID
		set := h.byResource[env.Data.ID]
		if set == nil {
			set = map[string]bool{}
			h.byResource[env.Data.ID] = set
		}
		set[id] = true
		h.last = at
	}
	h.mu.Unlock()
	w.WriteHeader(200)
}

// count reports, for the expected resources with per deliveries (events)
// each: how many deliveries arrived (at most per for each resource), the
// posts that repeated an id, the extra distinct ids, and the time of the
// last new delivery.
func (h *hookReceiver) count(want []string, per int) (received, dups, extra, bad int, last time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, res := range want {
		set := h.byResource[res]
		received += min(len(set), per)
		extra += max(len(set)-per, 0)
		for id := range set {
			dups += h.posts[id] - 1
		}
	}
	return received, dups, extra, h.badSig, h.last
}

// await waits (bounded) until every expected resource has its per
// deliveries, then a little longer for duplicates to show, and summarises.
func (h *hookReceiver) await(ctx context.Context, name string, want []string, per int, first time.Time) hookRun {
	_, _, _, badBefore, _ := h.count(nil, per)
	expected := len(want) * per
	deadline := time.Now().Add(deliveryDeadline(expected))
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if got, _, _, _, _ := h.count(want, per); got >= expected {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	got, _, _, _, last := h.count(want, per)
	time.Sleep(time.Second) // room for a duplicate to arrive
	_, dups, extra, bad, _ := h.count(want, per)
	window := last.Sub(first)
	if got == 0 || window <= 0 {
		window = time.Since(first)
	}
	return hookRun{name: name, expected: expected, received: got, duplicates: dups, extra: extra, badSig: bad - badBefore, window: window}
}

// hookRun is one webhook throughput measurement.
type hookRun struct {
	name string
	// expected deliveries; received distinct delivery ids for them;
	// duplicates are repeated posts of an id already received; extra are
	// distinct delivery ids beyond those expected; badSig failed the
	// signature check (answered 400).
	expected, received, duplicates, extra, badSig int
	// produce is how long generating the events took; window runs from
	// the first request to the last delivery received.
	produce, window time.Duration
}

func (h hookRun) loss() int { return h.expected - h.received }

func (h hookRun) perSecond() float64 { return float64(h.received) / h.window.Seconds() }

func (h hookRun) String() string {
	return fmt.Sprintf("%-36s n=%-5d %8.1f/s  loss %d  dup %d  extra %d  bad sig %d  (requests took %.2f s, last delivery %.2f s after the first request)",
		h.name, h.expected, h.perSecond(), h.loss(), h.duplicates, h.extra, h.badSig, h.produce.Seconds(), h.window.Seconds())
}
