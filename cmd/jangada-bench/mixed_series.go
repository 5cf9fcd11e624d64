//go:build devserver

package main

import (
	"slices"
	"sync"
	"time"
)

// series holds the mixed run's latencies per step and per bucket of the
// arrivals' scheduled time.
type series struct {
	bucket time.Duration
	mu     sync.Mutex
	steps  map[string]map[int]*cell
	order  []string // steps in the order first seen
}

// cell is one step's latencies and errors in one bucket.
type cell struct {
	lat      []time.Duration
	errs     int
	firstErr error
}

func newSeries(bucket time.Duration) *series {
	return &series{bucket: bucket, steps: map[string]map[int]*cell{}}
}

// add records one step that began at offset at (from the load's start)
// and took lat.
func (s *series) add(step string, at, lat time.Duration, err error) {
	b := int(at / s.bucket)
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.steps[step]
	if m == nil {
		m = map[int]*cell{}
		s.steps[step] = m
		s.order = append(s.order, step)
	}
	c := m[b]
	if c == nil {
		c = &cell{}
		m[b] = c
	}
	if err != nil {
		c.errs++
		if c.firstErr == nil {
			c.firstErr = err
		}
		return
	}
	c.lat = append(c.lat, lat)
}

// point is one bucket of one step: its successful count, errors and
// percentiles.
type point struct {
	bucket   int
	n, errs  int
	p50, p99 time.Duration
	firstErr error
}

// points returns step's buckets in order, up to (not including) upTo.
func (s *series) points(step string, upTo int) []point {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []point
	for b := range upTo {
		c := s.steps[step][b]
		if c == nil {
			out = append(out, point{bucket: b})
			continue
		}
		lat := slices.Clone(c.lat)
		slices.Sort(lat)
		p := point{bucket: b, n: len(lat), errs: c.errs, firstErr: c.firstErr}
		if len(lat) > 0 {
			p.p50, p.p99 = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
		}
		out = append(out, p)
	}
	return out
}

// total is step's successful count, errors and percentiles over the run.
func (s *series) total(step string) point {
	s.mu.Lock()
	defer s.mu.Unlock()
	var lat []time.Duration
	p := point{bucket: -1}
	for _, c := range s.steps[step] {
		lat = append(lat, c.lat...)
		p.errs += c.errs
		if p.firstErr == nil {
			p.firstErr = c.firstErr
		}
	}
	slices.Sort(lat)
	p.n = len(lat)
	if len(lat) > 0 {
		p.p50, p.p99 = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
	}
	return p
}

// stepNames are the steps recorded, in the order first seen.
func (s *series) stepNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.order)
}
