package billing

import (
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Billing is a billing as stored (table billings). Its JSON form is never
// sent out: Public is.
type Billing struct {
	ID                   string                        `db:"id"`
	AccountID            string                        `db:"account_id"`
	APIKeyID             *string                       `db:"api_key_id"`
	Method               string                        `db:"method"`
	Status               string                        `db:"status"`
	Amount               money.Cents                   `db:"amount"`
	FeeAmount            money.Cents                   `db:"fee_amount"`
	NotificationFee      money.Cents                   `db:"notification_fee_amount"`
	NetAmount            money.Cents                   `db:"net_amount"`
	RefundedAmount       money.Cents                   `db:"refunded_amount"`
	InstallmentCount     int                           `db:"installment_count"`
	Description          string                        `db:"description"`
	DueDate              time.Time                     `db:"due_date"`
	PaidAt               *domain.Time                  `db:"paid_at"`
	EstimatedCreditDate  *time.Time                    `db:"estimated_credit_date"`
	ExternalID           *string                       `db:"external_id"`
	ExternalReference    *string                       `db:"external_reference"`
	AccountTransactionID *string                       `db:"account_transaction_id"`
	CustomerID           *string                       `db:"customer_id"`
	SubscriptionID       *string                       `db:"subscription_id"`
	ChargeID             *string                       `db:"charge_id"`
	PageToken            string                        `db:"page_token"`
	Customer             domain.JSONB[BillingCustomer] `db:"customer"`
	Details              domain.JSONB[BillingDetails]  `db:"details"`
	CreatedAt            domain.Time                   `db:"created_at"`
	UpdatedAt            domain.Time                   `db:"updated_at"`
}

// Referenced is the billing as its workflow carries it: references, never
// its customer's name, taxId, e-mail or phone, nor its description (the
// merchant's free text), which stay in PostgreSQL for the steps that need
// them.
func (b Billing) Referenced() Billing {
	b.Customer = domain.JSONB[BillingCustomer]{}
	b.Description = ""
	return b
}

// BillingDetails are a billing's method-specific extras, stored as JSON.
type BillingDetails struct {
	// Boleto.
	Barcode       string `json:"barcode,omitempty"`
	DigitableLine string `json:"digitableLine,omitempty"`
	// PIX: the BR Code of the billing's charge.
	PixCopyPaste string `json:"pixCopyPaste,omitempty"`
	// Cards: the token (ours), brand and last four digits; never the number.
	CardToken string `json:"cardToken,omitempty"`
	CardBrand string `json:"cardBrand,omitempty"`
	CardLast4 string `json:"cardLast4,omitempty"`
	// FailureReason is why a card was declined.
	FailureReason string `json:"failureReason,omitempty"`
	// BoletoVoided: the boleto of a CANCELED billing was voided at the
	// registrar (activities.Billings.VoidBoleto).
	BoletoVoided bool `json:"boletoVoided,omitempty"`
	// LatePayment: the billing was paid after it was canceled (the
	// registrar or acquirer took the payment before the void) and its money
	// credited (docs/ledger.md "A payment after a cancel").
	LatePayment bool `json:"latePayment,omitempty"`
	// Refunds, in order.
	Refunds []BillingRefund `json:"refunds,omitempty"`
}

// BillingRefund is one refund of a billing.
type BillingRefund struct {
	ID          string      `json:"id"`
	Amount      money.Cents `json:"amount"`
	Description string      `json:"description,omitempty"`
	At          domain.Time `json:"at"`
	// RequestID is derived from the request's Idempotency-Key (internal):
	// the same request asked again answers with this refund.
	RequestID string `json:"requestId,omitempty"`
	// Status is PENDING from its booking until the processor answers, then
	// COMPLETED, or FAILED when the processor refused it (its money
	// returned to the merchant, refundedAmount restored). "" is a refund
	// booked before refunds waited for the processor: COMPLETED.
	Status string `json:"status,omitempty"`
	// FeeAmount is the platform's fee share the refund gave back
	// (Billing.RefundSplit); a FAILED refund's share was taken back.
	FeeAmount money.Cents `json:"feeAmount,omitempty"`
	// FailureReason is the processor's reason for refusing it.
	FailureReason string `json:"failureReason,omitempty"`
}

// Settled reports whether the refund's money counts as returned: booked
// and not FAILED (a PENDING refund's money has left the merchant).
func (r BillingRefund) Settled() bool { return r.Status != domain.StatusFailed }

// Refund is the billing's refund with id, and whether it has one.
func (b Billing) Refund(id string) (BillingRefund, bool) {
	for _, r := range b.Details.V.Refunds {
		if r.ID == id {
			return r, true
		}
	}
	return BillingRefund{}, false
}

// PaidStatus is the status of the billing as paid, before any refund: a
// card billing paid on time is CONFIRMED until its credit date, every
// other paid billing RECEIVED (a refund the processor refused returns the
// billing to it when nothing else is refunded).
func (b Billing) PaidStatus(now time.Time) string {
	card := b.Method != domain.MethodBoleto && b.Method != domain.MethodPix && !b.Details.V.LatePayment
	if card && b.PaidAt != nil && now.Before(domain.BillingCreditAt(b.Method, b.PaidAt.Time)) {
		return BillingConfirmed
	}
	return BillingReceived
}

// RefundStatuses are a billing refund's statuses.
var RefundStatuses = []string{domain.StatusPending, domain.StatusCompleted, domain.StatusFailed}

// Enums are the refund's closed sets.
func (BillingRefund) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(RefundStatuses...)}
}

