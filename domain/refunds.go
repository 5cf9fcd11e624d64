package domain

import (
	"slices"
	"strings"

	"github.com/jangada/jangada/money"
)

// RefundRequest is the body of POST /refunds/create.
type RefundRequest struct {
	TransactionID *string      `json:"transactionId"`
	E2EID         *string      `json:"e2eId"`
	RefundID      *string      `json:"refundId" jsonschema:"maxLength=35"`
	Amount        *money.Cents `json:"amount" jsonschema:"required,description=the deposit's gross amount"`
	Nature        *string      `json:"nature"`
	Description   *string      `json:"description" jsonschema:"maxLength=140"`
	SubaccountID  *string      `json:"subaccountId"`
}

// RefundNatures are the natures a requested PIX refund (devolução) may have.
var RefundNatures = []string{"ORIGINAL", "RETIRADA"}

// Enums are the request's closed sets (Validate reads nature in any case).
func (RefundRequest) Enums() map[string]Enum {
	return map[string]Enum{"nature": Folded(RefundNatures...)}
}

// NewRefund is a validated refund request.
type NewRefund struct {
	// IdempotencyKey is the request's Idempotency-Key header, set by the
	// handler: the resource's id is derived from it, so that a retry after
	// an ambiguous failure converges on the first attempt's resource.
	IdempotencyKey string
	DepositRef     string // transactionId or e2eId
	RefundID       string
	Amount         money.Cents
	Nature         string
	Description    string
	// SubaccountID, when sent, must be the sub-account the deposit credited.
	SubaccountID string
}

// Validate checks the request against the rules of a refund.
func (b RefundRequest) Validate() (NewRefund, error) {
	var n NewRefund
	switch {
	case b.TransactionID != nil && strings.TrimSpace(*b.TransactionID) != "":
		n.DepositRef = strings.TrimSpace(*b.TransactionID)
	case b.E2EID != nil && strings.TrimSpace(*b.E2EID) != "":
		n.DepositRef = strings.TrimSpace(*b.E2EID)
	default:
		return n, Invalid("transactionId", "or e2eId is required")
	}
	if b.SubaccountID != nil {
		id, err := Text("subaccountId", b.SubaccountID, 1, 64, true)
		if err != nil {
			return n, err
		}
		n.SubaccountID = id
	}
	if b.Amount == nil {
		return n, Invalid("amount", "is required and must equal the deposit's gross amount")
	}
	n.Amount = *b.Amount
	if b.RefundID != nil {
		id, err := Text("refundId", b.RefundID, 1, 35, false)
		if err != nil {
			return n, err
		}
		n.RefundID = id
	}
	n.Nature = "ORIGINAL"
	if b.Nature != nil {
		n.Nature = strings.ToUpper(strings.TrimSpace(*b.Nature))
		if !slices.Contains(RefundNatures, n.Nature) {
			return n, Invalid("nature", "must be ORIGINAL or RETIRADA (the natures a requested PIX refund may have)")
		}
	}
	desc, err := Text("description", b.Description, 0, 140, false)
	n.Description = desc
	return n, err
}
