package dispatch

import (
	"testing"

	"github.com/jangada/jangada/domain"
)

func TestWatchersWakeOnlyTheirResourcesAndCoalesce(t *testing.T) {
	t.Parallel()
	var w Watchers
	wake, stop := w.Watch("cs_1", "tx_1")
	other, stopOther := w.Watch("cs_2")
	defer stopOther()
	w.Publish(domain.Event{ResourceID: "tx_1"})
	w.Publish(domain.Event{ResourceID: "cs_1"}) // coalesced with the pending wake
	w.Publish(domain.Event{ResourceID: "tx_9"})
	if len(wake) != 1 || len(other) != 0 {
		t.Fatalf("wakes: watched %d, other %d", len(wake), len(other))
	}
	<-wake
	stop()
	stop() // twice is harmless
	w.Publish(domain.Event{ResourceID: "cs_1"})
	if len(wake) != 0 || w.Count() != 1 {
		t.Fatalf("after stop: %d wakes, %d watches", len(wake), w.Count())
	}
}
