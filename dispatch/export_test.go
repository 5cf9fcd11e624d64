package dispatch

// Drains is how many reads the tail has done.
func Drains(t *Tail) int64 { return t.drains.Load() }

// Position is the last seq the tail has passed.
func Position(t *Tail) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}
