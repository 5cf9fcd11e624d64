// Package pixauto holds the rules of PIX automatic (Pix Automático): the
// payer's consent to recurring debits (an authorization), the payment
// instructions charged under it on their due dates, the calendar they
// follow (cycles in America/Sao_Paulo) and the request types with their
// Validate. It does no I/O.
package pixauto

import (
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Frequencies of an authorization (CONTRACTS.md).
const (
	Weekly       = "WEEKLY"
	Monthly      = "MONTHLY"
	Quarterly    = "QUARTERLY"
	Semiannually = "SEMIANNUALLY"
	Yearly       = "YEARLY"
)

// Frequencies lists the accepted frequencies.
var Frequencies = []string{Weekly, Monthly, Quarterly, Semiannually, Yearly}

// Authorization statuses: PENDING until the payer answers the consent QR,
// then ACTIVE or REJECTED; EXPIRED when the consent is never answered or
// the authorization's endDate has passed; CANCELED by the merchant.
const (
	StatusPending  = "PENDING"
	StatusActive   = "ACTIVE"
	StatusCanceled = "CANCELED"
	StatusRejected = "REJECTED"
	StatusExpired  = "EXPIRED"
)

// AuthorizationStatuses lists the statuses a list filter accepts.
var AuthorizationStatuses = []string{StatusPending, StatusActive, StatusCanceled, StatusRejected, StatusExpired}

// Instruction statuses (the record's status in the transactions table).
const (
	InstructionScheduled = "SCHEDULED"
	InstructionPaid      = "PAID"
	InstructionFailed    = "FAILED"
	InstructionCanceled  = "CANCELED"
)

// InstructionStatuses lists the statuses a list filter accepts.
var InstructionStatuses = []string{InstructionScheduled, InstructionPaid, InstructionFailed, InstructionCanceled}

// Enums are the record's closed sets.
func (View) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"frequency": domain.Exact(Frequencies...), "status": domain.Exact(AuthorizationStatuses...)}
}

// Enums are the attempt's closed sets.
func (Attempt) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(domain.AttemptStatuses...)}
}

// Enums are the record's closed sets.
func (Instruction) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(InstructionStatuses...)}
}

// Enums are the request's closed sets (Validate reads them in any case).
func (AuthorizationRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"frequency": domain.Folded(Frequencies...)}
}

// ConsentTTL is how long the payer has to answer the consent QR before the
// authorization expires.
const ConsentTTL = 7 * 24 * time.Hour

// Authorization is the stored consent (table pix_automatic_authorizations;
// money moves only through its instructions).
type Authorization struct {
	ID          string       `json:"id"`
	AccountID   string       `json:"accountId"`
	APIKeyID    string       `json:"apiKeyId"`
	CustomerID  string       `json:"customerId"`
	Description string       `json:"description"`
	Frequency   string       `json:"frequency"`
	FixedAmount *money.Cents `json:"fixedAmount,omitempty"`
	MaxAmount   *money.Cents `json:"maxAmount,omitempty"`
	StartDate   Date         `json:"startDate"`
	EndDate     *Date        `json:"endDate,omitempty"`
	// FirstPayment is paid with the consent QR (0: a consent-only QR); its
	// fee is priced at creation, like a charge's.
	FirstPaymentAmount money.Cents `json:"firstPaymentAmount"`
	FirstPaymentFee    money.Cents `json:"firstPaymentFee"`
	// RecurrenceID is the recurrence's id on the PIX network (idRec), which
	// the consent QR's field 80 points at.
	RecurrenceID string `json:"recurrenceId"`
	CopyPaste    string `json:"copyPaste"`
	Status       string `json:"status"`
	StatusReason string `json:"statusReason,omitempty"`
	// Payer is who consented, as the payer's institution names them.
	Payer *domain.Party `json:"payer,omitempty"`
	// FirstPaymentID is the PAID instruction of the first payment.
	FirstPaymentID   string     `json:"firstPaymentId,omitempty"`
	ConsentExpiresAt time.Time  `json:"consentExpiresAt"`
	ApprovedAt       *time.Time `json:"approvedAt,omitempty"`
	ClosedAt         *time.Time `json:"closedAt,omitempty"`
	CreatedAt        time.Time  `json:"createdAt"`
}

// Closed reports whether the authorization can no longer change.
func (a Authorization) Closed() bool {
	return a.Status == StatusCanceled || a.Status == StatusRejected || a.Status == StatusExpired
}

