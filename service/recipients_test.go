package service_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// A recipient found by e-mail is kept, and dropped as soon as any account
// changes (the generation the accounts' NOTIFY moves): a transfer to an
// e-mail the account no longer has is refused, never sent to the account
// that had it.
func TestInternalRecipientsFollowAccountChanges(t *testing.T) {
	from, to := newAccount(t, "Loja Origem"), newAccount(t, "Loja Destino")
	fund(t, from.ID, 1000)
	s := &service.Internal{DB: sharedDB, PublicURL: "https://api.jangada.test", RecipientTTL: time.Hour}
	send := func(email string) (domain.Transaction, error) {
		return s.Create(t.Context(), from, domain.APIKey{ID: "k"}, domain.NewInternal{Amount: 10, RecipientEmail: email, Description: "x"})
	}
	for range 2 {
		if out, err := send(to.Email); err != nil || out.Details.V.CounterpartyID != to.ID {
			t.Fatalf("transfer: %+v %v", out.Details.V, err)
		}
	}
	if _, err := sharedDB.ExecContext(t.Context(), `UPDATE accounts SET email = 'moved-' || email WHERE id = $1`, to.ID); err != nil {
		t.Fatal(err)
	}
	db.AuthChanged() // what the accounts' NOTIFY does in every API process
	if _, err := send(to.Email); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("a transfer to the e-mail the account left: %v", err)
	}
	if out, err := send("moved-" + to.Email); err != nil || out.Details.V.CounterpartyID != to.ID {
		t.Fatalf("a transfer to the account's new e-mail: %+v %v", out.Details.V, err)
	}
}