// Enums are the record's closed sets.
func (PublicBilling) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(BillingStatuses...), "method": domain.Exact(domain.BillingMethods...)}
}

// PublicBilling is the billing record of the spec.
type PublicBilling struct {
	ID                    string           `json:"id"`
	Status                string           `json:"status"`
	StatusLabel           string           `json:"statusLabel"`
	Method                string           `json:"method"`
	Amount                money.Cents      `json:"amount"`
	NetAmount             money.Cents      `json:"netAmount"`
	FeeAmount             money.Cents      `json:"feeAmount"`
	NotificationFeeAmount money.Cents      `json:"notificationFeeAmount"`
	RefundedAmount        money.Cents      `json:"refundedAmount"`
	InstallmentCount      int              `json:"installmentCount"`
	Description           string           `json:"description"`
	DueAt                 domain.Time      `json:"dueAt"`
	DueDate               string           `json:"dueDate"`
	PaidAt                *domain.Time     `json:"paidAt"`
	EstimatedCreditDate   *string          `json:"estimatedCreditDate"`
	InvoiceURL            *string          `json:"invoiceUrl"`
	BankSlipURL           *string          `json:"bankSlipUrl"`
	DigitableLine         *string          `json:"digitableLine"`
	PixCopyPaste          *string          `json:"pixCopyPaste"`
	PixEncodedImage       *string          `json:"pixEncodedImage"`
	ExternalID            *string          `json:"externalId"`
	ExternalReference     *string          `json:"externalReference"`
	AccountTransactionID  *string          `json:"accountTransactionId"`
	SubscriptionID        *string          `json:"subscriptionId,omitempty"`
	CreatedAt             domain.Time      `json:"createdAt"`
	Customer              *BillingCustomer `json:"customer"`
	CreditCardToken       *string          `json:"creditCardToken,omitempty"`
	CreditCardBrand       *string          `json:"creditCardBrand,omitempty"`
	CreditCardNumber      *string          `json:"creditCardNumber,omitempty"`
	Refunds               []BillingRefund  `json:"refunds,omitempty"`
}

// BankSlipURL is where a boleto's printable slip is served (public: the
// page token is unguessable).
func BankSlipURL(publicURL, token string) string { return publicURL + "/billings/slip/" + token }

// InvoiceURL is the hosted page where a CARD_DEBIT payer pays.
func InvoiceURL(publicURL, token string) string { return publicURL + "/billings/invoice/" + token }

// DueAt is the instant the billing's due date ends (America/Sao_Paulo).
func (b Billing) DueAt() time.Time { return DueEnd(b.DueDate) }

// Payable reports whether the payer may still pay: a PENDING or OVERDUE
// billing (a boleto is payable after its due date).
func (b Billing) Payable() bool { return b.Status == BillingPending || b.Status == BillingOverdue }

