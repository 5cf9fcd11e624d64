package subaccount

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// MoveRequest is the body of add-balance and remove-balance: id is the
// sub-account; externalReference is the idempotency key of the move.
type MoveRequest struct {
	ID                *string      `json:"id"`
	Amount            *money.Cents `json:"amount"`
	Description       *string      `json:"description"`
	ExternalReference *string      `json:"externalReference"`
}

// Move is a validated move between the main account and a sub-account, or
// (From and To both set) between two sub-accounts.
type Move struct {
	From, To          string
	Amount            money.Cents
	Description       string
	ExternalReference string
}

func (m *Move) common(amount *money.Cents, description, ref *string) error {
	var err error
	if m.Amount, err = domain.Amount("amount", amount, 1, domain.MaxTransfer); err != nil {
		return err
	}
	if m.Description, err = domain.Text("description", description, 0, 140, false); err != nil {
		return err
	}
	m.ExternalReference, err = domain.Text("externalReference", ref, 1, 64, true)
	return err
}

// Validate checks an add-balance or remove-balance; the use case puts the
// sub-account on the right side.
func (b MoveRequest) Validate() (Move, error) {
	var m Move
	var err error
	if m.To, err = ID("id", b.ID); err != nil {
		return m, err
	}
	m.From = m.To
	return m, m.common(b.Amount, b.Description, b.ExternalReference)
}

// TransferRequest is the body of POST /subaccount/transfer.
type TransferRequest struct {
	FromSubaccountID  *string      `json:"fromSubaccountId"`
	ToSubaccountID    *string      `json:"toSubaccountId"`
	Amount            *money.Cents `json:"amount"`
	Description       *string      `json:"description"`
	ExternalReference *string      `json:"externalReference"`
}

// Validate checks a transfer between two distinct sub-accounts.
func (b TransferRequest) Validate() (Move, error) {
	var m Move
	var err error
	if m.From, err = ID("fromSubaccountId", b.FromSubaccountID); err != nil {
		return m, err
	}
	if m.To, err = ID("toSubaccountId", b.ToSubaccountID); err != nil {
		return m, err
	}
	if m.From == m.To {
		return m, domain.Invalid("toSubaccountId", "must differ from fromSubaccountId")
	}
	return m, m.common(b.Amount, b.Description, b.ExternalReference)
}
