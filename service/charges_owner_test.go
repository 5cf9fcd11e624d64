package service_test

import (
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// Another product makes an ordinary charge for one of its resources
// through the charge use case: the owner is stored on the charge (its
// transitions tell that product) and shown to nobody.
func TestCreateOwnedChargeStoresItsOwner(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Dona")
	r := newChargeRig(t)
	r.expectNewCharge()
	r.temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).Times(1)
	owner := domain.ChargeOwner{Kind: "billing", ID: domain.NewID("bil")}
	created, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, chargeWith(func(n *domain.NewCharge) { n.Owner = &owner }))
	if err != nil {
		t.Fatal(err)
	}
	r.charges.Starts.Wait()
	stored, err := db.TransactionByID(t.Context(), sharedDB, created.Charge.ID, domain.TypePixIn)
	if err != nil {
		t.Fatal(err)
	}
	if got := stored.Details.V.Owner; got == nil || *got != owner {
		t.Fatalf("stored owner = %+v, want %+v", got, owner)
	}
	evs, err := db.EventsFor(t.Context(), sharedDB, stored.ID)
	if err != nil || len(evs) != 1 {
		t.Fatalf("events = %+v, %v", evs, err)
	}
	if strings.Contains(string(evs[0].Data), owner.ID) {
		t.Errorf("payment.created shows the owner: %s", evs[0].Data)
	}
}
