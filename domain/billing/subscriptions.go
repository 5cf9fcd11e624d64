package billing

import (
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // America/Sao_Paulo must load on hosts without a zoneinfo database

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Subscription cycles: how far apart two billings of a subscription fall.
const (
	CycleWeekly       = "WEEKLY"
	CycleBiweekly     = "BIWEEKLY"
	CycleMonthly      = "MONTHLY"
	CycleBimonthly    = "BIMONTHLY"
	CycleQuarterly    = "QUARTERLY"
	CycleSemiannually = "SEMIANNUALLY"
	CycleYearly       = "YEARLY"
)

// Cycles lists the cycles a subscription may have, in the spec's order.
var Cycles = []string{CycleWeekly, CycleBiweekly, CycleMonthly, CycleBimonthly, CycleQuarterly, CycleSemiannually, CycleYearly}

// cycleSteps is each cycle's step: days for the weekly ones, months for
// the calendar ones (whose due day clamps to the month's last day).
var cycleSteps = map[string]struct{ days, months int }{
	CycleWeekly: {days: 7}, CycleBiweekly: {days: 14},
	CycleMonthly: {months: 1}, CycleBimonthly: {months: 2}, CycleQuarterly: {months: 3},
	CycleSemiannually: {months: 6}, CycleYearly: {months: 12},
}

// Subscription statuses.
const (
	SubscriptionActive   = "ACTIVE"
	SubscriptionCanceled = "CANCELED"
)

// SubscriptionMethods are the billing methods a subscription may bill with.
var SubscriptionMethods = []string{domain.MethodBoleto, domain.MethodCardCredit, domain.MethodPix}

// SubscriptionStatuses are a subscription's statuses.
var SubscriptionStatuses = []string{SubscriptionActive, SubscriptionCanceled}

// Enums are the request's closed sets (Validate reads them in any case).
func (SubscriptionRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"method": domain.Folded(SubscriptionMethods...), "cycle": domain.Folded(Cycles...)}
}

// Enums are the record's closed sets.
func (SubscriptionRecord) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(SubscriptionStatuses...),
		"method": domain.Exact(SubscriptionMethods...), "cycle": domain.Exact(Cycles...)}
}

// DueInstant is the start of the calendar day date (a date at UTC
// midnight) in America/Sao_Paulo: when a subscription's cycle due that day
// bills.
func DueInstant(date time.Time) time.Time {
	return time.Date(date.Year(), date.Month(), date.Day(), 0, 0, 0, 0, domain.SaoPaulo)
}

// CycleDue is the due date of cycle n (1 is the first, the anchor itself)
// of a subscription whose first due date is anchor. Each date is computed
// from the anchor, not from the cycle before, so a month-end anchor clamps
// to the last day of shorter months and returns to its day afterwards
// (31 Jan → 28/29 Feb → 31 Mar), and a 29 Feb anchor bills on 28 Feb of
// common years and on the 29th of leap years.
func CycleDue(cycle string, anchor time.Time, n int) time.Time {
	step := cycleSteps[cycle]
	k := n - 1
	if step.days > 0 {
		return anchor.AddDate(0, 0, step.days*k)
	}
	months := anchor.Month() - 1 + time.Month(step.months*k)
	y := anchor.Year() + int(months/12)
	m := months%12 + 1
	day := min(anchor.Day(), daysIn(y, m))
	return time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
}

func daysIn(y int, m time.Month) int { return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day() }

// SubscriptionRequest is the body of POST /subscriptions/create: a
// billing's fields (the card ones as in billings, for CARD_CREDIT) plus the
// cycle, and nextDueDate, the first cycle's due date.
type SubscriptionRequest struct {
	Method               *string                 `json:"method" jsonschema:"required"`
	Amount               *money.Cents            `json:"amount" jsonschema:"required"`
	Cycle                *string                 `json:"cycle" jsonschema:"required"`
	NextDueDate          *string                 `json:"nextDueDate" jsonschema:"required"`
	Description          *string                 `json:"description"`
	Customer             *BillingCustomerRequest `json:"customer" jsonschema:"required"`
	CardToken            *string                 `json:"cardToken"`
	CreditCard           *CreditCardRequest      `json:"creditCard"`
	CreditCardHolderInfo *CardHolderInfoRequest  `json:"creditCardHolderInfo"`
	RemoteIP             *string                 `json:"remoteIp"`
	ExternalReference    *string                 `json:"externalReference"`
}

