package client

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// transport is the oapi.HttpRequestDoer of a Client: it authenticates,
// retries and unwraps every request of the generated code.
type transport struct {
	key                 string
	http                *http.Client
	retries             int
	backoff, maxBackoff time.Duration
}

// Do sends req, retrying a 429 or 503 answer, or a request that reached no
// server, after Retry-After or an exponential backoff with jitter, up to
// t.retries times, then unwraps the last answer.
func (t *transport) Do(req *http.Request) (*http.Response, error) {
	req.Header.Set("X-API-Key", t.key)
	if req.Method == http.MethodPost && req.Header.Get("Idempotency-Key") == "" {
		req.Header.Set("Idempotency-Key", newKey())
	}
	body, err := replayable(req)
	if err != nil {
		return nil, err
	}
	wait := t.backoff
	for attempt := 0; ; attempt++ {
		if body != nil {
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		res, err := t.http.Do(req)
		retry := attempt < t.retries && (err != nil || res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable)
		if !retry {
			if err != nil {
				return nil, err
			}
			return unwrap(res)
		}
		pause := jitter(wait)
		if res != nil {
			if ra := retryAfter(res, time.Now()); ra > 0 {
				pause = ra
			}
			io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
			res.Body.Close()
		}
		wait = min(2*wait, t.maxBackoff)
		timer := time.NewTimer(pause)
		select {
		case <-req.Context().Done():
			timer.Stop()
			return nil, errors.Join(req.Context().Err(), err)
		case <-timer.C:
		}
	}
}

// replayable reads the request's body once, so that each attempt sends
// it again.
func replayable(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

// jitter is d give or take a quarter, so that clients turned away together
// do not come back together.
func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d*3/4 + rand.N(d/2+1)
}

// retryAfter is an answer's Retry-After (delay-seconds or an HTTP date),
// zero when absent or malformed.
func retryAfter(res *http.Response, now time.Time) time.Duration {
	v := res.Header.Get("Retry-After")
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}
