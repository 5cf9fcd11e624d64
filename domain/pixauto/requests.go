package pixauto

import (
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// MaxAmount bounds every amount of the product (R$ 1,000,000.00).
const MaxAmount money.Cents = 100_000_000

// AuthorizationRequest is the body of POST
// /pix-automatic/authorizations/create.
type AuthorizationRequest struct {
	CustomerID         *string      `json:"customerId"`
	Description        *string      `json:"description"`
	Frequency          *string      `json:"frequency"`
	FixedAmount        *money.Cents `json:"fixedAmount"`
	MaxAmount          *money.Cents `json:"maxAmount"`
	StartDate          *string      `json:"startDate"`
	EndDate            *string      `json:"endDate"`
	FirstPaymentAmount *money.Cents `json:"firstPaymentAmount"`
}

// NewAuthorization is a validated authorization request; the use case
// checks the customer and prices the first payment.
type NewAuthorization struct {
	CustomerID         string
	Description        string
	Frequency          string
	FixedAmount        *money.Cents
	MaxAmount          *money.Cents
	StartDate          Date
	EndDate            *Date
	FirstPaymentAmount money.Cents
	IdempotencyKey     string
}

// Validate checks the request at the current time.
func (b AuthorizationRequest) Validate() (NewAuthorization, error) { return b.ValidateAt(time.Now()) }

// ValidateAt checks the request as of now: the start no earlier than
// today in São Paulo, the end after the start.
func (b AuthorizationRequest) ValidateAt(now time.Time) (NewAuthorization, error) {
	var n NewAuthorization
	var err error
	if n.CustomerID, err = domain.Text("customerId", b.CustomerID, 1, 64, true); err != nil {
		return n, err
	}
	if n.Description, err = domain.Text("description", b.Description, 1, 140, true); err != nil {
		return n, err
	}
	if b.Frequency == nil {
		return n, domain.Invalid("frequency", "is required")
	}
	var ok bool
	if n.Frequency, ok = domain.Folded(Frequencies...).Match(*b.Frequency); !ok {
		return n, domain.Invalid("frequency", "must be one of %s", strings.Join(Frequencies, ", "))
	}
	switch {
	case b.FixedAmount != nil && b.MaxAmount != nil:
		return n, domain.Invalid("fixedAmount", "and maxAmount are exclusive: send exactly one")
	case b.FixedAmount != nil:
		v, err := domain.Amount("fixedAmount", b.FixedAmount, 1, MaxAmount)
		if err != nil {
			return n, err
		}
		n.FixedAmount = &v
	case b.MaxAmount != nil:
		v, err := domain.Amount("maxAmount", b.MaxAmount, 1, MaxAmount)
		if err != nil {
			return n, err
		}
		n.MaxAmount = &v
	default:
		return n, domain.Invalid("fixedAmount", "or maxAmount is required")
	}
	if n.StartDate, err = date("startDate", b.StartDate); err != nil {
		return n, err
	}
	if n.StartDate.Before(Today(now)) {
		return n, domain.Invalid("startDate", "must be today or later (America/Sao_Paulo)")
	}
	if b.EndDate != nil {
		end, err := date("endDate", b.EndDate)
		if err != nil {
			return n, err
		}
		if end.Before(n.StartDate) {
			return n, domain.Invalid("endDate", "must not be before startDate")
		}
		n.EndDate = &end
	}
	if b.FirstPaymentAmount != nil {
		if n.FirstPaymentAmount, err = domain.Amount("firstPaymentAmount", b.FirstPaymentAmount, 1, MaxAmount); err != nil {
			return n, err
		}
	}
	return n, nil
}

func date(field string, v *string) (Date, error) {
	if v == nil {
		return "", domain.Invalid(field, "is required")
	}
	d, ok := ParseDate(strings.TrimSpace(*v))
	if !ok {
		return "", domain.Invalid(field, "must be a date YYYY-MM-DD")
	}
	return d, nil
}

// InstructionRequest is the body of POST
// /pix-automatic/payment-instructions/create.
type InstructionRequest struct {
	AuthorizationID *string      `json:"authorizationId"`
	Amount          *money.Cents `json:"amount"`
	DueDate         *string      `json:"dueDate"`
}

// NewInstruction is a validated instruction request; Authorization.Admit
// checks it against the authorization's rule.
type NewInstruction struct {
	AuthorizationID string
	Amount          money.Cents
	DueDate         Date
	IdempotencyKey  string
}

// Validate checks the fields on their own.
func (b InstructionRequest) Validate() (NewInstruction, error) {
	var n NewInstruction
	var err error
	if n.AuthorizationID, err = domain.Text("authorizationId", b.AuthorizationID, 1, 64, true); err != nil {
		return n, err
	}
	if n.Amount, err = domain.Amount("amount", b.Amount, 1, MaxAmount); err != nil {
		return n, err
	}
	n.DueDate, err = date("dueDate", b.DueDate)
	return n, err
}

// Admit checks an instruction against the authorization as of now and
// returns its cycle: the authorization ACTIVE (a 400 naming
// authorizationId otherwise), the amount within its rule (equal to
// fixedAmount, or at most maxAmount), the due date 2 to 10 São Paulo days
// ahead and within [startDate, endDate].
func (a Authorization) Admit(amount money.Cents, due Date, now time.Time) (int, error) {
	if a.Status != StatusActive {
		return 0, domain.Invalid("authorizationId", "names an authorization that is %s, not ACTIVE", a.Status)
	}
	if a.FixedAmount != nil && amount != *a.FixedAmount {
		return 0, domain.Invalid("amount", "must equal the authorization's fixedAmount of %s", a.FixedAmount.Format())
	}
	if a.MaxAmount != nil && amount > *a.MaxAmount {
		return 0, domain.Invalid("amount", "must not exceed the authorization's maxAmount of %s", a.MaxAmount.Format())
	}
	if d := DaysAhead(now, due); d < MinDaysAhead || d > MaxDaysAhead {
		return 0, domain.Invalid("dueDate", "must be %d to %d days ahead (America/Sao_Paulo), not %d", MinDaysAhead, MaxDaysAhead, d)
	}
	if due.Before(a.StartDate) {
		return 0, domain.Invalid("dueDate", "must not be before the authorization's startDate %s", a.StartDate)
	}
	if a.EndDate != nil && a.EndDate.Before(due) {
		return 0, domain.Invalid("dueDate", "must not be after the authorization's endDate %s", *a.EndDate)
	}
	return CycleOf(a.StartDate, a.Frequency, due), nil
}

// Ended reports whether the authorization's endDate has passed at now.
func (a Authorization) Ended(now time.Time) bool {
	return a.EndDate != nil && a.EndDate.Before(Today(now))
}

// Order is an instruction to make: its cycle, amount and due date (the
// workflow's for a fixed amount, the merchant's otherwise).
type Order struct {
	Cycle   int         `json:"cycle"`
	Amount  money.Cents `json:"amount"`
	DueDate Date        `json:"dueDate"`
}
