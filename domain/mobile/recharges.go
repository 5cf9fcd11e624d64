package mobile

import (
	"slices"
	"strings"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// RechargeRequest is the body of POST /mobile-recharge/create.
type RechargeRequest struct {
	Phone             *string      `json:"phone"`
	Amount            *money.Cents `json:"amount"`
	ExternalReference *string      `json:"externalReference"`
}

// NewRecharge is a validated recharge request. Whether the amount is one the
// operator offers is the use case's check (the offer comes from the
// processor): OfferedAmount.
type NewRecharge struct {
	// IdempotencyKey is the request's scoped Idempotency-Key (see NewTransfer).
	IdempotencyKey    string
	Phone             MobileNumber
	Amount            money.Cents
	ExternalReference *string
}

// Validate checks the phone number and that the amount is positive.
func (b RechargeRequest) Validate() (NewRecharge, error) {
	var n NewRecharge
	if b.Phone == nil {
		return n, domain.Invalid("phone", "is required")
	}
	var err error
	if n.Phone, err = ParseMobileNumber("phone", *b.Phone); err != nil {
		return n, err
	}
	if n.Amount, err = domain.Amount("amount", b.Amount, 1, domain.MaxTransfer); err != nil {
		return n, err
	}
	n.ExternalReference, err = domain.OptionalText("externalReference", b.ExternalReference, 1, 120)
	return n, err
}

// OfferedAmount refuses an amount the operator does not offer for the
// number (400 naming amount and listing the offer).
func OfferedAmount(amount money.Cents, offered []money.Cents) error {
	if slices.Contains(offered, amount) {
		return nil
	}
	list := make([]string, len(offered))
	for i, a := range offered {
		list[i] = a.String()
	}
	return domain.Invalid("amount", "must be one of the amounts offered for this number: %s", strings.Join(list, ", "))
}

// Cancellable says what a cancel of recharge t finds: already (CANCELED:
// a cancel was made, answer the record as it is), or why it can no longer
// be cancelled; only a PENDING recharge may be (false, nil).
func Cancellable(t domain.Transaction) (already bool, err error) {
	switch t.Status {
	case domain.StatusPending:
		return false, nil
	case domain.StatusCanceled:
		return true, nil
	}
	return false, domain.Invalidf("recharge %s is %s: it can no longer be cancelled (canBeCancelled is false)", t.ID, t.Status)
}

// Delivered is the refusal of a cancel the operator's delivery beat.
func Delivered(id string) error {
	return domain.Invalidf("recharge %s was delivered by the operator: it can no longer be cancelled (canBeCancelled is false)", id)
}

// CanBeCancelled reports whether a recharge may still be cancelled: only
// while the operator has not delivered it (PENDING).
func CanBeCancelled(t domain.Transaction) bool {
	return t.Type == domain.TypeMobileRecharge && t.Status == domain.StatusPending
}

var _ = domain.RegisterView(func(t domain.Transaction, p *domain.PublicTransaction) {
	if r := t.Details.V.Recharge; r != nil {
		can := CanBeCancelled(t)
		p.Phone, p.Operator, p.CanBeCancelled = r.Phone, r.Operator, &can
	}
}, domain.TypeMobileRecharge)
