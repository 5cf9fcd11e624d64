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
// completion time PostgreSQL rounds up across a millisecond) still
// completes, and its event says what the row says: the one-statement write
// is rolled back and the step written again with the events made from the
// stored row, never retried for ever and never an event that contradicts
// it. A paid charge's own time is kept to the microsecond (domain.NewTime),
// so its event and row agree from the first write.
func TestTransitionEventsSayWhatTheRowStores(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// 0.3 µs before a millisecond: PostgreSQL keeps microseconds, rounding
	// this one up to the next millisecond.
	at := time.Date(2026, 11, 28, 10, 0, 0, 999_999_700, time.UTC)
	for _, tc := range []struct {
		name, want string
		complete   func(id string) error
	}{
		{"a time kept to the nanosecond", "2026-11-28T10:00:01.000Z", func(id string) error {
			base := f.base()
			_, err := base.CompleteAtForTest(f.ctx, id, at, domain.EventPaymentPaid)
			return err
		}},
		{"a paid charge", "2026-11-28T10:00:00.999Z", func(id string) error {
			n := paidNotice()
			n.At = at
			status, err := (&activities.Charges{Base: f.base()}).SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: id, Notice: n})
			if err == nil && status != domain.StatusCompleted {
				t.Errorf("settled %s", status)
			}
			return err
		}},
	} {
		c := f.subCharge(5_000, "")
		c.SubaccountID = nil
		if _, err := activities.InsertCharge(f.ctx, f.db, c, publicURL, nil); err != nil {
			t.Fatal(err)
		}
		if err := tc.complete(c.ID); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		stored := f.get(c.ID, domain.TypePixIn)
		if got := stored.CompletedAt.ISO(); got != tc.want {
			t.Fatalf("%s: stored completedAt %s, want %s", tc.name, got, tc.want)
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
		var data struct {
			CompletedAt string `json:"completedAt"`
		}
		if len(paid) != 1 {
			t.Fatalf("%s: %d payment.paid events, want 1", tc.name, len(paid))
		}
		if err := json.Unmarshal(paid[0].Data, &data); err != nil || data.CompletedAt != tc.want {
			t.Fatalf("%s: the event says completedAt %q, the row %s (%v)", tc.name, data.CompletedAt, tc.want, err)
		}
	}
	// The settle moved the money once.
	f.verifyLedger()
}
