package domain

import "github.com/jangada/jangada/money"

// TypeMED is the transaction type of a MED dispute.
const TypeMED = "MED"

// MedBlock is what a MED record holds beyond the transaction's columns.
type MedBlock struct {
	DepositID string `json:"depositId"`
	Reason    string `json:"reason"`
	// Blocked is what the opening moved from available to locked (at most
	// the disputed amount: what the wallet held then); Shortfall is the
	// rest, money already spent (docs/ledger.md). Returned is what went
	// back to the payer on ACCEPTED.
	Blocked   money.Cents `json:"blocked"`
	Shortfall money.Cents `json:"shortfall"`
	Returned  money.Cents `json:"returned,omitempty"`
	// AutoContest is whether the service contests on its own (decided at
	// opening from the account's autoContest and the amount).
	AutoContest     bool         `json:"autoContest"`
	DefenceDeadline Time         `json:"defenceDeadline"`
	ExpiresAt       Time         `json:"expiresAt"`
	Evidence        *MedEvidence `json:"evidence,omitempty"`
	ResolvedAt      *Time        `json:"resolvedAt,omitempty"`
}

// MedEvidence is the defence sent for a dispute: the merchant's (or the
// automatic contest's) description and the files' metadata (their bytes
// are stored apart, by content hash: table med_evidence_files).
type MedEvidence struct {
	Description string         `json:"description"`
	Files       []EvidenceFile `json:"files"`
	Automatic   bool           `json:"automatic"`
	SentAt      Time           `json:"sentAt"`
	// ForwardedAt is when the defence reached the processor (internal).
	ForwardedAt *Time `json:"forwardedAt,omitempty"`
}

// EvidenceFile describes one stored evidence file.
type EvidenceFile struct {
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Size        int    `json:"size"`
	SHA256      string `json:"sha256"`
}

// PublicMED is the med block of a MED record as merchants see it.
type PublicMED struct {
	TransactionID   string             `json:"transactionId"`
	Reason          string             `json:"reason"`
	BlockedAmount   money.Cents        `json:"blockedAmount"`
	ShortfallAmount money.Cents        `json:"shortfallAmount"`
	ReturnedAmount  money.Cents        `json:"returnedAmount"`
	AutoContest     bool               `json:"autoContest"`
	DefenceDeadline Time               `json:"defenceDeadline"`
	ExpiresAt       Time               `json:"expiresAt"`
	Evidence        *PublicMedEvidence `json:"evidence,omitempty"`
	ResolvedAt      *Time              `json:"resolvedAt,omitempty"`
}

// PublicMedEvidence is the defence as merchants see it.
type PublicMedEvidence struct {
	Description string         `json:"description"`
	Files       []EvidenceFile `json:"files"`
	Automatic   bool           `json:"automatic"`
	SentAt      Time           `json:"sentAt"`
}
