package ratelimit

import "testing"

// One id holds at most its cap of slots; a release gives its room back
// (once, however often it is called), and an id with none held is
// forgotten.
func TestLocalSlots(t *testing.T) {
	t.Parallel()
	s := NewLocalSlots()
	ctx := t.Context()
	var releases []func()
	for i := range 3 {
		release, ok := s.Acquire(ctx, "203.0.113.9", 3)
		if !ok {
			t.Fatalf("slot %d refused under the cap", i)
		}
		releases = append(releases, release)
	}
	if _, ok := s.Acquire(ctx, "203.0.113.9", 3); ok {
		t.Fatal("a fourth slot was taken past the cap of 3")
	}
	if _, ok := s.Acquire(ctx, "198.51.100.1", 3); !ok {
		t.Fatal("another id was refused")
	}
	releases[0]()
	releases[0]()
	if n := s.Held("203.0.113.9"); n != 2 {
		t.Fatalf("held %d after one release (called twice), want 2", n)
	}
	for _, r := range releases[1:] {
		r()
	}
	if _, ok := s.held["203.0.113.9"]; ok {
		t.Fatal("an id with no slot held is still kept")
	}
}
