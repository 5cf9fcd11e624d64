package dispatch

// Drains is how many reads the tail has done.
func Drains(t *Tail) int64 { return t.drains.Load() }
