package activities_test

import (
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// The payer approves and pays the first payment just before the consent
// expires (or as the merchant cancels), and the close runs first: the
// authorization stays closed, but its consent notice, read after, books
// the first payment as a late payment: a PAID instruction, credited once
// under the key activation uses (a retry posts nothing more). A consent
// paid after the close is not booked.
func TestActivateAuthorizationBooksFirstPaymentPaidBeforeTheClose(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	acts, a, _ := f.pixAuto(processormock.NewMockPixAutomatic(gomock.NewController(t)))
	paidAt := time.Now().UTC()
	closed, err := acts.CloseAuthorization(f.ctx, activities.CloseInput{AuthorizationID: a.ID, Status: pixauto.StatusExpired,
		Reason: "the payer did not answer the consent in time"})
	if err != nil || closed.Status != pixauto.StatusExpired {
		t.Fatalf("close = %+v, %v", closed, err)
	}
	late := processor.AuthorizationNotice{AuthorizationID: a.ID, Outcome: processor.OutcomeApproved,
		Payer: &domain.Party{Name: "Maria"}, EndToEndID: "E9999990820261125LATEFIRST01", At: paidAt.Add(-time.Second)}
	after := late
	after.At = closed.ClosedAt.Add(time.Second)
	if got, err := acts.ActivateAuthorization(f.ctx, activities.ActivateInput{AuthorizationID: a.ID, Notice: after}); err != nil || got.FirstPaymentID != "" {
		t.Fatalf("a consent paid after the close = %+v, %v; want nothing booked", got, err)
	}
	var got pixauto.Authorization
	for range 2 {
		if got, err = acts.ActivateAuthorization(f.ctx, activities.ActivateInput{AuthorizationID: a.ID, Notice: late}); err != nil {
			t.Fatal(err)
		}
	}
	if got.Status != pixauto.StatusExpired || got.FirstPaymentID != activities.InstructionID(a.ID, -1) {
		t.Fatalf("after the late consent %+v; want EXPIRED with its first payment", got)
	}
	first := f.get(got.FirstPaymentID, domain.TypePixAutomatic)
	f.wantEqual("first payment", []any{first.Status, first.Amount, *first.EndToEndID}, []any{pixauto.InstructionPaid, money.Cents(1000), late.EndToEndID})
	f.wantEqual("postings", f.postings(first.ID), []string{"pix-automatic:" + first.ID + ":settle"})
	f.wantEqual("first payment moves", f.moves("pix-automatic:"+first.ID+":settle"),
		map[string]money.Cents{domain.LedgerPixClearing: -1000, domain.AvailableLedger(f.merchant.ID): 950, domain.LedgerFees: 50})
}
