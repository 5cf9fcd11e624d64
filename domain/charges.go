package domain

import (
	"strings"
	"time"

	"github.com/jangada/jangada/money"
)

// PayerRequest is a payer as a request names it.
type PayerRequest struct {
	Name     *string `json:"name"`
	Document *string `json:"document"`
}

// ChargeRequest is the body of POST /payment-pix/create.
type ChargeRequest struct {
	Amount            *money.Cents   `json:"amount" jsonschema:"required,minimum=1,maximum=1000000"`
	Description       *string        `json:"description" jsonschema:"required,minLength=3,maxLength=180"`
	CoverFee          *bool          `json:"coverFee"`
	EmitFiscalInvoice *bool          `json:"emitFiscalInvoice"`
	ExpirationSeconds *int64         `json:"expirationSeconds" jsonschema:"minimum=60,maximum=604800,default=86400"`
	Payer             *PayerRequest  `json:"payer"`
	PayerName         *string        `json:"payerName"`
	PayerDocument     *string        `json:"payerDocument"`
	ExternalReference *string        `json:"externalReference"`
	SplitUser         *string        `json:"splitUser"`
	SplitTax          *money.Percent `json:"splitTax"`
	SubaccountID      *string        `json:"subaccountId"`
	// PixRail is read only to be refused: the rail comes from the API key.
	// It is no field of the document's (a client must not send it).
	PixRail any `json:"pixRail" jsonschema:"-"`
}

// NewCharge is a validated charge request.
type NewCharge struct {
	// IdempotencyKey is the request's Idempotency-Key header, set by the
	// handler: the resource's id is derived from it, so that a retry after
	// an ambiguous failure converges on the first attempt's resource.
	IdempotencyKey    string
	Amount            money.Cents
	Description       string
	CoverFee          bool
	EmitFiscalInvoice bool
	ExpiresIn         time.Duration
	Payer             *Party
	ExternalReference *string
	SplitUser         string
	SplitTax          money.Percent
	SubaccountID      string
	// Owner is set by another product's use case that makes an ordinary
	// charge for one of its resources (never by the HTTP body): the
	// charge's transitions then tell that product (activities.RegisterChargeOwner).
	Owner *ChargeOwner
	// OwnerIsNew is set by the owner's use case when this very request
	// made the owner's resource under a fresh random id (it carried no
	// Idempotency-Key): no earlier attempt of the charge can exist, so the
	// lookup of one is skipped (the insert still finds a row that exists).
	OwnerIsNew bool
}

// Charge limits.
const (
	MinCharge = money.Cents(100)         // R$ 1.00
	MaxCharge = money.Cents(100_000_000) // R$ 1,000,000.00
)

// Validate checks the request against the rules of a charge.
func (b ChargeRequest) Validate() (NewCharge, error) {
	var n NewCharge
	if b.PixRail != nil {
		return n, Invalid("pixRail", "must not be sent: the rail comes from the API key")
	}
	var err error
	if n.Amount, err = Amount("amount", b.Amount, MinCharge, MaxCharge); err != nil {
		return n, err
	}
	desc, err := Text("description", b.Description, 3, 180, true)
	if err != nil {
		return n, err
	}
	n.Description = desc
	n.CoverFee = b.CoverFee != nil && *b.CoverFee
	n.EmitFiscalInvoice = b.EmitFiscalInvoice != nil && *b.EmitFiscalInvoice
	exp := int64(86400)
	if b.ExpirationSeconds != nil {
		exp = *b.ExpirationSeconds
	}
	if exp < 60 || exp > 604800 {
		return n, Invalid("expirationSeconds", "must be an integer from 60 to 604800")
	}
	n.ExpiresIn = time.Duration(exp) * time.Second
	if n.Payer, err = payer(b); err != nil {
		return n, err
	}
	if n.ExternalReference, err = OptionalText("externalReference", b.ExternalReference, 1, 120); err != nil {
		return n, err
	}
	if b.SplitUser != nil {
		n.SplitUser = strings.TrimSpace(*b.SplitUser)
	}
	if b.SplitTax != nil {
		if *b.SplitTax < 1 || *b.SplitTax > money.OneHundredPercent {
			return n, Invalid("splitTax", "must be between 0.01 and 100")
		}
		n.SplitTax = *b.SplitTax
	}
	if b.SubaccountID != nil {
		n.SubaccountID = strings.TrimSpace(*b.SubaccountID)
	}
	return n, nil
}

// payer accepts the payer as an object {name, document} or as the flat
// payerName and payerDocument fields.
func payer(b ChargeRequest) (*Party, error) {
	name, doc := b.PayerName, b.PayerDocument
	if b.Payer != nil {
		name, doc = b.Payer.Name, b.Payer.Document
	}
	return PayerOf(name, doc)
}

// PayerOf validates a payer's name and document, either of which may be
// absent (both absent: no payer).
func PayerOf(name, doc *string) (*Party, error) {
	if name == nil && doc == nil {
		return nil, nil
	}
	p := &Party{}
	if name != nil {
		v, err := Text("payer.name", name, 1, 120, false)
		if err != nil {
			return nil, err
		}
		p.Name = v
	}
	if doc != nil {
		d, err := TaxID("payer.document", doc)
		if err != nil {
			return nil, err
		}
		p.Document = d
	}
	return p, nil
}
