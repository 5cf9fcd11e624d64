package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/webhook"
)

// wsMargin bounds the time between an event's commit and its frame on a
// connected client: events committed this close to a subscription's start
// or end are not required of it.
const wsMargin = 3 * time.Second

// websockets checks that every subscriber received, exactly once, every
// event of its key committed while it was subscribed.
func (k *checker) websockets(ctx context.Context, subs []*subscriber, within time.Duration) []check {
	start := time.Now()
	var out []check
	for {
		out = k.wsOnce(ctx, subs)
		done := true
		for _, c := range out {
			done = done && c.ok
		}
		if done || time.Since(start) > within || ctx.Err() != nil {
			return out
		}
		pause(ctx, 500*time.Millisecond)
	}
}

func (k *checker) wsOnce(ctx context.Context, subs []*subscriber) []check {
	evs, err := k.soakEvents(ctx)
	if err != nil {
		return []check{{"websocket", false, err.Error()}}
	}
	byAPI := map[string][]*subscriber{}
	var names []string
	for _, s := range subs {
		if byAPI[s.api.Name] == nil {
			names = append(names, s.api.Name)
		}
		byAPI[s.api.Name] = append(byAPI[s.api.Name], s)
	}
	sort.Strings(names)
	var out []check
	for _, name := range names {
		var wantN, gotN, dupN, dials, empty int
		var missing []string
		for _, s := range byAPI[name] {
			got, ivs, n := s.result()
			dials += n
			mine := 0
			for _, ev := range evs {
				if !dispatch.ForKey(ev, s.m.ID, &s.m.KeyID) || !covered(ivs, ev.CreatedAt.Time) {
					continue
				}
				wantN++
				mine++
				// A frame's id is the event's delivery id to the subscriber's key.
				switch got[webhook.SocketDeliveryID(ev.ID, s.m.KeyID)] {
				case 0:
					missing = append(missing, ev.Type+" "+ev.ResourceID)
				case 1:
					gotN++
				default:
					gotN++
					dupN++
				}
			}
			if mine == 0 {
				empty++
			}
		}
		ok := len(missing) == 0 && dupN == 0 && empty == 0
		out = append(out, check{"websocket on " + name, ok, fmt.Sprintf("%d subscribers (%d connections), %d events due while subscribed, %d received, %d missing%s, %d twice, %d subscribers with no event due",
			len(byAPI[name]), dials, wantN, gotN, len(missing), sample(missing), dupN, empty)})
	}
	return out
}

// covered reports whether t lies inside one of the intervals, wsMargin
// away from its ends.
func covered(ivs []interval, t time.Time) bool {
	for _, iv := range ivs {
		if t.After(iv.from.Add(wsMargin)) && t.Before(iv.to.Add(-wsMargin)) {
			return true
		}
	}
	return false
}
