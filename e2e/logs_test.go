package e2e

import (
	"bytes"
	"io"
	"os"
	"sync"
	"testing"
)

// logs is the log output of the package's apps: TestMain makes it the
// writer of the process's logger, built as the binary builds its own
// (app.NewLogger, at DEBUG), so a test greps what production would write.
// Every line goes to stderr and to each capture attached.
var logs = &logTee{out: os.Stderr}

// logTee copies what is written to out and to the captures attached.
type logTee struct {
	mu       sync.Mutex
	out      io.Writer
	captures map[*bytes.Buffer]struct{}
}

// Write implements io.Writer.
func (l *logTee) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for b := range l.captures {
		b.Write(p)
	}
	return l.out.Write(p)
}

// capture keeps every line written from now until the test ends (the
// shared app's other tests write theirs too); it answers the lines so far.
func (l *logTee) capture(t *testing.T) func() string {
	b := new(bytes.Buffer)
	l.mu.Lock()
	if l.captures == nil {
		l.captures = map[*bytes.Buffer]struct{}{}
	}
	l.captures[b] = struct{}{}
	l.mu.Unlock()
	t.Cleanup(func() {
		l.mu.Lock()
		delete(l.captures, b)
		l.mu.Unlock()
	})
	return func() string {
		l.mu.Lock()
		defer l.mu.Unlock()
		return b.String()
	}
}
