package processor

import (
	"context"
	"time"

	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/money"
)

// The credit bureau at the boundary: a dunning is submitted with its
// debtor and documents (RequestDunning) and the bureau's analysis comes
// back later as a DunningNotice (registered, or denied with a reason); a
// credit report is a query the bureau answers at once (CreditReport: the
// create returns it, so the use case calls it, like NewCharge).

// Outcomes of a dunning notice.
const (
	OutcomeProcessed = "processed"
	OutcomeDenied    = "denied"
)

// DunningRequest submits a dunning: the billing's value owed by Debtor,
// proved by Document (its bytes are read from the dunning's row by the
// submitting activity, never carried in a workflow payload).
type DunningRequest struct {
	ID           string
	BillingID    string
	Value        money.Cents
	Debtor       bureau.Debtor
	Document     []byte
	DocumentType string
}

// DunningNotice is the bureau's answer to a dunning: processed (the debtor
// is registered) or denied, with the reason.
type DunningNotice struct {
	// DunningID names the dunning, set by the Inbox; its workflow ignores a
	// notice naming another.
	DunningID string    `json:"dunningId,omitempty"`
	Outcome   string    `json:"outcome"`
	At        time.Time `json:"at"`
	Reason    string    `json:"reason,omitempty"`
}

// Final reports whether the notice concludes the dunning.
func (n DunningNotice) Final() bool {
	return n.Outcome == OutcomeProcessed || n.Outcome == OutcomeDenied
}

// ReportRequest asks the bureau for the credit report of a CPF/CNPJ.
type ReportRequest struct {
	ID      string
	CpfCnpj string
}

// CreditReport is the bureau's report: its reference, a score from 0 to
// 1000 and how many debts are registered against the document.
type CreditReport struct {
	ReferenceID  string
	Score        int
	Restrictions int
}

//go:generate go tool mockgen -destination=processormock/bureau.go -package=processormock . Bureau

// Bureau is the credit bureau (processor/bureau.go).
type Bureau interface {
	// RequestDunning submits a dunning; the bureau's analysis arrives as a
	// DunningNotice.
	RequestDunning(ctx context.Context, r DunningRequest) (Submission, error)
	// CreditReport asks for a credit report, answered at once (the
	// create returns it).
	CreditReport(ctx context.Context, r ReportRequest) (CreditReport, error)
}

// BureauInbox takes the bureau's analysis of a dunning.
type BureauInbox interface {
	DunningNotice(ctx context.Context, dunningID string, n DunningNotice) error
}
