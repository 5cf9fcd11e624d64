package billing

import (
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jangada/jangada/card"
	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/domain"
)

// Validate checks a card: holder, a number of 13 to 19 digits passing the
// Luhn check, an expiry not past, a CVV of 3 or 4 digits.
func (c CreditCardRequest) Validate(prefix string, now time.Time) (CardData, error) {
	var out CardData
	var err error
	if out.HolderName, err = domain.Text(prefix+"holderName", c.HolderName, 1, 100, true); err != nil {
		return out, err
	}
	if c.Number == nil {
		return out, domain.Invalid(prefix+"number", "is required")
	}
	num := card.Clean(*c.Number)
	if len(num) < 13 || len(num) > 19 || !card.Luhn(num) {
		return out, domain.Invalid(prefix+"number", "is not a valid card number")
	}
	out.Number, out.Brand, out.Last4 = num, card.Brand(num), card.Last4(num)
	if out.ExpiryMonth, err = cardInt(prefix+"expiryMonth", c.ExpiryMonth, 1, 2, 1, 12); err != nil {
		return out, err
	}
	if out.ExpiryYear, err = cardInt(prefix+"expiryYear", c.ExpiryYear, 2, 4, 0, 9999); err != nil {
		return out, err
	}
	if y := out.ExpiryYear; y >= 100 && y < 2000 {
		return out, domain.Invalid(prefix+"expiryYear", "must be a year YYYY or YY")
	}
	if card.Expired(out.ExpiryMonth, out.ExpiryYear, now.In(domain.SaoPaulo)) {
		return out, domain.Invalid(prefix+"expiryYear", "the card has expired")
	}
	if out.ExpiryYear < 100 {
		out.ExpiryYear += 2000
	}
	if c.CCV == nil {
		return out, domain.Invalid(prefix+"ccv", "is required")
	}
	if s := string(*c.CCV); (len(s) != 3 && len(s) != 4) || !digitsOnly(s) {
		return out, domain.Invalid(prefix+"ccv", "must be 3 or 4 digits")
	}
	out.CCV = string(*c.CCV)
	return out, nil
}

func cardInt(field string, v *CardField, minLen, maxLen, lo, hi int) (int, error) {
	if v == nil {
		return 0, domain.Invalid(field, "is required")
	}
	s := strings.TrimSpace(string(*v))
	n, err := strconv.Atoi(s)
	if err != nil || len(s) < minLen || len(s) > maxLen || n < lo || n > hi {
		return 0, domain.Invalid(field, "is not valid")
	}
	return n, nil
}

func (h CardHolderInfoRequest) validate(prefix string) (CardHolderInfo, error) {
	var out CardHolderInfo
	var err error
	if out.Name, err = domain.Text(prefix+"name", h.Name, 1, 120, true); err != nil {
		return out, err
	}
	if out.Email, err = domain.Email(prefix+"email", h.Email); err != nil {
		return out, err
	}
	if out.CpfCnpj, err = domain.TaxID(prefix+"cpfCnpj", h.CpfCnpj); err != nil {
		return out, err
	}
	if h.PostalCode == nil || len(document.Digits(*h.PostalCode)) != 8 {
		return out, domain.Invalid(prefix+"postalCode", "must be a CEP of 8 digits")
	}
	out.PostalCode = document.Digits(*h.PostalCode)
	if out.AddressNumber, err = domain.Text(prefix+"addressNumber", h.AddressNumber, 1, 20, true); err != nil {
		return out, err
	}
	p, err := phone(prefix+"phone", h.Phone, true)
	if err != nil {
		return out, err
	}
	out.Phone = *p
	return out, nil
}

// phone requires a Brazilian phone of 10 or 11 digits (area code included).
func phone(field string, v *string, required bool) (*string, error) {
	if v == nil {
		if required {
			return nil, domain.Invalid(field, "is required")
		}
		return nil, nil
	}
	d := document.Digits(*v)
	if len(d) != 10 && len(d) != 11 {
		return nil, domain.Invalid(field, "must be a phone of 10 or 11 digits with its area code")
	}
	return &d, nil
}

func remoteIP(s string) (string, error) {
	ip := net.ParseIP(strings.TrimSpace(s))
	if ip == nil {
		return "", domain.Invalid("remoteIp", "must be an IP address")
	}
	return ip.String(), nil
}

// TokenizeCardRequest is the body of POST /billings/tokenize-card.
type TokenizeCardRequest struct {
	Customer             *BillingCustomerRequest `json:"customer"`
	CreditCard           *CreditCardRequest      `json:"creditCard"`
	CreditCardHolderInfo *CardHolderInfoRequest  `json:"creditCardHolderInfo"`
	RemoteIP             *string                 `json:"remoteIp"`
}

// NewCardToken is a validated tokenization.
type NewCardToken struct {
	IdempotencyKey string
	Customer       BillingCustomer
	Card           CardData
	HolderInfo     *CardHolderInfo
	RemoteIP       string
}

// Validate checks the request against the rules of a tokenization.
func (b TokenizeCardRequest) Validate() (NewCardToken, error) { return b.ValidateAt(time.Now()) }

// ValidateAt is Validate with the card's expiry checked at now.
func (b TokenizeCardRequest) ValidateAt(now time.Time) (NewCardToken, error) {
	var n NewCardToken
	var err error
	if b.Customer == nil {
		return n, domain.Invalid("customer", "is required: {name, taxId} or {id}")
	}
	if n.Customer, err = b.Customer.validate("customer.", true); err != nil {
		return n, err
	}
	if b.CreditCard == nil {
		return n, domain.Invalid("creditCard", "is required")
	}
	if n.Card, err = b.CreditCard.Validate("creditCard.", now); err != nil {
		return n, err
	}
	if b.CreditCardHolderInfo != nil {
		h, err := b.CreditCardHolderInfo.validate("creditCardHolderInfo.")
		if err != nil {
			return n, err
		}
		n.HolderInfo = &h
	}
	if b.RemoteIP != nil {
		if n.RemoteIP, err = remoteIP(*b.RemoteIP); err != nil {
			return n, err
		}
	}
	return n, nil
}

// NewInvoicePayment is a debit card billing's payment as its payer typed
// it on the hosted invoice page (CreditCardRequest.Validate checked the
// card), with the payer's address for the acquirer's anti-fraud. The card
// lives in memory until the processor's vault tokenizes it.
type NewInvoicePayment struct {
	Card     CardData
	RemoteIP string
}
