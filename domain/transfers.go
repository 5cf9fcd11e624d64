package domain

import (
	"errors"
	"regexp"
	"strings"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/pixkey"
)

// TransferRequest is the body of POST /transfer-pix/create (and /payouts/create).
type TransferRequest struct {
	Amount            *money.Cents `json:"amount" jsonschema:"minimum=0.01,description=required unless pixCopyPaste is a BR Code that carries the amount (when both are sent they must be equal)"`
	Description       *string      `json:"description" jsonschema:"maxLength=140"`
	PixKey            *string      `json:"pixKey"`
	PixKeyType        *string      `json:"pixKeyType" jsonschema:"description=required with pixKey"`
	PixCopyPaste      *string      `json:"pixCopyPaste" jsonschema:"description=a BR Code to pay instead of pixKey"`
	CoverFee          *bool        `json:"coverFee"`
	SubaccountID      *string      `json:"subaccountId"`
	ExternalReference *string      `json:"externalReference"`
	// PixRail is read only to be refused: the rail comes from the API key.
	// It is no field of the document's (a client must not send it).
	PixRail any `json:"pixRail" jsonschema:"-"`
}

// PixKeyTypes are the pixKeyType values (pixkey.Types), read in any case.
var PixKeyTypes = Folded(pixkey.Names()...)

// Enums are the request's closed sets.
func (TransferRequest) Enums() map[string]Enum { return map[string]Enum{"pixKeyType": PixKeyTypes} }

// MaxTransfer is the most one PIX out (or internal transfer) may move: R$ 1,000,000.00.
const MaxTransfer = money.Cents(100_000_000)

// NewTransfer is a validated PIX out request.
type NewTransfer struct {
	// IdempotencyKey is the request's Idempotency-Key header, set by the
	// handler: the resource's id is derived from it, so that a retry after
	// an ambiguous failure converges on the first attempt's resource.
	IdempotencyKey    string
	Amount            money.Cents
	Description       string
	PixKey            string
	PixKeyType        string
	CoverFee          bool
	ExternalReference *string
	// SubaccountID debits the PIX out from that sub-account ("" for none).
	SubaccountID string
}

// Validate checks the request against the rules of a PIX out: a PIX key
// (or a BR Code carrying one) and an amount the code agrees with.
func (b TransferRequest) Validate() (NewTransfer, error) {
	var n NewTransfer
	if b.PixRail != nil {
		return n, Invalid("pixRail", "must not be sent: the rail comes from the API key")
	}
	switch {
	case b.PixCopyPaste != nil && b.PixKey != nil:
		return n, Invalidf("send either pixKey with pixKeyType or pixCopyPaste, not both")
	case b.PixCopyPaste != nil:
		p, err := brcode.Parse(strings.TrimSpace(*b.PixCopyPaste))
		if err != nil {
			return n, Invalid("pixCopyPaste", "is not a valid BR Code: %v", err)
		}
		if p.Key == "" {
			return n, Invalid("pixCopyPaste", "carries no PIX key (location-URL codes are not supported)")
		}
		if p.Amount > 0 {
			if b.Amount != nil && *b.Amount != p.Amount {
				return n, Invalid("amount", "must equal the BR Code's amount of %s", p.Amount)
			}
			b.Amount = &p.Amount
		}
		typ := inferKeyType(p.Key)
		key, err := pixkey.Normalize(typ, p.Key)
		if err != nil {
			return n, Invalid("pixCopyPaste", "carries an invalid PIX key: %v", err)
		}
		n.PixKey, n.PixKeyType = key, string(typ)
	case b.PixKey != nil:
		if b.PixKeyType == nil {
			return n, Invalid("pixKeyType", "is required with pixKey (%s)", PixKeyTypes)
		}
		key, err := pixkey.Normalize(pixkey.Type(strings.ToUpper(*b.PixKeyType)), *b.PixKey)
		if errors.Is(err, pixkey.ErrUnknownType) {
			return n, Invalid("pixKeyType", "must be one of %s", strings.Join(PixKeyTypes.Values, ", "))
		}
		if err != nil {
			return n, Invalid("pixKey", "is not a valid %s key", strings.ToUpper(*b.PixKeyType))
		}
		n.PixKey, n.PixKeyType = key, strings.ToUpper(*b.PixKeyType)
	default:
		return n, Invalid("pixKey", "or pixCopyPaste is required")
	}
	var err error
	if n.Amount, err = Amount("amount", b.Amount, 1, MaxTransfer); err != nil {
		return n, err
	}
	desc, err := Text("description", b.Description, 0, 140, false)
	if err != nil {
		return n, err
	}
	n.Description = desc
	n.CoverFee = b.CoverFee == nil || *b.CoverFee
	if n.ExternalReference, err = OptionalText("externalReference", b.ExternalReference, 1, 120); err != nil {
		return n, err
	}
	if b.SubaccountID != nil {
		if n.SubaccountID, err = Text("subaccountId", b.SubaccountID, 1, 64, true); err != nil {
			return n, err
		}
	}
	return n, nil
}

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$`)

// inferKeyType recognises the type of a key found in a BR Code.
func inferKeyType(key string) pixkey.Type {
	switch {
	case strings.Contains(key, "@"):
		return pixkey.EMAIL
	case strings.HasPrefix(key, "+"):
		return pixkey.TELEFONE
	case uuidPattern.MatchString(key):
		return pixkey.CHAVE_ALEATORIA
	case len(document.Digits(key)) == 14:
		return pixkey.CNPJ
	}
	return pixkey.CPF
}

// Review decisions an operator gives a PIX out held for security review.
const (
	DecisionApprove = "approve"
	DecisionReject  = "reject"
)

// ReviewRequest is the body of the admin review route.
type ReviewRequest struct {
	Decision *string `json:"decision" jsonschema:"required"`
}

// Decisions are the review's decisions, matched exactly.
var Decisions = Exact(DecisionApprove, DecisionReject)

// Enums are the request's closed sets.
func (ReviewRequest) Enums() map[string]Enum { return map[string]Enum{"decision": Decisions} }

// Validate requires one of the two decisions.
func (b ReviewRequest) Validate() (string, error) {
	if b.Decision == nil || !Decisions.Has(*b.Decision) {
		return "", Invalid("decision", "must be %s", Decisions)
	}
	return *b.Decision, nil
}

// ValidThreshold checks an account's securityReviewThreshold as an operator
// sets it: absent (unchanged) or not negative (zero turns the review off).
func ValidThreshold(th *money.Cents) error {
	if th != nil && *th < 0 {
		return Invalid("securityReviewThreshold", "must not be negative")
	}
	return nil
}