// NewSubscription is a validated subscription request: its cycle and the
// billing every cycle makes (Billing.DueDate is the first due date; a card
// is tokenized by the use case before anything is stored).
type NewSubscription struct {
	// IdempotencyKey is the request's Idempotency-Key header (set by the
	// handler): the subscription's id is derived from it.
	IdempotencyKey string
	Cycle          string
	Billing        NewBilling
}

// Validate checks the request at the current time.
func (b SubscriptionRequest) Validate() (NewSubscription, error) { return b.ValidateAt(time.Now()) }

// ValidateAt checks the request as of now: the method, the cycle, a
// nextDueDate not before today in America/Sao_Paulo, and the rest by the
// rules of a billing (BillingRequest.ValidateAt), so each field is refused
// as POST /billings/create refuses it.
func (b SubscriptionRequest) ValidateAt(now time.Time) (NewSubscription, error) {
	var n NewSubscription
	m, err := BillingMethod("method", b.Method)
	if err != nil {
		return n, err
	}
	if !slices.Contains(SubscriptionMethods, m) {
		return n, domain.Invalid("method", "must be one of %s", strings.Join(SubscriptionMethods, ", "))
	}
	if b.Cycle == nil {
		return n, domain.Invalid("cycle", "is required: one of %s", strings.Join(Cycles, ", "))
	}
	if n.Cycle = strings.ToUpper(strings.TrimSpace(*b.Cycle)); !slices.Contains(Cycles, n.Cycle) {
		return n, domain.Invalid("cycle", "must be one of %s", strings.Join(Cycles, ", "))
	}
	if b.NextDueDate == nil {
		return n, domain.Invalid("nextDueDate", "is required: the first cycle's due date, YYYY-MM-DD")
	}
	if _, err := DueDateAt("nextDueDate", b.NextDueDate, now); err != nil {
		return n, err
	}
	n.Billing, err = BillingRequest{Method: &m, Amount: b.Amount, Customer: b.Customer, Description: b.Description,
		DueDate: b.NextDueDate, CardToken: b.CardToken, CreditCard: b.CreditCard, CreditCardHolderInfo: b.CreditCardHolderInfo,
		RemoteIP: b.RemoteIP, ExternalReference: b.ExternalReference}.ValidateAt(now)
	return n, err
}

// Subscription is a stored subscription. Its workflow bills cycle
// NextCycle on NextDueDate; Anchor (the first due date) is kept so that
// every cycle's date is computed from it (CycleDue).
type Subscription struct {
	ID                string          `json:"id"`
	AccountID         string          `json:"accountId"`
	APIKeyID          string          `json:"apiKeyId"`
	ExternalID        string          `json:"externalId"`
	Status            string          `json:"status"`
	Method            string          `json:"method"`
	Amount            money.Cents     `json:"amount"`
	Cycle             string          `json:"cycle"`
	Description       string          `json:"description"`
	Customer          BillingCustomer `json:"customer"`
	CustomerEmail     *string         `json:"customerEmail,omitempty"`
	CustomerPhone     *string         `json:"customerPhone,omitempty"`
	CardToken         string          `json:"cardToken,omitempty"`
	CardBrand         string          `json:"cardBrand,omitempty"`
	CardLast4         string          `json:"cardLast4,omitempty"`
	RemoteIP          string          `json:"remoteIp,omitempty"`
	ExternalReference *string         `json:"externalReference,omitempty"`
	Anchor            string          `json:"anchor"`
	NextCycle         int             `json:"nextCycle"`
	NextDueDate       string          `json:"nextDueDate"`
	LastBillingID     string          `json:"lastBillingId,omitempty"`
	LastError         string          `json:"lastError,omitempty"`
	CreatedAt         domain.Time     `json:"createdAt"`
	CanceledAt        *domain.Time    `json:"canceledAt,omitempty"`
}

