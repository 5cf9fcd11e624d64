package domain

// TypePixAutomatic is the record of a PIX automatic payment instruction: a
// money movement of the statement once paid (docs/ledger.md), with the
// instruction's own statuses (SCHEDULED, PAID, FAILED, CANCELED).
const TypePixAutomatic = "PIX_AUTOMATIC"

// PixAutomaticDetails is a payment instruction's block of Details.
type PixAutomaticDetails struct {
	AuthorizationID string `json:"authorizationId"`
	CustomerID      string `json:"customerId,omitempty"`
	// Cycle is the recurrence period the instruction charges (from 0); the
	// first payment, paid with the consent QR, has First set instead.
	Cycle   int    `json:"cycle"`
	First   bool   `json:"first,omitempty"`
	DueDate string `json:"dueDate"`
	// SubmittedAt is when the attempt in flight was sent to the payer's
	// institution for debit: while it is set the instruction can no longer
	// be canceled; a failed attempt with a retry ahead clears it.
	SubmittedAt   *Time  `json:"submittedAt,omitempty"`
	FailureReason string `json:"failureReason,omitempty"`
	// Attempts are the debits sent, oldest first: the first on the due
	// date, then each retry of a failed one (docs/pix-automatic.md).
	Attempts []PixAutomaticAttempt `json:"attempts,omitempty"`
	// RetryDate is the São Paulo day the next attempt is sent, while a
	// failed debit waits for its retry.
	RetryDate string `json:"retryDate,omitempty"`
	// LatePayment marks an instruction FAILED because its debit went
	// unanswered whose payment was reported afterwards: the payer was
	// debited, so the merchant is credited (docs/pix-automatic.md).
	LatePayment bool `json:"latePayment,omitempty"`
}

// Outcomes of a PIX automatic debit attempt.
const (
	AttemptPending = "PENDING"
	AttemptPaid    = "PAID"
	AttemptFailed  = "FAILED"
)

// AttemptStatuses are a debit attempt's statuses.
var AttemptStatuses = []string{AttemptPending, AttemptPaid, AttemptFailed}

// PixAutomaticAttempt is one debit of an instruction sent to the payer's
// institution.
type PixAutomaticAttempt struct {
	Number      int    `json:"attempt"`
	Date        string `json:"date"`
	SubmittedAt *Time  `json:"submittedAt,omitempty"`
	ReferenceID string `json:"referenceId,omitempty"`
	Status      string `json:"status"`
	Reason      string `json:"reason,omitempty"`
	FinishedAt  *Time  `json:"finishedAt,omitempty"`
	// Unanswered marks an attempt failed because its outcome never came
	// (the payer may have been debited): a PAID notice of it is still
	// booked, as a late payment.
	Unanswered bool `json:"unanswered,omitempty"`
}

// Named reports whether a debit notice naming attempt number (0: none)
// and the party's reference ref ("": none) is for this attempt. A notice
// naming no attempt is taken for attempt 1 only: once a retry is out, a
// redelivered notice of an earlier attempt would otherwise be booked as
// the retry's outcome (a payer debited twice). A reference the notice
// carries must be the attempt's, once the attempt's is recorded.
func (a *PixAutomaticAttempt) Named(number int, ref string) bool {
	if number != a.Number && (number != 0 || a.Number != 1) {
		return false
	}
	return ref == "" || a.ReferenceID == "" || ref == a.ReferenceID
}

// Unanswered is the attempt of an instruction failed because that debit's
// outcome never came, if any: the last attempt, marked Unanswered.
func (d *PixAutomaticDetails) Unanswered() *PixAutomaticAttempt {
	if n := len(d.Attempts); n > 0 && d.Attempts[n-1].Unanswered {
		return &d.Attempts[n-1]
	}
	return nil
}

// InFlight is the attempt sent whose outcome is not known yet, if any. A
// record sent before attempts were kept (SubmittedAt without Attempts)
// gets its attempt 1 here.
func (d *PixAutomaticDetails) InFlight() *PixAutomaticAttempt {
	if d.SubmittedAt == nil {
		return nil
	}
	if len(d.Attempts) == 0 {
		d.Attempts = []PixAutomaticAttempt{{Number: 1, Date: d.DueDate, SubmittedAt: d.SubmittedAt, Status: AttemptPending}}
	}
	if last := &d.Attempts[len(d.Attempts)-1]; last.Status == AttemptPending {
		return last
	}
	return nil
}
