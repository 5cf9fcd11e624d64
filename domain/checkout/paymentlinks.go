package checkout

import (
	"slices"
	"strings"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Payment link statuses, payment methods and customer modes (CONTRACTS.md
// "Store").
const (
	LinkActive   = "ACTIVE"
	LinkInactive = "INACTIVE"

	// MethodPix ("PIX") is shared with billings (domain/billings.go).
	MethodCrypto = "CRYPTO"

	CustomerNone     = "NONE"
	CustomerOptional = "OPTIONAL"
	CustomerRequired = "REQUIRED"
)

// The closed sets of links and checkouts, read in any case.
var (
	// Methods are a link's allowedMethods and a checkout's method.
	Methods = domain.Folded(domain.MethodPix, MethodCrypto)
	// CustomerModes are a link's customerMode values.
	CustomerModes = domain.Folded(CustomerNone, CustomerOptional, CustomerRequired)
	// LinkStatuses are a link's status values.
	LinkStatuses = domain.Folded(LinkActive, LinkInactive)
	// linkEnums are a link request's closed sets.
	linkEnums = map[string]domain.Enum{"allowedMethods": Methods, "customerMode": CustomerModes, "status": LinkStatuses}
)

// Enums are the request's closed sets.
func (PaymentLinkRequest) Enums() map[string]domain.Enum { return linkEnums }

// Enums are the update's closed sets (the create's).
func (PaymentLinkUpdate) Enums() map[string]domain.Enum { return linkEnums }

// Enums are the request's closed sets.
func (LinkStatusRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": LinkStatuses}
}

// maxLinkProducts bounds a link's productIds: a page sells a few products,
// and each checkout locks each of them.
const maxLinkProducts = 20

// PaymentLinkRequest is the body of POST /payment-links/create and PATCH
// /payment-links/update/{id}.
type PaymentLinkRequest struct {
	Name           *string      `json:"name"`
	Description    *string      `json:"description"`
	AllowedMethods []string     `json:"allowedMethods"`
	FixedAmount    *money.Cents `json:"fixedAmount"`
	ProductIDs     []string     `json:"productIds"`
	CustomerMode   *string      `json:"customerMode"`
	Status         *string      `json:"status"`
}

// LinkPatch is a validated link create or update: nil fields are left as
// they are (an update) or take their defaults (a create).
type LinkPatch struct {
	// IdempotencyKey (a create's) names the new link: a retry finds it.
	IdempotencyKey string
	Name           *string
	Description    *string
	AllowedMethods []string
	FixedAmount    *money.Cents
	ProductIDs     []string
	CustomerMode   *string
	Status         *string
}

// Validate checks a create: name is required; allowedMethods defaults to
// [PIX], customerMode to NONE, status to ACTIVE; no fixedAmount makes an
// open-value link (the payer types the amount).
func (b PaymentLinkRequest) Validate() (LinkPatch, error) {
	if b.Name == nil {
		return LinkPatch{}, domain.Invalid("name", "is required")
	}
	p, err := b.ValidatePatch()
	if err != nil {
		return p, err
	}
	if p.AllowedMethods == nil {
		p.AllowedMethods = []string{domain.MethodPix}
	}
	if p.CustomerMode == nil {
		mode := CustomerNone
		p.CustomerMode = &mode
	}
	if p.Status == nil {
		st := LinkActive
		p.Status = &st
	}
	if p.Description == nil {
		empty := ""
		p.Description = &empty
	}
	if p.ProductIDs == nil {
		p.ProductIDs = []string{}
	}
	return p, nil
}

// ValidatePatch checks the fields an update sends.
func (b PaymentLinkRequest) ValidatePatch() (LinkPatch, error) {
	var p LinkPatch
	var err error
	if p.Name, err = domain.OptionalText("name", b.Name, 1, 120); err != nil {
		return p, err
	}
	if p.Description, err = domain.OptionalText("description", b.Description, 0, 500); err != nil {
		return p, err
	}
	if b.AllowedMethods != nil {
		if len(b.AllowedMethods) == 0 {
			return p, domain.Invalid("allowedMethods", "must list PIX, CRYPTO or both")
		}
		for _, m := range b.AllowedMethods {
			m, ok := Methods.Match(m)
			if !ok {
				return p, domain.Invalid("allowedMethods", "must list PIX, CRYPTO or both")
			}
			if !slices.Contains(p.AllowedMethods, m) {
				p.AllowedMethods = append(p.AllowedMethods, m)
			}
		}
	}
	if b.FixedAmount != nil {
		v, err := domain.Amount("fixedAmount", b.FixedAmount, domain.MinCharge, domain.MaxCharge)
		if err != nil {
			return p, err
		}
		p.FixedAmount = &v
	}
	if b.ProductIDs != nil {
		if len(b.ProductIDs) > maxLinkProducts {
			return p, domain.Invalid("productIds", "must list at most %d products", maxLinkProducts)
		}
		p.ProductIDs = []string{}
		for _, id := range b.ProductIDs {
			id = strings.TrimSpace(id)
			if id == "" || len(id) > 64 {
				return p, domain.Invalid("productIds", "must list product ids")
			}
			if !slices.Contains(p.ProductIDs, id) {
				p.ProductIDs = append(p.ProductIDs, id)
			}
		}
	}
	if b.CustomerMode != nil {
		m, ok := CustomerModes.Match(*b.CustomerMode)
		if !ok {
			return p, domain.Invalid("customerMode", "must be %s", CustomerModes)
		}
		p.CustomerMode = &m
	}
	if b.Status != nil {
		st, err := linkStatus(*b.Status)
		if err != nil {
			return p, err
		}
		p.Status = &st
	}
	return p, nil
}

// PaymentLinkUpdate is the body of PATCH /payment-links/update/{id}: the
// create's fields, each optional.
type PaymentLinkUpdate PaymentLinkRequest

// Validate checks the fields sent.
func (b PaymentLinkUpdate) Validate() (LinkPatch, error) {
	return PaymentLinkRequest(b).ValidatePatch()
}

// LinkStatusRequest is the body of PATCH /payment-links/status/{id}.
type LinkStatusRequest struct {
	Status *string `json:"status"`
}

// Validate requires ACTIVE or INACTIVE.
func (b LinkStatusRequest) Validate() (string, error) {
	if b.Status == nil {
		return "", domain.Invalid("status", "is required")
	}
	return linkStatus(*b.Status)
}

func linkStatus(s string) (string, error) {
	s, ok := LinkStatuses.Match(s)
	if !ok {
		return "", domain.Invalid("status", "must be %s", LinkStatuses)
	}
	return s, nil
}

// PayPageURL is the absolute address of a link's hosted pay page.
func PayPageURL(publicURL, linkID string) string {
	return strings.TrimRight(publicURL, "/") + "/pay/" + linkID
}

// CheckoutPageURL is the absolute address of a session's hosted page.
func CheckoutPageURL(publicURL, sessionID string) string {
	return strings.TrimRight(publicURL, "/") + "/pay/session/" + sessionID
}
