package billing

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Billing statuses.
const (
	BillingPending           = "PENDING"
	BillingConfirmed         = "CONFIRMED"
	BillingReceived          = "RECEIVED"
	BillingOverdue           = "OVERDUE"
	BillingCanceled          = "CANCELED"
	BillingRefunded          = "REFUNDED"
	BillingPartiallyRefunded = "PARTIALLY_REFUNDED"
	BillingFailed            = "FAILED"
)

// BillingStatuses lists the statuses in the order of the spec's table, and
// billingLabels is that table.
var (
	BillingStatuses = []string{BillingPending, BillingConfirmed, BillingReceived, BillingOverdue, BillingCanceled,
		BillingRefunded, BillingPartiallyRefunded, BillingFailed}
	billingLabels = map[string]string{
		BillingPending: "Pendente", BillingConfirmed: "Confirmado", BillingReceived: "Pago", BillingOverdue: "Vencido",
		BillingCanceled: "Cancelado", BillingRefunded: "Estornado", BillingPartiallyRefunded: "Estornado parcial", BillingFailed: "Falhou",
	}
)

// BillingStatusLabel is the spec's statusLabel of a status.
func BillingStatusLabel(status string) string { return billingLabels[status] }

// BillingPaid reports whether a billing in status has been paid (its money
// was credited; a refund may take it back).
func BillingPaid(status string) bool {
	return status == BillingConfirmed || status == BillingReceived || status == BillingPartiallyRefunded
}

// Billing limits.
const (
	MinBilling         = money.Cents(1)           // R$ 0.01
	MaxBilling         = money.Cents(100_000_000) // R$ 1,000,000.00, as a PIX charge
	MaxInstallments    = 21
	DefaultDueInDays   = 3
	maxBillingDescText = 500
)

// DueEnd is the instant a due date (YYYY-MM-DD) ends in America/Sao_Paulo:
// a billing unpaid then is OVERDUE.
func DueEnd(dueDate time.Time) time.Time {
	return time.Date(dueDate.Year(), dueDate.Month(), dueDate.Day()+1, 0, 0, 0, 0, domain.SaoPaulo)
}

// CardField is a card field sent as a JSON string or number ("05" or 5).
type CardField string

// UnmarshalJSON implements json.Unmarshaler.
func (f *CardField) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = CardField(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*f = CardField(n.String())
	return nil
}

// BillingCustomerRequest is a billing's or a tokenization's customer. The
// customer sent is the customer billed: an id alone bills the store's
// customer as it is; a name and a taxId are billed as sent, linked to the
// store's customer the id names or, without one, to the account's store
// customer with that taxId (made when there is none, never changed).
type BillingCustomerRequest struct {
	ID    *string `json:"id" jsonschema_description:"A store customer's id. Alone: that customer is billed as stored. With name and taxId: the billing is made out to the name and taxId sent and linked to this customer."`
	Name  *string `json:"name" jsonschema_description:"The name the billing is made out to. Without an id, the billing is linked to the account's store customer with this taxId (created when there is none; an existing one is never changed, its name included)."`
	TaxID *string `json:"taxId"`
	Email *string `json:"email"`
	Phone *string `json:"phone"`
}

// CreditCardRequest is a card as a payer types it. Its number and CVV are
// never stored, logged nor put in a workflow: the use case tokenizes them.
type CreditCardRequest struct {
	HolderName  *string    `json:"holderName"`
	Number      *string    `json:"number"`
	ExpiryMonth *CardField `json:"expiryMonth"`
	ExpiryYear  *CardField `json:"expiryYear"`
	CCV         *CardField `json:"ccv"`
}

// CardHolderInfoRequest is the card holder's data the processor's
// anti-fraud asks for.
type CardHolderInfoRequest struct {
	Name          *string `json:"name"`
	Email         *string `json:"email"`
	CpfCnpj       *string `json:"cpfCnpj"`
	PostalCode    *string `json:"postalCode"`
	AddressNumber *string `json:"addressNumber"`
	Phone         *string `json:"phone"`
}

// BillingRequest is the body of POST /billings/create.
type BillingRequest struct {
	Method               *string                 `json:"method"`
	BillingType          *string                 `json:"billingType"`
	Amount               *money.Cents            `json:"amount"`
	Customer             *BillingCustomerRequest `json:"customer"`
	Description          *string                 `json:"description"`
	DueDate              *string                 `json:"dueDate"`
	InstallmentCount     *int                    `json:"installmentCount"`
	CardToken            *string                 `json:"cardToken"`
	CreditCard           *CreditCardRequest      `json:"creditCard"`
	CreditCardHolderInfo *CardHolderInfoRequest  `json:"creditCardHolderInfo"`
	RemoteIP             *string                 `json:"remoteIp"`
	ExternalReference    *string                 `json:"externalReference"`
}

