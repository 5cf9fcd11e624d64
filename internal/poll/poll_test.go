package poll

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestUntilReturnsOnceTheConditionHolds(t *testing.T) {
	var calls atomic.Int32
	Until(t, 5*time.Second, "the third look", func() bool { return calls.Add(1) == 3 })
	if n := calls.Load(); n != 3 {
		t.Fatalf("cond called %d times, want 3", n)
	}
}

// fatalRecorder is a testing.TB whose Fatalf is recorded and ends only the
// goroutine that called it, as testing's does.
type fatalRecorder struct {
	testing.TB
	failed string
}

func (f *fatalRecorder) Helper() {}
func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestUntilFailsAfterTheDeadline(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Until(rec, 20*time.Millisecond, "never", func() bool { return false })
	}()
	<-done
	if !strings.Contains(rec.failed, "never") {
		t.Fatalf("Until failed with %q, want a message naming what it waited for", rec.failed)
	}
}
