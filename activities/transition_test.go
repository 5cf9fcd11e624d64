package activities_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// A transition whose record stores a value otherwise than apply left it (a
// payment time PostgreSQL rounds up across a millisecond) still completes,
// and its event says what the row says: the one-statement write is rolled
// back and the step written again with the events made from the stored
// row, never retried for ever and never an event that contradicts it.
func TestTransitionEventsSayWhatTheRowStores(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := f.subCharge(5_000, "")
	c.SubaccountID = nil
	if _, err := activities.InsertCharge(f.ctx, f.db, c, publicURL, nil); err != nil {
		t.Fatal(err)
	}
	n := paidNotice()
	// 0.3 µs before a millisecond: PostgreSQL keeps microseconds, rounding
	// this one up to the next millisecond.
	n.At = time.Date(2026, 11, 28, 10, 0, 0, 999_999_700, time.UTC)
	status, err := (&activities.Charges{Base: f.base()}).SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: n})
	if err != nil || status != domain.StatusCompleted {
		t.Fatalf("SettleCharge: %s %v", status, err)
	}
	// The first write was rolled back: the money moved once, to the net.
	if got := f.moves("charge:" + c.ID + ":settle")[domain.AvailableLedger(f.merchant.ID)]; got != c.NetAmount {
		t.Fatalf("the settle credited %s, want %s", got, c.NetAmount)
	}
	f.wantEqual("postings", f.postings(c.ID), []string{"charge:" + c.ID + ":settle"})
	f.verifyLedger()
	stored := f.get(c.ID, domain.TypePixIn)
	if got := stored.CompletedAt.ISO(); got != "2026-11-28T10:00:01.000Z" {
		t.Fatalf("stored completedAt %s: the case this test needs did not happen", got)
	}
	evs, err := db.EventsFor(f.ctx, f.db, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var paid []domain.Event
	for _, ev := range evs {
		if ev.Type == domain.EventPaymentPaid {
			paid = append(paid, ev)
		}
	}
	if len(paid) != 1 {
		t.Fatalf("%d payment.paid events, want 1", len(paid))
	}
	var data struct {
		CompletedAt string `json:"completedAt"`
	}
	if err := json.Unmarshal(paid[0].Data, &data); err != nil || data.CompletedAt != stored.CompletedAt.ISO() {
		t.Fatalf("the event says completedAt %q, the row %s (%v)", data.CompletedAt, stored.CompletedAt.ISO(), err)
	}
}