// Public builds the spec's record; pixImage is the QR image of a payable PIX
// billing (the caller draws it), "" otherwise.
func (b Billing) Public(publicURL, pixImage string) PublicBilling {
	p := PublicBilling{
		ID: b.ID, Status: b.Status, StatusLabel: BillingStatusLabel(b.Status), Method: b.Method, Amount: b.Amount,
		NetAmount: b.NetAmount, FeeAmount: b.FeeAmount, NotificationFeeAmount: b.NotificationFee, RefundedAmount: b.RefundedAmount,
		InstallmentCount: b.InstallmentCount, Description: b.Description, DueAt: domain.NewTime(b.DueAt()),
		DueDate: b.DueDate.Format(time.DateOnly), PaidAt: b.PaidAt, ExternalID: b.ExternalID, ExternalReference: b.ExternalReference,
		AccountTransactionID: b.AccountTransactionID, SubscriptionID: b.SubscriptionID, CreatedAt: b.CreatedAt,
		Customer: b.Customer.Ptr(), Refunds: b.Details.V.Refunds,
	}
	if b.EstimatedCreditDate != nil {
		s := b.EstimatedCreditDate.Format(time.DateOnly)
		p.EstimatedCreditDate = &s
	}
	d := b.Details.V
	switch b.Method {
	case domain.MethodBoleto:
		u := BankSlipURL(publicURL, b.PageToken)
		p.BankSlipURL, p.DigitableLine = &u, &d.DigitableLine
	case domain.MethodCardDebit:
		u := InvoiceURL(publicURL, b.PageToken)
		p.InvoiceURL = &u
	case domain.MethodPix:
		if b.Payable() && d.PixCopyPaste != "" {
			p.PixCopyPaste = &d.PixCopyPaste
			if pixImage != "" {
				p.PixEncodedImage = &pixImage
			}
		}
	}
	if d.CardToken != "" {
		p.CreditCardToken, p.CreditCardBrand, p.CreditCardNumber = &d.CardToken, &d.CardBrand, &d.CardLast4
	}
	return p
}

// Statement lines of billings (transactions.type): the money a paid boleto
// or card billing credited, and each refund of it. A PIX billing's line is
// its charge (PIX_IN).
const (
	TypeBilling       = "BILLING"
	TypeBillingRefund = "BILLING_REFUND"
)

// LedgerBillingClearing is the counterpart of boleto and card money the
// bank or the acquirer settles with the platform.
const LedgerBillingClearing = "platform:billing_clearing"

// BillingPayableAfterDue is how long an OVERDUE billing stays payable (a
// boleto's registration, a PIX billing's charge); then it is CANCELED.
const BillingPayableAfterDue = 60 * 24 * time.Hour

// BillingClearing is the platform account a billing's money enters and
// leaves through: PIX clearing for a PIX billing, billing clearing otherwise.
func (b Billing) BillingClearing() string {
	if b.Method == domain.MethodPix {
		return domain.LedgerPixClearing
	}
	return LedgerBillingClearing
}

// FeesTotal is what the platform keeps of a paid billing.
func (b Billing) FeesTotal() money.Cents { return b.FeeAmount + b.NotificationFee }

// RefundSplit is how a refund of amount (on top of what earlier refunds
// returned) splits between the merchant and the platform: the platform
// gives back its fees in proportion (rounded down; the refund that
// completes the total takes the remainder), the merchant the rest, so that
// refunds summing to the amount reverse the paid posting exactly.
//
// The platform's share so far is what the settled refunds gave back: a
// FAILED refund took its share back, so the next refund is measured
// against what was really returned, not against share(RefundedAmount)
// (which rounds differently once a refund in the middle failed); the
// share is kept within [0, amount].
func (b Billing) RefundSplit(amount money.Cents) (merchant, fees money.Cents) {
	share := func(refunded money.Cents) money.Cents {
		if refunded >= b.Amount {
			return b.FeesTotal()
		}
		return money.Cents(int64(b.FeesTotal()) * int64(refunded) / int64(b.Amount))
	}
	fees = min(max(share(b.RefundedAmount+amount)-b.feesRefunded(share), 0), amount)
	return amount - fees, fees
}

// feesRefunded is the fee share the settled refunds gave back. Refunds
// booked before refunds could fail carry no FeeAmount: they came first and
// all settled, so theirs is share(their sum), as it was computed then.
func (b Billing) feesRefunded(share func(money.Cents) money.Cents) money.Cents {
	var legacy, fees money.Cents
	for _, r := range b.Details.V.Refunds {
		switch {
		case r.Status == "":
			legacy += r.Amount
		case r.Settled():
			fees += r.FeeAmount
		}
	}
	return share(legacy) + fees
}
