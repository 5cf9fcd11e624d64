package activities_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	billingdom "github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/fiscal"
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

// stepKind is one kind of record a step moves, as the generic step's
// table test sees it: its records, a fresh record the move applies to, its
// stored status, and the move.
type stepKind[T any] struct {
	name    string
	records activities.StepRecords[T]
	fresh   func(f *fixture) string
	stored  func(f *fixture, id string) string
	status  func(T) string
	// move moves the record from the status fresh stored it in; false: it
	// is past it (a retried step).
	move func(*T) bool
	// event is the event the move names; "" for a kind that has none.
	event string
	// posts: the kind's store writes a posting handed back with the change
	// (the transactions table's one statement); the others refuse it.
	posts bool
}

// The generic step (lockStep, runStep) on each kind of record: a move is
// stored with its events in order (the record's own, then the other
// records'), once; the zero change writes nothing; an error anywhere (in
// apply, in the store, in the caller's transaction) rolls back everything
// the step wrote, its ledger posting included; a missing record is the
// lock's error and apply never runs.
func TestStepOfEachKind(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	base := f.base()
	testSteps(t, f, stepKind[domain.Transaction]{
		name: "transaction (Base.transition)", records: base.TransactionRecords(),
		fresh:  func(f *fixture) string { return f.newCharge(5_000, 0).ID },
		stored: func(f *fixture, id string) string { return f.get(id, domain.TypePixIn).Status },
		status: func(t domain.Transaction) string { return t.Status },
		move: func(t *domain.Transaction) bool {
			if t.Status != domain.StatusPending {
				return false
			}
			t.Status = domain.StatusFailed
			return true
		},
		event: domain.EventPaymentFailed, posts: true,
	})
	testSteps(t, f, stepKind[billingdom.Billing]{
		name: "billing", records: activities.BillingRecords,
		fresh:  func(f *fixture) string { return f.newBilling(domain.MethodBoleto, 5_000).ID },
		stored: func(f *fixture, id string) string { return f.billing(id).Status },
		status: func(b billingdom.Billing) string { return b.Status },
		move: func(b *billingdom.Billing) bool {
			if b.Status != billingdom.BillingPending {
				return false
			}
			b.Status = billingdom.BillingOverdue
			return true
		},
	})
	testSteps(t, f, stepKind[fiscal.FiscalInvoice]{
		name: "fiscal invoice", records: activities.InvoiceRecords,
		fresh: func(f *fixture) string {
			c := f.fiscalCharge(5_000)
			if _, err := (&activities.Charges{Base: f.base()}).SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()}); err != nil {
				f.t.Fatal(err)
			}
			return fiscal.FiscalInvoiceID(c.ID)
		},
		stored: func(f *fixture, id string) string { return f.invoice(id).Status },
		status: func(inv fiscal.FiscalInvoice) string { return inv.Status },
		move: func(inv *fiscal.FiscalInvoice) bool {
			if !fiscal.InvoiceMoves(inv.Status, fiscal.InvoiceProcessing) {
				return false
			}
			inv.Status = fiscal.InvoiceProcessing
			return true
		},
		event: domain.EventInvoiceProcessing,
	})
}