// Enums are the request's closed sets: the method, under either name.
func (BillingRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"method": domain.BillingMethodEnum, "billingType": domain.BillingMethodEnum}
}

// BillingCustomer is a billing's customer as it is stored and shown:
// {id, name, taxId} (id is the store's customer).
type BillingCustomer struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	TaxID string  `json:"taxId"`
	Email *string `json:"-"`
	Phone *string `json:"-"`
}

// CardData is a validated card, in memory only between the request and the
// processor's tokenizer. Its number and CVV have no JSON form, and its
// String shows only the brand and the last four digits, so a log line or a
// marshalled value cannot carry them.
type CardData struct {
	HolderName  string `json:"-"`
	Number      string `json:"-"`
	ExpiryMonth int    `json:"-"`
	ExpiryYear  int    `json:"-"`
	CCV         string `json:"-"`
	Brand       string `json:"brand"`
	Last4       string `json:"last4"`
}

// String shows the card without its number or CVV.
func (c CardData) String() string { return c.Brand + " ****" + c.Last4 }

// GoString is String, for %#v.
func (c CardData) GoString() string { return c.String() }

// CardHolderInfo is the validated card holder's data.
type CardHolderInfo struct {
	Name          string `json:"name"`
	Email         string `json:"email"`
	CpfCnpj       string `json:"cpfCnpj"`
	PostalCode    string `json:"postalCode"`
	AddressNumber string `json:"addressNumber"`
	Phone         string `json:"phone"`
}

// NewBilling is a validated billing request.
type NewBilling struct {
	// IdempotencyKey names the billing (newID): a retry, or a
	// subscription's cycle asked again, finds the billing made first.
	IdempotencyKey    string
	Method            string
	Amount            money.Cents
	Customer          BillingCustomer
	Description       string
	DueDate           time.Time
	InstallmentCount  int
	CardToken         string
	Card              *CardData
	HolderInfo        *CardHolderInfo
	RemoteIP          string
	ExternalReference *string
	// SubscriptionID is set by the subscription that made the billing.
	SubscriptionID string
}

// Validate checks the request against the rules of a billing, today's date
// taken from the clock.
func (b BillingRequest) Validate() (NewBilling, error) { return b.ValidateAt(time.Now()) }

// ValidateAt is Validate on the date of now in America/Sao_Paulo.
func (b BillingRequest) ValidateAt(now time.Time) (NewBilling, error) {
	var n NewBilling
	var err error
	field, method := "method", b.Method
	if method == nil && b.BillingType != nil {
		field, method = "billingType", b.BillingType
	}
	if n.Method, err = BillingMethod(field, method); err != nil {
		return n, err
	}
	if n.Amount, err = domain.Amount("amount", b.Amount, MinBilling, MaxBilling); err != nil {
		return n, err
	}
	if b.Customer == nil {
		return n, domain.Invalid("customer", "is required: {name, taxId}")
	}
	if n.Customer, err = b.Customer.validate("customer.", true); err != nil {
		return n, err
	}
	if n.Description, err = domain.Text("description", b.Description, 0, maxBillingDescText, false); err != nil {
		return n, err
	}
	if n.DueDate, err = DueDateAt("dueDate", b.DueDate, now); err != nil {
		return n, err
	}
	if n.ExternalReference, err = domain.OptionalText("externalReference", b.ExternalReference, 1, 100); err != nil {
		return n, err
	}
	n.InstallmentCount = 1
	if b.InstallmentCount != nil {
		if n.Method != domain.MethodCardCredit {
			return n, domain.Invalid("installmentCount", "is only for CARD_CREDIT")
		}
		if *b.InstallmentCount < 1 || *b.InstallmentCount > MaxInstallments {
			return n, domain.Invalid("installmentCount", "must be an integer from 1 to %d", MaxInstallments)
		}
		n.InstallmentCount = *b.InstallmentCount
	}
	if b.RemoteIP != nil {
		if n.RemoteIP, err = remoteIP(*b.RemoteIP); err != nil {
			return n, err
		}
	}
	if err := b.cardFields(&n, now); err != nil {
		return n, err
	}
	return n, nil
}

