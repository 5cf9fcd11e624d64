package dispatch

import (
	"context"
	"testing"
	"time"
)

// A read after a quiet spell runs at once; the next one waits out the
// spacing (here an hour: it returns only because its context ends).
func TestPacerReadsAtOnceThenSpacesReads(t *testing.T) {
	p := pacer{every: time.Hour}
	done := make(chan struct{})
	go func() { p.wait(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the first read waited: a lone event would be delayed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	p.wait(ctx)
	if ctx.Err() == nil {
		t.Fatal("a read right after another did not wait for the spacing")
	}
}
