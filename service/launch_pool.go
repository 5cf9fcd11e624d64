package service

import (
	"context"
	"sync"

	"github.com/jmoiron/sqlx"
)

// DefaultLaunchSlots is how many handed-over workflow starts a process runs
// at once when no other bound is given.
const DefaultLaunchSlots = 64

// LaunchPool starts the workflows of committed resources beside the requests
// that committed them, so that a request answers once its records and
// their workflow intent are durable instead of also waiting for Temporal.
//
// Nothing is lost by answering first: the intent commits with the records,
// a start that fails or never runs (the process died) is the sweeper's
// (IntentSweeper), and for a charge every processor notice is a
// Signal-With-Start, which starts the workflow if it is not there yet.
//
// At most Slots starts run at once; Go waits for a free slot, so a slow
// Temporal slows the requests that hand starts over instead of piling up
// goroutines, and the rate of answered creates stays the rate Temporal
// takes their starts at.
type LaunchPool struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	// Slots bounds the starts in flight (DefaultLaunchSlots when 0).
	Slots int

	once  sync.Once
	slots chan struct{}
}

func (s *LaunchPool) init() {
	s.once.Do(func() {
		n := s.Slots
		if n <= 0 {
			n = DefaultLaunchSlots
		}
		s.slots = make(chan struct{}, n)
	})
}

// Go hands the start of l, whose records and intent are committed, over to
// a goroutine once a slot is free. If ctx ends first (the client went
// away), the start is left to the sweeper, as one that failed would be.
func (s *LaunchPool) Go(ctx context.Context, l launch) {
	s.init()
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return
	}
	detached := context.WithoutCancel(ctx)
	go func() {
		defer func() { <-s.slots }()
		// Its own deadline (start's), not the request's: the answer is
		// already on its way and the request's context ends with it. The
		// request's values stay (WithoutCancel), its span among them, so
		// that the workflow continues the request's trace.
		launchCommitted(detached, s.DB, s.Temporal, s.TaskQueue, l)
	}()
}

// Wait returns once every start handed over so far has returned: on
// shutdown, before the Temporal client closes. It takes every slot, then
// gives them back, so a hand-over racing with it simply waits its turn (a
// WaitGroup would panic on an Add during its Wait).
func (s *LaunchPool) Wait() {
	s.init()
	for range cap(s.slots) {
		s.slots <- struct{}{}
	}
	for range cap(s.slots) {
		<-s.slots
	}
}
