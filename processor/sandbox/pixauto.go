package sandbox

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// PIX automatic in the sandbox: the consent QR is a real BR Code (field 80
// points at the recurrence on RecurrenceHost), the payer answers it through
// the sandbox routes, and every debit submitted on a due date settles
// through the simulated network after SettleAfter (at once when
// auto-settlement is off: no sandbox route settles a debit by hand), paid
// or failed by its amount's centavos (FailDebitCents, FailOnceDebitCents).

// RecurrenceHost is where the sandbox PSP serves recurrences (the QR's
// recurrence URL, without scheme).
const RecurrenceHost = "pix.sandbox.jangada/rec/"

// The sandbox's deterministic debit outcomes, by an instruction's
// centavos: R$ x,66 (FailDebitCents) finds the payer's account without
// funds on every attempt; R$ x,67 (FailOnceDebitCents) on the first
// attempt only, so its first retry pays. Any other amount pays at once.
const (
	FailDebitCents     = 66
	FailOnceDebitCents = 67
)

// KindDebit is the delivery of a PIX automatic debit's outcome.
const KindDebit = "pix-automatic-debit"

var _ = onDelivery(KindDebit, func(s *Sandbox, ctx context.Context, d Delivery) error {
	return s.SettleDebit(ctx, d.ID, d.Attempt, d.Reason)
})

// NewAuthorization builds the consent QR. The recurrence id follows the
// BCB's idRec shape: "RR", the ISPB, the date (yyyyMMdd) and 11
// alphanumerics, here taken from the authorization id so that a retried
// create gets the same one.
func (s *Sandbox) NewAuthorization(_ context.Context, r processor.AuthorizationRequest) (processor.ChargeQR, error) {
	city := s.City
	if city == "" {
		city = "SAO PAULO"
	}
	recID := r.RecurrenceID
	if recID == "" {
		recID = RecurrenceID(r.ID, time.Now())
	}
	p := brcode.Payload{MerchantName: r.MerchantName, MerchantCity: city, RecurrenceURL: RecurrenceHost + recID, Description: r.Description}
	if r.FirstPayment > 0 { // "jornada 3": the first payment is an immediate charge of the same code
		p.Key, p.Amount, p.TxID = r.MerchantKey, r.FirstPayment, processor.TxID(r.ID)
	}
	code, err := brcode.Encode(p)
	if err != nil {
		return processor.ChargeQR{}, err
	}
	return processor.ChargeQR{ReferenceID: recID, CopyPaste: code}, nil
}

// RecurrenceID is the sandbox's idRec of an authorization created at at.
func RecurrenceID(authorizationID string, at time.Time) string {
	tail := strings.ToUpper(processor.TxID(authorizationID))
	if len(tail) > 11 {
		tail = tail[len(tail)-11:]
	}
	return "RR" + ISPB + at.UTC().Format("20060102") + tail
}

// DebitInstruction accepts an attempt of a debit and arms its outcome
// (once per instruction and attempt).
func (s *Sandbox) DebitInstruction(ctx context.Context, r processor.DebitRequest) (processor.Submission, error) {
	attempt := max(r.Attempt, 1)
	d := Delivery{Kind: KindDebit, ID: r.ID, Attempt: attempt}
	if c := r.Amount % 100; c == money.Cents(FailDebitCents) || (c == money.Cents(FailOnceDebitCents) && attempt == 1) {
		d.Reason = "insufficient funds in the payer's account"
	}
	ref := "sbx_debit_" + processor.TxID(r.ID)[20:]
	if attempt > 1 {
		ref += "_" + strconv.Itoa(attempt)
	}
	return processor.Submission{ReferenceID: ref}, s.laterAfter(ctx, d, max(s.SettleAfter, 0))
}

// SettleDebit notifies the outcome of a debit's attempt: paid, or failed
// with reason.
func (s *Sandbox) SettleDebit(ctx context.Context, instructionID string, attempt int, reason string) error {
	at := time.Now().UTC()
	n := processor.InstructionNotice{Attempt: attempt, Outcome: processor.OutcomePaid, EndToEndID: processor.EndToEndID(ISPB, at), At: at}
	if reason != "" {
		n = processor.InstructionNotice{Attempt: attempt, Outcome: processor.OutcomeFailed, At: at, Reason: reason}
	}
	return s.Inbox.InstructionNotice(ctx, instructionID, n)
}

// ApproveAuthorization simulates the payer consenting (and paying the
// first payment, when the QR carries one).
func (s *Sandbox) ApproveAuthorization(ctx context.Context, authorizationID string, firstPayment bool) error {
	at := time.Now().UTC()
	n := processor.AuthorizationNotice{Outcome: processor.OutcomeApproved, Payer: &DefaultPayer, At: at}
	if firstPayment {
		n.EndToEndID = processor.EndToEndID(ISPB, at)
	}
	return s.Inbox.AuthorizationNotice(ctx, authorizationID, n)
}

// RejectAuthorization simulates the payer refusing the consent.
func (s *Sandbox) RejectAuthorization(ctx context.Context, authorizationID string) error {
	return s.Inbox.AuthorizationNotice(ctx, authorizationID, processor.AuthorizationNotice{
		Outcome: processor.OutcomeRejected, At: time.Now().UTC(), Reason: "the payer refused the consent"})
}
