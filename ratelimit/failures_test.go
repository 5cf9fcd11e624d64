package ratelimit

import (
	"fmt"
	"testing"
	"time"
)

func TestFailuresWindow(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	ctx := t.Context()
	f := NewFailures(15 * time.Minute)
	f.now = func() time.Time { return now }
	for i := range 3 {
		if d := f.Blocked(ctx, "e", 3); d != 0 {
			t.Fatalf("blocked after %d failures: %v", i, d)
		}
		f.Fail(ctx, "e", 3)
		now = now.Add(time.Minute)
	}
	// Three failures at 12:00, 12:01, 12:02; now 12:03: blocked until the
	// first leaves the window at 12:15.
	if d := f.Blocked(ctx, "e", 3); d != 12*time.Minute {
		t.Fatalf("blocked for %v, want 12m", d)
	}
	if d := f.Blocked(ctx, "other", 3); d != 0 {
		t.Fatalf("another id blocked: %v", d)
	}
	now = now.Add(12 * time.Minute)
	if d := f.Blocked(ctx, "e", 3); d != 0 {
		t.Fatalf("still blocked once the oldest left the window: %v", d)
	}
	f.Fail(ctx, "e", 3)
	if d := f.Blocked(ctx, "e", 3); d != time.Minute {
		t.Fatalf("blocked for %v, want until 12:16", d)
	}
	f.Forget(ctx, "e")
	if d := f.Blocked(ctx, "e", 3); d != 0 {
		t.Fatalf("blocked after forget: %v", d)
	}
}

func TestFailuresStayBounded(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	ctx := t.Context()
	f := NewFailures(time.Minute)
	f.now = func() time.Time { return now }
	for i := range 100 {
		f.Fail(ctx, "same", 5)
		f.Fail(ctx, fmt.Sprint("addr", i), 5)
	}
	if n := len(f.seen["same"]); n != 5 {
		t.Fatalf("kept %d failures of one id, want the newest 5", n)
	}
	now = now.Add(2 * time.Minute)
	for i := range 2000 {
		f.Fail(ctx, fmt.Sprint("later", i), 5)
	}
	if n := len(f.seen); n > 2000 {
		t.Fatalf("%d ids kept: the expired ones were never dropped", n)
	}
	if _, ok := f.seen["addr1"]; ok {
		t.Fatal("an id whose failures all expired is still kept")
	}
}
