package domain

import (
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // America/Sao_Paulo must load on hosts without a zoneinfo database

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
var SubscriptionMethods = []string{"BOLETO", "CARD_CREDIT", "PIX"}

// DateLayout is the layout of the API's calendar dates (YYYY-MM-DD).
const DateLayout = "2006-01-02"

// dueZone is where a due date is a day: billings fall due, and
// subscriptions bill, at its midnight.
var dueZone = func() *time.Location {
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		panic(err)
	}
	return loc
}()

// DueInstant is the start of the calendar day date (YYYY-MM-DD form, as a
// date at UTC midnight) in America/Sao_Paulo: when a subscription's cycle
// due that day bills.
func DueInstant(date time.Time) time.Time {
	return time.Date(date.Year(), date.Month(), date.Day(), 0, 0, 0, 0, dueZone)
}

// TodayIn is the calendar day of now in America/Sao_Paulo, as a date at
// UTC midnight.
func TodayIn(now time.Time) time.Time {
	l := now.In(dueZone)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC)
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

// SubscriptionCustomerRequest is the payer of a subscription's billings,
// as the create body names them.
type SubscriptionCustomerRequest struct {
	ID    *string `json:"id"`
	Name  *string `json:"name"`
	TaxID *string `json:"taxId"`
	Email *string `json:"email"`
	Phone *string `json:"phone"`
}

// SubscriptionCustomer is a validated payer: a customer of the store
// (ID) or one named by its name and CPF/CNPJ.
type SubscriptionCustomer struct {
	ID    string `json:"id,omitempty"`
	Name  string `json:"name"`
	TaxID string `json:"taxId"`
	Email string `json:"email,omitempty"`
	Phone string `json:"phone,omitempty"`
}

// SubscriptionRequest is the body of POST /subscriptions/create.
type SubscriptionRequest struct {
	Method            *string                      `json:"method"`
	Amount            *money.Cents                 `json:"amount"`
	Cycle             *string                      `json:"cycle"`
	NextDueDate       *string                      `json:"nextDueDate"`
	Description       *string                      `json:"description"`
	Customer          *SubscriptionCustomerRequest `json:"customer"`
	CardToken         *string                      `json:"cardToken"`
	ExternalReference *string                      `json:"externalReference"`
}

// NewSubscription is a validated subscription request.
type NewSubscription struct {
	// IdempotencyKey is the request's Idempotency-Key header (set by the
	// handler): the subscription's id is derived from it.
	IdempotencyKey    string
	Method            string
	Amount            money.Cents
	Cycle             string
	NextDueDate       time.Time
	Description       string
	Customer          SubscriptionCustomer
	CardToken         string
	ExternalReference *string
}

// Subscription amount limits: a billing's.
const (
	MinSubscription = money.Cents(1)
	MaxSubscription = MaxCharge
)

// Validate checks the request at the current time.
func (b SubscriptionRequest) Validate() (NewSubscription, error) { return b.ValidateAt(time.Now()) }

// ValidateAt checks the request as of now: nextDueDate may not be before
// today in America/Sao_Paulo.
func (b SubscriptionRequest) ValidateAt(now time.Time) (NewSubscription, error) {
	var n NewSubscription
	var err error
	if b.Method == nil {
		return n, Invalid("method", "is required")
	}
	if n.Method = strings.ToUpper(strings.TrimSpace(*b.Method)); !slices.Contains(SubscriptionMethods, n.Method) {
		return n, Invalid("method", "must be one of %s", strings.Join(SubscriptionMethods, ", "))
	}
	if n.Amount, err = Amount("amount", b.Amount, MinSubscription, MaxSubscription); err != nil {
		return n, err
	}
	if b.Cycle == nil {
		return n, Invalid("cycle", "is required")
	}
	if n.Cycle = strings.ToUpper(strings.TrimSpace(*b.Cycle)); !slices.Contains(Cycles, n.Cycle) {
		return n, Invalid("cycle", "must be one of %s", strings.Join(Cycles, ", "))
	}
	if n.NextDueDate, err = dueDate("nextDueDate", b.NextDueDate, now); err != nil {
		return n, err
	}
	if n.Description, err = Text("description", b.Description, 0, 500, false); err != nil {
		return n, err
	}
	if n.Customer, err = b.Customer.validate(); err != nil {
		return n, err
	}
	if b.CardToken != nil {
		if n.Method != "CARD_CREDIT" {
			return n, Invalid("cardToken", "is only for CARD_CREDIT subscriptions")
		}
		if n.CardToken, err = Text("cardToken", b.CardToken, 1, 100, true); err != nil {
			return n, err
		}
	}
	if n.Method == "CARD_CREDIT" && n.CardToken == "" {
		return n, Invalid("cardToken", "is required for CARD_CREDIT subscriptions (tokenize the card with /billings/tokenize-card)")
	}
	if n.ExternalReference, err = OptionalText("externalReference", b.ExternalReference, 1, 100); err != nil {
		return n, err
	}
	return n, nil
}

