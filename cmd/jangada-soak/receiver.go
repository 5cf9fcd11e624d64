package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/jangada/jangada/webhook/verify"
)

// receiver is every merchant's webhook endpoint, on 127.0.0.1: POST
// /hooks/<accountId>. It checks the signatures with the account's
// secret (webhook/verify), answers 200 to every valid post (a duplicate too, as the
// specification asks of receivers) and records each delivery id's posts.
type receiver struct {
	srv *http.Server
	url string

	mu      sync.Mutex
	secrets map[string][]byte // account id → endpoint secret
	byID    map[string]*delivery
	badSig  int
}

// delivery is what the receiver saw of one delivery id.
type delivery struct {
	account, event, dataID string
	// posts are the times of every valid post (each answered 200).
	posts []time.Time
}

func newReceiver() (*receiver, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{secrets: map[string][]byte{}, byID: map[string]*delivery{}}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 5 * time.Second}
	r.url = "http://" + l.Addr().String() + "/hooks"
	go r.srv.Serve(l)
	return r, nil
}

func (r *receiver) setSecret(account, secret string) {
	r.mu.Lock()
	r.secrets[account] = []byte(secret)
	r.mu.Unlock()
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	at := time.Now()
	account := strings.TrimPrefix(req.URL.Path, "/hooks/")
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil || req.Method != http.MethodPost {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	secret := r.secrets[account]
	r.mu.Unlock()
	var env struct {
		ID    string `json:"id"`
		Event string `json:"event"`
		Data  struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	id := req.Header.Get("x-jangada-delivery")
	// The same check merchants make (webhook/verify): both signatures and
	// the timestamp, with room for the soak's retried deliveries.
	if len(secret) == 0 || verify.Verify(string(secret), req.Header, body, 10*time.Minute) != nil ||
		json.Unmarshal(body, &env) != nil || id == "" || env.ID != id || req.Header.Get("x-jangada-event") != env.Event {
		r.mu.Lock()
		r.badSig++
		r.mu.Unlock()
		http.Error(w, "bad signature or envelope", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	d := r.byID[id]
	if d == nil {
		d = &delivery{account: account, event: env.Event, dataID: env.Data.ID}
		r.byID[id] = d
	}
	d.posts = append(d.posts, at)
	r.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// snapshot copies what was received: delivery id → posts, and the count
// of refused (badly signed) posts.
func (r *receiver) snapshot() (map[string]delivery, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]delivery, len(r.byID))
	for id, d := range r.byID {
		out[id] = delivery{account: d.account, event: d.event, dataID: d.dataID, posts: append([]time.Time(nil), d.posts...)}
	}
	return out, r.badSig
}

func (r *receiver) close() { r.srv.Close() }