// cardFields checks the card data against the method: CARD_CREDIT and
// CARD_VOUCHER need a token or a card; the others take none.
func (b BillingRequest) cardFields(n *NewBilling, now time.Time) error {
	takesCard := n.Method == domain.MethodCardCredit || n.Method == domain.MethodCardVoucher
	if !takesCard {
		for name, sent := range map[string]bool{"creditCard": b.CreditCard != nil, "cardToken": b.CardToken != nil,
			"creditCardHolderInfo": b.CreditCardHolderInfo != nil} {
			if sent {
				if n.Method == domain.MethodCardDebit {
					return domain.Invalid(name, "must not be sent with CARD_DEBIT: the payer pays on the billing's invoiceUrl")
				}
				return domain.Invalid(name, "is only for CARD_CREDIT and CARD_VOUCHER")
			}
		}
		return nil
	}
	switch {
	case b.CardToken != nil && b.CreditCard != nil:
		return domain.Invalid("cardToken", "must not be sent with creditCard: send one of them")
	case b.CardToken != nil:
		tok, err := domain.Text("cardToken", b.CardToken, 1, 100, true)
		if err != nil {
			return err
		}
		n.CardToken = tok
	case b.CreditCard != nil:
		c, err := b.CreditCard.Validate("creditCard.", now)
		if err != nil {
			return err
		}
		n.Card = &c
	default:
		return domain.Invalid("creditCard", "or cardToken is required for %s", n.Method)
	}
	if b.CreditCardHolderInfo != nil {
		h, err := b.CreditCardHolderInfo.validate("creditCardHolderInfo.")
		if err != nil {
			return err
		}
		n.HolderInfo = &h
	}
	return nil
}

// BillingMethod requires one of the five billing methods.
func BillingMethod(field string, v *string) (string, error) {
	if v == nil {
		return "", domain.Invalid(field, "is required: one of %s", strings.Join(domain.BillingMethods, ", "))
	}
	if m, ok := domain.BillingMethodEnum.Match(*v); ok {
		return m, nil
	}
	return "", domain.Invalid(field, "must be one of %s", strings.Join(domain.BillingMethods, ", "))
}

// DueDateAt reads a YYYY-MM-DD due date not before today in
// America/Sao_Paulo (absent: today + 3 days).
func DueDateAt(field string, v *string, now time.Time) (time.Time, error) {
	today := domain.Today(now)
	if v == nil {
		return today.AddDate(0, 0, DefaultDueInDays), nil
	}
	s := strings.TrimSpace(*v)
	d, err := time.Parse(time.DateOnly, s)
	if err != nil || len(s) != len(time.DateOnly) {
		return time.Time{}, domain.Invalid(field, "must be a date YYYY-MM-DD")
	}
	if d.Before(today) {
		return time.Time{}, domain.Invalid(field, "must not be in the past (today is %s in America/Sao_Paulo)", today.Format(time.DateOnly))
	}
	if d.After(today.AddDate(10, 0, 0)) {
		return time.Time{}, domain.Invalid(field, "must be within ten years")
	}
	return d, nil
}

func (c BillingCustomerRequest) validate(prefix string, allowIDOnly bool) (BillingCustomer, error) {
	var out BillingCustomer
	var err error
	if c.ID != nil {
		if out.ID, err = domain.Text(prefix+"id", c.ID, 1, 64, true); err != nil {
			return out, err
		}
		if allowIDOnly && c.Name == nil && c.TaxID == nil {
			return out, nil // a store customer: its name and taxId are the store's
		}
	}
	if out.Name, err = domain.Text(prefix+"name", c.Name, 1, 120, true); err != nil {
		return out, err
	}
	if out.TaxID, err = domain.TaxID(prefix+"taxId", c.TaxID); err != nil {
		return out, err
	}
	if c.Email != nil {
		e, err := domain.Email(prefix+"email", c.Email)
		if err != nil {
			return out, err
		}
		out.Email = &e
	}
	if out.Phone, err = phone(prefix+"phone", c.Phone, false); err != nil {
		return out, err
	}
	return out, nil
}

// BillingRefundRequest is the body of POST /billings/refund.
type BillingRefundRequest struct {
	ID          *string      `json:"id"`
	Amount      *money.Cents `json:"amount"`
	Description *string      `json:"description"`
}

// NewBillingRefund is a validated refund: Amount 0 refunds what is left.
type NewBillingRefund struct {
	IdempotencyKey string
	ID             string
	Amount         money.Cents
	Description    string
}

// Validate checks the request against the rules of a billing refund.
func (b BillingRefundRequest) Validate() (NewBillingRefund, error) {
	var n NewBillingRefund
	var err error
	if n.ID, err = domain.Text("id", b.ID, 1, 100, true); err != nil {
		return n, err
	}
	if b.Amount != nil {
		if n.Amount, err = domain.Amount("amount", b.Amount, MinBilling, MaxBilling); err != nil {
			return n, err
		}
	}
	n.Description, err = domain.Text("description", b.Description, 0, 180, false)
	return n, err
}

func digitsOnly(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
