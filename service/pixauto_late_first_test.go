package service_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
)

// The consent notice of a first payment the payer made before the
// authorization closed (its expiry or a cancel ran first, and the workflow
// has ended) is booked by the Inbox as a late payment, in the database,
// with no workflow (the Temporal mock expects no call): the payer was
// debited. A repeat of it, and a consent paid after the close, are 400s.
func TestInboxBooksFirstPaymentOfAConsentPaidBeforeTheClose(t *testing.T) {
	r := newPixRig(t)
	closedAt := time.Now().UTC().Add(-time.Minute)
	a := pixauto.Authorization{ID: domain.NewID(""), AccountID: r.acct.ID, APIKeyID: r.key.ID, CustomerID: r.customer,
		Frequency: pixauto.Monthly, StartDate: pixauto.Today(time.Now()).AddDays(3), FirstPaymentAmount: 1000, FirstPaymentFee: 50,
		Status: pixauto.StatusExpired, ConsentExpiresAt: closedAt, ClosedAt: &closedAt, CreatedAt: closedAt.Add(-time.Hour)}
	if _, err := db.InsertAuthorization(t.Context(), sharedDB, a); err != nil {
		t.Fatal(err)
	}
	inbox := &service.Inbox{DB: sharedDB, Temporal: r.temporal, TaskQueue: taskQueue}
	late := processor.AuthorizationNotice{Outcome: processor.OutcomeApproved, Payer: &domain.Party{Name: "Maria"},
		EndToEndID: "E9999990820261125LATEFIRST02", At: closedAt.Add(-time.Second)}
	after := late
	after.At = closedAt.Add(time.Second)
	if err := inbox.AuthorizationNotice(t.Context(), a.ID, after); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("a consent paid after the close: %v, want a 400", err)
	}
	if err := inbox.AuthorizationNotice(t.Context(), a.ID, late); err != nil {
		t.Fatalf("a consent paid before the close: %v", err)
	}
	got, err := db.GetAuthorization(t.Context(), sharedDB, "", a.ID)
	if err != nil || got.Status != pixauto.StatusExpired || got.FirstPaymentID != activities.InstructionID(a.ID, -1) {
		t.Fatalf("authorization %+v, %v; want EXPIRED with its first payment", got, err)
	}
	first, err := db.TransactionByID(t.Context(), sharedDB, got.FirstPaymentID, domain.TypePixAutomatic)
	if err != nil || first.Status != pixauto.InstructionPaid || first.NetAmount != 950 {
		t.Fatalf("first payment %+v, %v", first, err)
	}
	if err := inbox.AuthorizationNotice(t.Context(), a.ID, late); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("the notice repeated: %v, want a 400 (booked once)", err)
	}
}
