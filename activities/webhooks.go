package activities

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
)

// Webhooks are the webhook delivery workflow's activities.
type Webhooks struct {
	DB     *sqlx.DB
	Sender *webhook.Sender
	// PerEndpoint bounds this process's attempts in flight to one endpoint
	// (0: no bound), so that one merchant's hanging receivers cannot take
	// every delivery slot.
	PerEndpoint int

	slots endpointSlots
}

// slotWait is how long an attempt waits for a free slot of its endpoint;
// after it, the attempt fails as "endpoint busy" and the delivery's retry
// schedule takes over.
const slotWait = 15 * time.Second

// WebhookAttempt asks SendWebhook for one attempt.
type WebhookAttempt struct {
	DeliveryID string
	Run        int
	Attempt    int
}

// Why an attempt was not sent.
const (
	// SkipDelivered: an earlier run delivered it (a duplicate chain).
	SkipDelivered = "delivered"
	// SkipCanceled: the endpoint was deleted or disabled since.
	SkipCanceled = "canceled"
)

// WebhookOutcome is what one attempt gave.
type WebhookOutcome struct {
	StatusCode int
	LatencyMS  int
	Error      string
	Body       string
	Delivered  bool
	Skip       string
}

// WebhookRecord is one attempt to store, with the delivery's new status.
type WebhookRecord struct {
	DeliveryID    string
	Run           int
	Attempt       int
	StartedAt     time.Time
	Outcome       WebhookOutcome
	Status        string
	NextAttemptAt *time.Time
}

// endpointBusy is the outcome of an attempt the endpoint's in-flight cap
// refused.
const endpointBusy = "endpoint busy: too many deliveries to it in flight"

// SendWebhook makes one attempt: it loads the delivery with its endpoint as
// it is now (URL or secret may have changed) and its event, and posts the
// signed envelope. A receiver's failure is an outcome, not an error: the
// workflow owns the retry schedule.
func (a *Webhooks) SendWebhook(ctx context.Context, at WebhookAttempt) (out WebhookOutcome, err error) {
	defer func() {
		if err == nil {
			WebhookAttempts.WithLabelValues(outcomeLabel(out)).Inc()
		}
	}()
	t, err := db.GetDeliveryTarget(ctx, a.DB, at.DeliveryID)
	if errors.Is(err, domain.ErrNotFound) {
		return WebhookOutcome{Skip: SkipCanceled, Error: "delivery not found"}, nil
	}
	if err != nil {
		return WebhookOutcome{}, err
	}
	switch {
	case at.Run == 0 && t.Delivery.Status == db.DeliveryDelivered:
		return WebhookOutcome{Skip: SkipDelivered}, nil
	case t.EndpointDeleted:
		return WebhookOutcome{Skip: SkipCanceled, Error: "endpoint deleted"}, nil
	case t.EndpointStatus != domain.EndpointActive:
		return WebhookOutcome{Skip: SkipCanceled, Error: "endpoint disabled"}, nil
	}
	if a.PerEndpoint > 0 {
		wctx, cancel := context.WithTimeout(ctx, slotWait)
		release, err := a.slots.acquire(wctx, t.Delivery.EndpointID, a.PerEndpoint)
		cancel()
		if err != nil {
			return WebhookOutcome{Error: endpointBusy}, nil
		}
		defer release()
	}
	res := a.Sender.Send(ctx, webhook.Message{
		URL: t.URL, Secret: t.Secret, DeliveryID: t.Delivery.ID, EventType: t.Event.Type,
		Body: webhook.Encode(t.Delivery.ID, t.Event),
	})
	return WebhookOutcome{
		StatusCode: res.StatusCode, LatencyMS: int(res.Latency / time.Millisecond), Error: res.Err, Body: res.Body,
		Delivered: res.Delivered(),
	}, nil
}

// RecordWebhookAttempt stores one attempt and the delivery's new status;
// recording the same attempt twice changes nothing.
func (a *Webhooks) RecordWebhookAttempt(ctx context.Context, r WebhookRecord) error {
	rec := db.AttemptRecord{
		Attempt: db.Attempt{
			DeliveryID: r.DeliveryID, Run: r.Run, Attempt: r.Attempt, StartedAt: domain.NewTime(r.StartedAt),
			LatencyMS: r.Outcome.LatencyMS,
		},
		Status: r.Status, NextAttemptAt: r.NextAttemptAt,
	}
	if r.Outcome.StatusCode != 0 {
		rec.StatusCode = &r.Outcome.StatusCode
	}
	if r.Outcome.Error != "" {
		rec.Error = &r.Outcome.Error
	}
	if r.Outcome.Body != "" {
		rec.ResponseBody = &r.Outcome.Body
	}
	return db.RecordAttempt(ctx, a.DB, rec)
}

// endpointSlots is a counting semaphore per endpoint, forgotten when idle.
type endpointSlots struct {
	mu sync.Mutex
	m  map[string]*endpointSlot
}

type endpointSlot struct {
	ch    chan struct{}
	users int
}

// acquire takes one of n slots of endpoint id, waiting until ctx ends; the
// caller calls release when its attempt is over.
func (s *endpointSlots) acquire(ctx context.Context, id string, n int) (release func(), err error) {
	s.mu.Lock()
	if s.m == nil {
		s.m = map[string]*endpointSlot{}
	}
	sl := s.m[id]
	if sl == nil {
		sl = &endpointSlot{ch: make(chan struct{}, n)}
		s.m[id] = sl
	}
	sl.users++
	s.mu.Unlock()
	leave := func() {
		s.mu.Lock()
		if sl.users--; sl.users == 0 {
			delete(s.m, id)
		}
		s.mu.Unlock()
	}
	select {
	case sl.ch <- struct{}{}:
		return func() { <-sl.ch; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}
