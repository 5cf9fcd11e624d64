//go:build devserver

package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
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

// count reports, for the expected resources: how many have at least one
// delivery, the posts that repeated an id, the extra distinct ids, and the
// time of the last new delivery.
func (h *hookReceiver) count(want []string) (received, dups, extra, bad int, last time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, res := range want {
		set := h.byResource[res]
		if len(set) > 0 {
			received++
			extra += len(set) - 1
		}
		for id := range set {
			dups += h.posts[id] - 1
		}
	}
	return received, dups, extra, h.badSig, h.last
}

// await waits (bounded) until every expected resource has a delivery, then
// a little longer for duplicates to show, and summarises.
func (h *hookReceiver) await(ctx context.Context, name string, want []string, first time.Time) hookRun {
	_, _, _, badBefore, _ := h.count(nil)
	deadline := time.Now().Add(min(60*time.Second+time.Duration(len(want))*50*time.Millisecond, 5*time.Minute))
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if got, _, _, _, _ := h.count(want); got >= len(want) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	got, _, _, _, last := h.count(want)
	time.Sleep(time.Second) // room for a duplicate to arrive
	_, dups, extra, bad, _ := h.count(want)
	window := last.Sub(first)
	if got == 0 || window <= 0 {
		window = time.Since(first)
	}
	return hookRun{name: name, expected: len(want), received: got, duplicates: dups, extra: extra, badSig: bad - badBefore, window: window}
}

// hooksOK fails the bench on any loss or bad signature (duplicates and
// extra ids are reported, not failed on: delivery is at least once).
func hooksOK(hs []hookRun) error {
	var errs []error
	for _, h := range hs {
		if h.loss() != 0 || h.badSig != 0 {
			errs = append(errs, fmt.Errorf("%s: %d expected, %d received, %d duplicates, %d extra, %d bad signatures",
				h.name, h.expected, h.received, h.duplicates, h.extra, h.badSig))
		}
	}
	return errors.Join(errs...)
}
