//go:build devserver

package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// plotMixed writes one PNG per series of the mixed run next to its text
// report: each step's p50 and p99 per bucket, and each process's resident
// memory and goroutines per sample, each axis from 0 so that a flat line
// is seen as flat.
func plotMixed(dir string, m *mixedRun, buckets int, samples []procSample) error {
	unit := m.opts.bucket.String()
	for _, step := range m.series.stepNames() {
		var p50, p99 plotter.XYs
		for _, p := range m.series.points(step, buckets) {
			if p.n == 0 {
				continue
			}
			p50 = append(p50, plotter.XY{X: float64(p.bucket), Y: ms(p.p50)})
			p99 = append(p99, plotter.XY{X: float64(p.bucket), Y: ms(p.p99)})
		}
		if len(p50) == 0 {
			continue
		}
		err := savePlot(filepath.Join(dir, "latency-"+fileName(step)+".png"), step+": latency per "+unit,
			unit+" of the load", "ms", "p50", p50, "p99", p99)
		if err != nil {
			return err
		}
	}
	for i := range samples[0].stats {
		name := samples[0].stats[i].name
		var rss, gor plotter.XYs
		for _, s := range samples {
			st := s.stats[i]
			x := s.at.Minutes()
			if st.rssMB >= 0 {
				rss = append(rss, plotter.XY{X: x, Y: st.rssMB})
			}
			if st.goroutines >= 0 {
				gor = append(gor, plotter.XY{X: x, Y: float64(st.goroutines)})
			}
		}
		if len(rss) > 0 {
			if err := savePlot(filepath.Join(dir, "memory-"+name+".png"), name+": resident memory", "minutes", "MB", "RSS", rss); err != nil {
				return err
			}
		}
		if len(gor) > 0 {
			if err := savePlot(filepath.Join(dir, "goroutines-"+name+".png"), name+": goroutines", "minutes", "goroutines", "goroutines", gor); err != nil {
				return err
			}
		}
	}
	return nil
}

// savePlot draws named line series (name, XYs, name, XYs, …) into a PNG.
func savePlot(path, title, xLabel, yLabel string, lines ...any) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Y.Min = 0
	p.Add(plotter.NewGrid())
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	p.Y.Min = 0 // AddLinePoints widens the range to the data; keep 0 in sight
	return p.Save(8*vg.Inch, 4*vg.Inch, path)
}

// fileName turns a step's name into a file name.
func fileName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
