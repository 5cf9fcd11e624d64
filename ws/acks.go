package ws

import (
	"context"
	"log/slog"
	"time"
)

// ackRecorder batches acknowledgements to the database, off the
// connections' read goroutines; when it cannot keep up, acks are dropped
// (they are tracking, and the gateway never redelivers).
type ackRecorder struct {
	ch     chan Ack
	record func(context.Context, []Ack) error
}

func newAckRecorder(record func(context.Context, []Ack) error, stop <-chan struct{}) *ackRecorder {
	r := &ackRecorder{ch: make(chan Ack, 4096), record: record}
	if record != nil {
		go r.run(stop)
	}
	return r
}

func (r *ackRecorder) add(a Ack) {
	if r.record == nil {
		return
	}
	select {
	case r.ch <- a:
	default:
		slog.Warn("websocket ack dropped: recorder saturated")
	}
}

func (r *ackRecorder) run(stop <-chan struct{}) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	var batch []Ack
	flush := func() {
		if len(batch) == 0 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := r.record(ctx, batch); err != nil {
			slog.Warn("websocket acks not recorded", "count", len(batch), "error", err)
		}
		cancel()
		batch = batch[:0]
	}
	for {
		select {
		case a := <-r.ch:
			batch = append(batch, a)
			if len(batch) >= 500 {
				flush()
			}
		case <-t.C:
			flush()
		case <-stop:
			flush()
			return
		}
	}
}
