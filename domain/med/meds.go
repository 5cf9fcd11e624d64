package med

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// MED (Mecanismo Especial de Devolução) disputes: a payer's PSP reports an
// infraction (fraud, a scam) against a PIX the merchant received; the
// disputed value is blocked in the merchant's wallet while the receiving
// participant analyses the case, then returned to the payer (ACCEPTED) or
// released (REJECTED, CANCELED, EXPIRED). The record is a transaction of
// type MED (a block of the account's money: architecture.md, "Where its
// record lives"); its specifics live in Details.Med.

// MED statuses, as the spec names them.
const (
	MedOpen        = "OPEN"
	MedUnderReview = "UNDER_REVIEW"
	MedAccepted    = "ACCEPTED"
	MedRejected    = "REJECTED"
	MedCanceled    = "CANCELED"
	MedExpired     = "EXPIRED"
)

// MedStatuses lists the statuses the list filter accepts.
var MedStatuses = []string{MedOpen, MedUnderReview, MedAccepted, MedRejected, MedCanceled, MedExpired}

// MedOutcomes are the processor's final decisions (the sandbox resolve route).
var MedOutcomes = []string{MedAccepted, MedRejected, MedCanceled, MedExpired}

// MedClosed reports whether a dispute has its final outcome.
func MedClosed(status string) bool {
	return status == MedAccepted || status == MedRejected || status == MedCanceled || status == MedExpired
}

// The deadlines of the BCB MED rules (Regulamento do Pix, Resolução BCB
// nº 1/2020 as amended, and the DICT operational manual), as Jangada keeps
// them (docs/ledger.md, "MED disputes"):
const (
	// MedOpeningLimit: an infraction may be reported up to 80 days after
	// the PIX was paid; a later one is refused.
	MedOpeningLimit = 80 * 24 * time.Hour
	// MedAnalysisWindow: the receiving participant (our processor) must
	// conclude its analysis within 7 days of the notification.
	MedAnalysisWindow = 7 * 24 * time.Hour
	// MedDefenceWindow: the merchant's defence must reach the processor
	// before its analysis ends, so the window closes a day earlier (6 days
	// after opening); then the dispute goes UNDER_REVIEW without one.
	MedDefenceWindow = MedAnalysisWindow - 24*time.Hour
	// MedReturnLimit: a devolução through MED can be made, in one or more
	// parts, up to 90 days after the PIX; a dispute still undecided then
	// EXPIRES and its block is released.
	MedReturnLimit = 90 * 24 * time.Hour
)

// AutoContestFloor: the automatic contest applies to disputes above R$ 50.
const AutoContestFloor money.Cents = 5000

// AutoContests reports whether the service defends a dispute of amount on
// its own (the account's autoContest, on by default, above R$ 50): the
// merchant's evidence is then refused with a 403.
func AutoContests(f domain.Features, amount money.Cents) bool {
	return f.Enabled(domain.FeatureAutoContest) && amount > AutoContestFloor
}

// MedProtocol is the dispute's protocol number, shown to the merchant and
// accepted by GET /meds/get: MED, the opening day and ten digits derived
// from the record's id.
func MedProtocol(id string, opened time.Time) string {
	var n uint64
	for _, c := range id {
		n = n*131 + uint64(c)
	}
	return fmt.Sprintf("MED%s%010d", opened.UTC().Format("20060102"), n%10_000_000_000)
}

// MedID is the id of the dispute against a deposit: one MED per received
// PIX, whoever writes it first (the Inbox, the workflow's guard).
func MedID(depositID string) string { return domain.DerivedID("", "med:"+depositID) }

// MedOpeningRequest is the body of the sandbox route that simulates an
// infraction report (POST /v1/sandbox/meds).
type MedOpeningRequest struct {
	TransactionID *string      `json:"transactionId"`
	Amount        *money.Cents `json:"amount"`
	Reason        *string      `json:"reason"`
}

// MedOpening is a validated infraction report: Amount 0 disputes the whole
// deposit.
type MedOpening struct {
	TransactionID string
	Amount        money.Cents
	Reason        string
}

// Validate checks the fields; the amount against the deposit is the use
// case's check (it needs the deposit).
func (r MedOpeningRequest) Validate() (MedOpening, error) {
	var o MedOpening
	var err error
	if o.TransactionID, err = domain.Text("transactionId", r.TransactionID, 1, 64, true); err != nil {
		return o, err
	}
	if r.Amount != nil {
		if o.Amount, err = domain.Amount("amount", r.Amount, 1, money.Cents(100_000_000)); err != nil {
			return o, err
		}
	}
	if o.Reason, err = domain.Text("reason", r.Reason, 3, 500, true); err != nil {
		return o, err
	}
	return o, nil
}

// MedResolveRequest is the body of POST /v1/sandbox/meds/{id}/resolve.
type MedResolveRequest struct {
	Status *string `json:"status"`
}

// Validate requires one of the final outcomes.
func (r MedResolveRequest) Validate() (string, error) {
	if r.Status == nil {
		return "", domain.Invalid("status", "is required")
	}
	s := strings.ToUpper(strings.TrimSpace(*r.Status))
	for _, o := range MedOutcomes {
		if s == o {
			return s, nil
		}
	}
	return "", domain.Invalid("status", "must be one of %s", strings.Join(MedOutcomes, ", "))
}

