package domain

import (
	"strings"

	"github.com/jangada/jangada/money"
)

// InternalRequest is the body of POST /transfer-internal/create.
type InternalRequest struct {
	Amount            *money.Cents `json:"amount" jsonschema:"required"`
	RecipientEmail    *string      `json:"recipientEmail" jsonschema:"required,format=email"`
	Description       *string      `json:"description" jsonschema:"maxLength=140"`
	ExternalReference *string      `json:"externalReference"`
}

// MinInternal is the minimum internal transfer: R$ 0.01. The spec states
// both 1.00 and 0.01; internal transfers cost nothing and the ledger is exact
// to the centavo, so a higher floor would protect nothing (see README).
const MinInternal = money.Cents(1)

// NewInternal is a validated internal transfer request.
type NewInternal struct {
	// IdempotencyKey is the request's Idempotency-Key (scoped by its API
	// key), set by the handler: the transfer's id is derived from it, so
	// that a retry whose answer was lost finds the transfer it made.
	IdempotencyKey    string
	Amount            money.Cents
	RecipientEmail    string
	Description       string
	ExternalReference *string
}

// Validate checks the request against the rules of an internal transfer.
func (b InternalRequest) Validate() (NewInternal, error) {
	var n NewInternal
	var err error
	if n.Amount, err = Amount("amount", b.Amount, MinInternal, MaxTransfer); err != nil {
		return n, err
	}
	if n.RecipientEmail, err = Email("recipientEmail", b.RecipientEmail); err != nil {
		return n, err
	}
	n.RecipientEmail = strings.ToLower(n.RecipientEmail)
	if n.Description, err = Text("description", b.Description, 0, 140, false); err != nil {
		return n, err
	}
	if n.ExternalReference, err = OptionalText("externalReference", b.ExternalReference, 1, 120); err != nil {
		return n, err
	}
	return n, nil
}

var _ = RegisterView(func(t Transaction, p *PublicTransaction) {
	d := t.Details.V
	p.TransferKind = "internal"
	p.RecipientEmail, p.RecipientName, p.CounterpartyName, p.PairID = d.RecipientEmail, d.RecipientName, d.CounterpartyName, d.PairID
}, TypeInternalOut, TypeInternalIn)