// testSteps runs the generic step's cases on one kind of record.
func testSteps[T any](t *testing.T, f *fixture, k stepKind[T]) {
	t.Helper()
	var events []string
	if k.event != "" {
		events = []string{k.event}
	}
	// other is an event of another record the step writes (change.also).
	other := func(id string) db.NewEvent {
		return db.NewEvent{AccountID: f.merchant.ID, Type: domain.EventPaymentLinkPaid, ResourceID: "other-" + id, Data: map[string]string{"of": id}}
	}
	// credit is a posting apply writes (db.Post); refused is one the ledger
	// refuses (more than the merchant's withdrawable money, credit's
	// included). Both touch the same two accounts: a transaction that
	// posts both takes no lock after its first posting, so it cannot
	// deadlock with the other tests' postings on the shared clearing
	// account (each posting locks its accounts in id order; a second
	// posting's new account would break that order across the two).
	credit := func(key string) db.Posting {
		return db.Posting{Key: key, AccountID: f.merchant.ID, Kind: "STEP_TEST", Description: "step test", Entries: []db.Entry{
			{Account: domain.LedgerPixClearing, Amount: -100}, {Account: domain.AvailableLedger(f.merchant.ID), Amount: 100}}}
	}
	refused := func(key string) db.Posting {
		return db.Posting{Key: key, AccountID: f.merchant.ID, Kind: "STEP_TEST", Description: "step test", Entries: []db.Entry{
			{Account: domain.AvailableLedger(f.merchant.ID), Amount: -1_000_000}, {Account: domain.LedgerPixClearing, Amount: 1_000_000}},
			Withdraw: &db.Withdrawal{AccountID: f.merchant.ID, Amount: 1_000_000}}
	}
	boom := errors.New("apply failed")
	type outcome struct {
		err     error    // the step's error (errors.Is); nil: none
		anyErr  bool     // some error, whichever
		stored  bool     // the step reports the record stored
		moved   bool     // the record's stored status moved
		events  []string // events written for the record, after the fresh one's
		others  int      // events written for the other record
		posting string   // "": no posting key; else the key stays posted (or not: posted false)
		posted  bool
	}
	for _, tc := range []struct {
		name  string
		apply func(id string) func(*sqlx.Tx, *T) (activities.StepChange, error)
		in    func(id string, step func(tx *sqlx.Tx) error) error // the transaction the step runs in; nil: its own
		want  func(id string) outcome
	}{
		{"a move is stored with its events", func(string) func(*sqlx.Tx, *T) (activities.StepChange, error) {
			return func(_ *sqlx.Tx, r *T) (activities.StepChange, error) {
				if !k.move(r) {
					return activities.StepChange{}, nil
				}
				return activities.Moved(events...), nil
			}
		}, nil, func(string) outcome { return outcome{stored: true, moved: true, events: events} }},

		{"the zero change writes nothing, whatever apply changed", func(string) func(*sqlx.Tx, *T) (activities.StepChange, error) {
			return func(_ *sqlx.Tx, r *T) (activities.StepChange, error) {
				k.move(r)
				return activities.StepChange{}, nil
			}
		}, nil, func(string) outcome { return outcome{} }},

		{"other records' events come after the record's own", func(id string) func(*sqlx.Tx, *T) (activities.StepChange, error) {
			return func(_ *sqlx.Tx, r *T) (activities.StepChange, error) {
				k.move(r)
				return activities.Moved(events...).Also(other(id)), nil
			}
		}, nil, func(string) outcome { return outcome{stored: true, moved: true, events: events, others: 1} }},

		{"an apply error rolls back what apply wrote", func(id string) func(*sqlx.Tx, *T) (activities.StepChange, error) {
			return func(tx *sqlx.Tx, r *T) (activities.StepChange, error) {
				if _, err := db.Post(f.ctx, tx, credit("step-test:"+id+":apply")); err != nil {
					return activities.StepChange{}, err
				}
				if _, err := db.InsertEvents(f.ctx, tx, other(id)); err != nil {
					return activities.StepChange{}, err
				}
				k.move(r)
				return activities.Moved(events...), boom
			}
		}, nil, func(id string) outcome { return outcome{err: boom, posting: "step-test:" + id + ":apply"} }},

		{"a posting handed back is the transactions table's alone", func(id string) func(*sqlx.Tx, *T) (activities.StepChange, error) {
			return func(tx *sqlx.Tx, r *T) (activities.StepChange, error) {
				if _, err := db.Post(f.ctx, tx, credit("step-test:"+id+":apply")); err != nil {
					return activities.StepChange{}, err
				}
				k.move(r)
				return activities.Moved(events...).Posting(credit("step-test:" + id + ":handed")), nil
			}
		}, nil, func(id string) outcome {
			if k.posts { // written in the row's statement, with apply's
				return outcome{stored: true, moved: true, events: events, posting: "step-test:" + id + ":handed", posted: true}
			}
			return outcome{anyErr: true, posting: "step-test:" + id + ":apply"}
		}},

		{"a store error rolls back what apply wrote", func(id string) func(*sqlx.Tx, *T) (activities.StepChange, error) {
			return func(tx *sqlx.Tx, r *T) (activities.StepChange, error) {
				if _, err := db.Post(f.ctx, tx, credit("step-test:"+id+":apply")); err != nil {
					return activities.StepChange{}, err
				}
				k.move(r)
				if k.posts { // the ledger refuses the posting the row's statement carries
					return activities.Moved(events...).Posting(refused("step-test:" + id + ":refused")), nil
				}
				if k.event == "" { // an event named for a record that has none
					return activities.Moved(domain.EventPaymentPaid), nil
				}
				return activities.Moved(events...).Posting(refused("step-test:" + id + ":refused")), nil
			}
		}, nil, func(id string) outcome {
			if k.posts {
				return outcome{err: domain.ErrInsufficientBalance, posting: "step-test:" + id + ":apply"}
			}
			return outcome{anyErr: true, posting: "step-test:" + id + ":apply"}
		}},

		{"in the caller's transaction, the caller's rollback undoes it", func(string) func(*sqlx.Tx, *T) (activities.StepChange, error) {
			return func(_ *sqlx.Tx, r *T) (activities.StepChange, error) {
				k.move(r)
				return activities.Moved(events...), nil
			}
		}, func(_ string, step func(tx *sqlx.Tx) error) error {
			return db.InTx(f.ctx, f.db, func(tx *sqlx.Tx) error {
				if err := step(tx); err != nil {
					return err
				}
				return boom // the caller fails after the step
			})
		}, func(string) outcome { return outcome{err: boom} }},

		{"in the caller's transaction, stored when the caller commits", func(string) func(*sqlx.Tx, *T) (activities.StepChange, error) {
			return func(_ *sqlx.Tx, r *T) (activities.StepChange, error) {
				k.move(r)
				return activities.Moved(events...), nil
			}
		}, func(_ string, step func(tx *sqlx.Tx) error) error {
			return db.InTx(f.ctx, f.db, step)
		}, func(string) outcome { return outcome{stored: true, moved: true, events: events} }},
	} {
		name := k.name + ": " + tc.name
		id := k.fresh(f)
		before := k.stored(f, id)
		eventsBefore := len(f.events(id))
		var stored bool
		var rec T
		var err error
		if tc.in == nil {
			rec, stored, err = activities.RunStep(f.ctx, f.db, id, k.records, tc.apply(id))
		} else {
			err = tc.in(id, func(tx *sqlx.Tx) error {
				var err error
				rec, stored, err = activities.LockStep(f.ctx, tx, id, k.records, tc.apply(id))
				return err
			})
			stored = stored && err == nil
		}
		want := tc.want(id)
		switch {
		case want.err != nil && !errors.Is(err, want.err), want.anyErr && err == nil, want.err == nil && !want.anyErr && err != nil:
			t.Errorf("%s: error %v, want %v (any: %v)", name, err, want.err, want.anyErr)
		}
		if stored != want.stored {
			t.Errorf("%s: stored %v, want %v", name, stored, want.stored)
		}
		after := k.stored(f, id)
		if moved := after != before; moved != want.moved {
			t.Errorf("%s: stored status %s → %s, want moved %v", name, before, after, want.moved)
		}
		if want.stored && k.status(rec) != after {
			t.Errorf("%s: answered status %s, stored %s", name, k.status(rec), after)
		}
		if got := f.events(id)[eventsBefore:]; !slices.Equal(got, want.events) && len(got)+len(want.events) > 0 {
			t.Errorf("%s: events %v, want %v", name, got, want.events)
		}
		if got := len(f.events("other-" + id)); got != want.others {
			t.Errorf("%s: %d events of the other record, want %d", name, got, want.others)
		}
		if want.posting != "" {
			if posted := len(f.moves(want.posting)) > 0; posted != want.posted {
				t.Errorf("%s: posting %s posted %v, want %v", name, want.posting, posted, want.posted)
			}
		}
		// Run again, a retried step finds the record past the move, when it
		// moved: nothing more is written.
		if want.moved {
			n := len(f.events(id))
			_, again, err := activities.RunStep(f.ctx, f.db, id, k.records, func(_ *sqlx.Tx, r *T) (activities.StepChange, error) {
				if !k.move(r) {
					return activities.StepChange{}, nil
				}
				return activities.Moved(events...), nil
			})
			if err != nil || again || len(f.events(id)) != n {
				t.Errorf("%s: retried step stored %v (%v), events %d → %d", name, again, err, n, len(f.events(id)))
			}
		}
	}
	// A record that does not exist: the lock's error, apply never runs.
	_, stored, err := activities.RunStep(f.ctx, f.db, "missing-"+domain.NewID(""), k.records, func(*sqlx.Tx, *T) (activities.StepChange, error) {
		t.Errorf("%s: apply ran on a missing record", k.name)
		return activities.Moved(), nil
	})
	if !errors.Is(err, domain.ErrNotFound) || stored {
		t.Errorf("%s: missing record: %v, stored %v; want not found", k.name, err, stored)
	}
}