// Evidence limits: each file at most MaxEvidenceFile bytes (a compressed
// scan or a screenshot; with base64 in JSON, three of them still fit the
// API's 1 MiB body cap), at most MaxEvidenceFiles files, of the types in
// EvidenceTypes (sniffed from the bytes, never taken from the client).
const (
	MaxEvidenceFile  = 256 << 10
	MaxEvidenceFiles = 3
)

// EvidenceTypes are the content types accepted as evidence.
var EvidenceTypes = []string{"application/pdf", "image/png", "image/jpeg"}

// EvidenceAttachment is one file of a JSON evidence body.
type EvidenceAttachment struct {
	Name          *string `json:"name"`
	ContentBase64 *string `json:"contentBase64"`
}

// EvidenceRequest is the body of POST /meds/{id}/evidence: JSON with
// attachments, or multipart with the same description and files (the
// handler reads those into Files).
type EvidenceRequest struct {
	Description *string              `json:"description"`
	Attachments []EvidenceAttachment `json:"attachments"`
	// Files are the multipart files, read by the handler.
	Files []UploadedFile `json:"-"`
}

// UploadedFile is a file as received: its name and bytes.
type UploadedFile struct {
	Name  string
	Bytes []byte
	// TooBig is set by a reader that stopped at the cap.
	TooBig bool
}

// EvidenceContent is one validated evidence file with its bytes.
type EvidenceContent struct {
	domain.EvidenceFile
	Bytes []byte
}

// NewEvidence is a validated evidence submission.
type NewEvidence struct {
	Description string
	Files       []EvidenceContent
}

// Validate checks the description and every file: size cap, type sniffed
// from the bytes, name; files are named in errors as attachments[i] (JSON)
// or files[i] (multipart).
func (r EvidenceRequest) Validate() (NewEvidence, error) {
	var n NewEvidence
	var err error
	if n.Description, err = domain.Text("description", r.Description, 10, 4000, true); err != nil {
		return n, err
	}
	field, files := "files", r.Files
	if len(r.Attachments) > 0 {
		if len(r.Files) > 0 {
			return n, domain.Invalidf("send attachments (JSON) or files (multipart), not both")
		}
		field, files = "attachments", make([]UploadedFile, len(r.Attachments))
		for i, a := range r.Attachments {
			name := fmt.Sprintf("attachments[%d]", i)
			if a.ContentBase64 == nil {
				return n, domain.Invalid(name+".contentBase64", "is required")
			}
			raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(*a.ContentBase64))
			if err != nil {
				return n, domain.Invalid(name+".contentBase64", "must be standard base64")
			}
			if a.Name == nil {
				return n, domain.Invalid(name+".name", "is required")
			}
			files[i] = UploadedFile{Name: *a.Name, Bytes: raw}
		}
	}
	if len(files) > MaxEvidenceFiles {
		return n, domain.Invalid(field, "must hold at most %d files", MaxEvidenceFiles)
	}
	for i, f := range files {
		name := fmt.Sprintf("%s[%d]", field, i)
		c, err := evidenceFile(name, f)
		if err != nil {
			return n, err
		}
		n.Files = append(n.Files, c)
	}
	return n, nil
}

// evidenceFile checks one file and describes it.
func evidenceFile(field string, f UploadedFile) (EvidenceContent, error) {
	name := strings.TrimSpace(f.Name)
	if name == "" || len(name) > 200 || strings.ContainsAny(name, "\x00/\\") {
		return EvidenceContent{}, domain.Invalid(field+".name", "must be a file name of 1 to 200 characters without slashes")
	}
	if f.TooBig || len(f.Bytes) > MaxEvidenceFile {
		return EvidenceContent{}, domain.Invalid(field, "must be at most %d bytes", MaxEvidenceFile)
	}
	if len(f.Bytes) == 0 {
		return EvidenceContent{}, domain.Invalid(field, "is empty")
	}
	ct := strings.Split(http.DetectContentType(f.Bytes), ";")[0]
	ok := false
	for _, t := range EvidenceTypes {
		ok = ok || ct == t
	}
	if !ok {
		return EvidenceContent{}, domain.Invalid(field, "must be a PDF, PNG or JPEG file (its content is %s)", ct)
	}
	return EvidenceContent{EvidenceFile: domain.EvidenceFile{Name: name, ContentType: ct, Size: len(f.Bytes), SHA256: sha256Hex(f.Bytes)},
		Bytes: f.Bytes}, nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// PublicView is the merchant's view of the block.
func PublicView(m domain.MedBlock) *domain.PublicMED {
	p := &domain.PublicMED{TransactionID: m.DepositID, Reason: m.Reason, BlockedAmount: m.Blocked, ShortfallAmount: m.Shortfall,
		ReturnedAmount: m.Returned, AutoContest: m.AutoContest, DefenceDeadline: m.DefenceDeadline, ExpiresAt: m.ExpiresAt,
		ResolvedAt: m.ResolvedAt}
	if e := m.Evidence; e != nil {
		p.Evidence = &domain.PublicMedEvidence{Description: e.Description, Files: e.Files, Automatic: e.Automatic, SentAt: e.SentAt}
	}
	return p
}

// deref is s, or "" when nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// The protocol is stored as the record's externalReference (so GET
// /meds/get finds it) and the infraction id as its referenceId.
var _ = domain.RegisterView(func(t domain.Transaction, p *domain.PublicTransaction) {
	if m := t.Details.V.Med; m != nil {
		p.Protocol, p.InfractionID, p.ExternalReference, p.ReferenceID = deref(t.ExternalReference), t.ReferenceID, nil, nil
		p.Med = PublicView(*m)
	}
}, domain.TypeMED)