// Referenced is the subscription as its workflow carries it (its input,
// its steps' results): references, never its customer's name, taxId,
// e-mail or phone, its payer's address or its description, which stay in
// PostgreSQL, where each cycle's billing reads them.
func (s Subscription) Referenced() Subscription {
	s.Customer = BillingCustomer{ID: s.Customer.ID}
	s.CustomerEmail, s.CustomerPhone, s.RemoteIP, s.Description = nil, nil, "", ""
	return s
}

// AnchorDate is the first due date as a date.
func (s Subscription) AnchorDate() time.Time {
	d, _ := time.Parse(time.DateOnly, s.Anchor)
	return d
}

// DueOf is the due date of cycle n.
func (s Subscription) DueOf(n int) time.Time { return CycleDue(s.Cycle, s.AnchorDate(), n) }

// Advanced is s after cycle n billed (billingID, or the refusal in
// lastError): it waits for cycle n+1. A cycle other than the next one
// changes nothing (a retried step).
func (s Subscription) Advanced(n int, billingID, lastError string) Subscription {
	if n != s.NextCycle {
		return s
	}
	s.NextCycle = n + 1
	s.NextDueDate = s.DueOf(n + 1).Format(time.DateOnly)
	if billingID != "" {
		s.LastBillingID = billingID
	}
	s.LastError = lastError
	return s
}

// SubscriptionRecord is the public form of a subscription.
type SubscriptionRecord struct {
	SubscriptionID    string          `json:"subscriptionId"`
	ExternalID        string          `json:"externalId"`
	Status            string          `json:"status"`
	Method            string          `json:"method"`
	Amount            money.Cents     `json:"amount"`
	Cycle             string          `json:"cycle"`
	Description       string          `json:"description"`
	NextDueDate       string          `json:"nextDueDate"`
	CreatedAt         domain.Time     `json:"createdAt"`
	Customer          BillingCustomer `json:"customer"`
	ExternalReference *string         `json:"externalReference,omitempty"`
	// CreditCardBrand and CreditCardNumber (last four digits) show the
	// card a CARD_CREDIT subscription charges (by its token).
	CreditCardBrand  string `json:"creditCardBrand,omitempty"`
	CreditCardNumber string `json:"creditCardNumber,omitempty"`
	// Extras: the day the cycles are anchored to, the cycle nextDueDate
	// bills, the last billing made and why the last cycle could not bill.
	AnchorDate    string       `json:"anchorDate"`
	CycleNumber   int          `json:"cycleNumber"`
	LastBillingID string       `json:"lastBillingId,omitempty"`
	LastError     string       `json:"lastError,omitempty"`
	CanceledAt    *domain.Time `json:"canceledAt,omitempty"`
}

// Public is the record the API answers with.
func (s Subscription) Public() SubscriptionRecord {
	next := s.NextDueDate
	if s.Status == SubscriptionCanceled {
		next = ""
	}
	return SubscriptionRecord{
		SubscriptionID: s.ID, ExternalID: s.ExternalID, Status: s.Status, Method: s.Method, Amount: s.Amount,
		Cycle: s.Cycle, Description: s.Description, NextDueDate: next, CreatedAt: s.CreatedAt, Customer: s.Customer,
		ExternalReference: s.ExternalReference, AnchorDate: s.Anchor, CycleNumber: s.NextCycle,
		LastBillingID: s.LastBillingID, LastError: s.LastError, CanceledAt: s.CanceledAt,
		CreditCardBrand: s.CardBrand, CreditCardNumber: s.CardLast4,
	}
}