// dueDate requires a YYYY-MM-DD date that is not before today in
// America/Sao_Paulo.
func dueDate(field string, v *string, now time.Time) (time.Time, error) {
	if v == nil {
		return time.Time{}, Invalid(field, "is required")
	}
	d, err := time.Parse(DateLayout, strings.TrimSpace(*v))
	if err != nil {
		return time.Time{}, Invalid(field, "must be a date in the form YYYY-MM-DD")
	}
	if today := TodayIn(now); d.Before(today) {
		return time.Time{}, Invalid(field, "must not be before today (%s)", today.Format(DateLayout))
	}
	return d, nil
}

func (c *SubscriptionCustomerRequest) validate() (SubscriptionCustomer, error) {
	var out SubscriptionCustomer
	if c == nil {
		return out, Invalid("customer", "is required")
	}
	var err error
	if out.Name, err = Text("customer.name", c.Name, 1, 120, true); err != nil {
		return out, err
	}
	if out.TaxID, err = TaxID("customer.taxId", c.TaxID); err != nil {
		return out, err
	}
	if c.ID != nil {
		if out.ID, err = Text("customer.id", c.ID, 1, 64, true); err != nil {
			return out, err
		}
	}
	if c.Email != nil {
		if out.Email, err = Email("customer.email", c.Email); err != nil {
			return out, err
		}
	}
	if out.Phone, err = Text("customer.phone", c.Phone, 0, 20, false); err != nil {
		return out, err
	}
	return out, nil
}

// Subscription is a stored subscription. Its workflow bills cycle
// NextCycle on NextDueDate; Anchor (the first due date) is kept so that
// every cycle's date is computed from it (CycleDue).
type Subscription struct {
	ID                string               `json:"id"`
	AccountID         string               `json:"accountId"`
	APIKeyID          string               `json:"apiKeyId"`
	ExternalID        string               `json:"externalId"`
	Status            string               `json:"status"`
	Method            string               `json:"method"`
	Amount            money.Cents          `json:"amount"`
	Cycle             string               `json:"cycle"`
	Description       string               `json:"description"`
	Customer          SubscriptionCustomer `json:"customer"`
	CardToken         string               `json:"cardToken,omitempty"`
	ExternalReference *string              `json:"externalReference,omitempty"`
	Anchor            string               `json:"anchor"`
	NextCycle         int                  `json:"nextCycle"`
	NextDueDate       string               `json:"nextDueDate"`
	LastBillingID     string               `json:"lastBillingId,omitempty"`
	LastError         string               `json:"lastError,omitempty"`
	CreatedAt         Time                 `json:"createdAt"`
	CanceledAt        *Time                `json:"canceledAt,omitempty"`
}

// AnchorDate is the first due date as a date.
func (s Subscription) AnchorDate() time.Time {
	d, _ := time.Parse(DateLayout, s.Anchor)
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
	s.NextDueDate = s.DueOf(n + 1).Format(DateLayout)
	if billingID != "" {
		s.LastBillingID = billingID
	}
	s.LastError = lastError
	return s
}

// SubscriptionRecord is the public form of a subscription.
type SubscriptionRecord struct {
	SubscriptionID    string               `json:"subscriptionId"`
	ExternalID        string               `json:"externalId"`
	Status            string               `json:"status"`
	Method            string               `json:"method"`
	Amount            money.Cents          `json:"amount"`
	Cycle             string               `json:"cycle"`
	Description       string               `json:"description"`
	NextDueDate       string               `json:"nextDueDate"`
	CreatedAt         Time                 `json:"createdAt"`
	Customer          SubscriptionCustomer `json:"customer"`
	ExternalReference *string              `json:"externalReference,omitempty"`
	// Extras: the day the cycles are anchored to, the cycle nextDueDate
	// bills, the last billing made and why the last cycle could not bill.
	AnchorDate    string `json:"anchorDate"`
	CycleNumber   int    `json:"cycleNumber"`
	LastBillingID string `json:"lastBillingId,omitempty"`
	LastError     string `json:"lastError,omitempty"`
	CanceledAt    *Time  `json:"canceledAt,omitempty"`
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
	}
}