// View is the authorization as the API shows it. The QR fields appear only
// while the consent is PENDING: an answered consent is not shown for
// payment again.
type View struct {
	ID                 string        `json:"id"`
	CustomerID         string        `json:"customerId"`
	Description        string        `json:"description"`
	Frequency          string        `json:"frequency"`
	FixedAmount        *money.Cents  `json:"fixedAmount,omitempty"`
	MaxAmount          *money.Cents  `json:"maxAmount,omitempty"`
	StartDate          Date          `json:"startDate"`
	EndDate            *Date         `json:"endDate,omitempty"`
	FirstPaymentAmount money.Cents   `json:"firstPaymentAmount"`
	RecurrenceID       string        `json:"recurrenceId"`
	Status             string        `json:"status"`
	StatusReason       string        `json:"statusReason,omitempty"`
	CopyPaste          string        `json:"copyPaste,omitempty"`
	QRCodeBase64       string        `json:"qrCodeBase64,omitempty"`
	Payer              *domain.Party `json:"payer,omitempty"`
	FirstPaymentID     string        `json:"firstPaymentId,omitempty"`
	ConsentExpiresAt   *domain.Time  `json:"consentExpiresAt,omitempty"`
	ApprovedAt         *domain.Time  `json:"approvedAt,omitempty"`
	ClosedAt           *domain.Time  `json:"closedAt,omitempty"`
	CreatedAt          domain.Time   `json:"createdAt"`
}

// Public is the view; qr is the QR image of CopyPaste (a data URI), shown
// while PENDING.
func (a Authorization) Public(qr string) View {
	v := View{
		ID: a.ID, CustomerID: a.CustomerID, Description: a.Description, Frequency: a.Frequency,
		FixedAmount: a.FixedAmount, MaxAmount: a.MaxAmount, StartDate: a.StartDate, EndDate: a.EndDate,
		FirstPaymentAmount: a.FirstPaymentAmount, RecurrenceID: a.RecurrenceID, Status: a.Status,
		StatusReason: a.StatusReason, Payer: a.Payer, FirstPaymentID: a.FirstPaymentID,
		ApprovedAt: timePtr(a.ApprovedAt), ClosedAt: timePtr(a.ClosedAt), CreatedAt: domain.NewTime(a.CreatedAt),
	}
	if a.Status == StatusPending {
		v.CopyPaste, v.QRCodeBase64 = a.CopyPaste, qr
		v.ConsentExpiresAt = domain.TimePtr(a.ConsentExpiresAt)
	}
	return v
}

func timePtr(t *time.Time) *domain.Time {
	if t == nil {
		return nil
	}
	return domain.TimePtr(*t)
}

// Instruction is a payment instruction as the API shows it, built from its
// record in the transactions table (type PIX_AUTOMATIC).
type Instruction struct {
	ID              string      `json:"id"`
	AuthorizationID string      `json:"authorizationId"`
	CustomerID      string      `json:"customerId,omitempty"`
	Cycle           int         `json:"cycle"`
	First           bool        `json:"firstPayment,omitempty"`
	Amount          money.Cents `json:"amount"`
	FeeAmount       money.Cents `json:"feeAmount"`
	NetAmount       money.Cents `json:"netAmount"`
	DueDate         Date        `json:"dueDate"`
	Status          string      `json:"status"`
	FailureReason   string      `json:"failureReason,omitempty"`
	// Attempts are the debits sent, oldest first; RetryDate is the day of
	// the next one while a failed debit waits for its retry.
	Attempts   []Attempt     `json:"attempts,omitempty"`
	RetryDate  Date          `json:"retryDate,omitempty"`
	EndToEndID *string       `json:"endToEndId,omitempty"`
	Payer      *domain.Party `json:"payer,omitempty"`
	PaidAt     *domain.Time  `json:"paidAt,omitempty"`
	CreatedAt  domain.Time   `json:"createdAt"`
}

// InstructionOf is the view of an instruction's record.
func InstructionOf(t domain.Transaction) Instruction {
	d := t.Details.V.PixAutomatic
	if d == nil {
		d = &domain.PixAutomaticDetails{}
	}
	in := Instruction{
		ID: t.ID, AuthorizationID: d.AuthorizationID, CustomerID: d.CustomerID, Cycle: d.Cycle, First: d.First,
		Amount: t.Amount, FeeAmount: t.FeeAmount, NetAmount: t.NetAmount, DueDate: Date(d.DueDate), Status: t.Status,
		FailureReason: d.FailureReason, EndToEndID: t.EndToEndID, Payer: t.Payer.Ptr(), CreatedAt: t.CreatedAt,
	}
	if t.Status == InstructionPaid {
		in.PaidAt = t.CompletedAt
	}
	in.RetryDate = Date(d.RetryDate)
	for _, a := range d.Attempts {
		in.Attempts = append(in.Attempts, Attempt{Number: a.Number, Date: Date(a.Date), Status: a.Status, Reason: a.Reason,
			SentAt: a.SubmittedAt, FinishedAt: a.FinishedAt})
	}
	return in
}

// Attempt is one debit of an instruction as the API shows it: PENDING
// while the payer's institution has not answered, then PAID or FAILED.
type Attempt struct {
	Number     int          `json:"attempt"`
	Date       Date         `json:"date"`
	Status     string       `json:"status"`
	Reason     string       `json:"reason,omitempty"`
	SentAt     *domain.Time `json:"sentAt,omitempty"`
	FinishedAt *domain.Time `json:"finishedAt,omitempty"`
}
