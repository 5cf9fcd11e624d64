package bureau

import (
	"encoding/base64"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
)

// The credit bureau: a dunning registers the debtor of an OVERDUE billing
// with the bureau (negativação); a report is the bureau's credit report on
// a CPF/CNPJ. Both are priced per request and debited from the account's
// withdrawable money when requested.

// Credit bureau fees (the spec's reference prices).
const (
	DunningFee = money.Cents(1290) // R$ 12.90 per dunning
	ReportFee  = money.Cents(1990) // R$ 19.90 per report
)

// DunningTypeCreditBureau is the one dunning type.
const DunningTypeCreditBureau = "CREDIT_BUREAU"

// Dunning statuses: requested (fee debited, not yet with the bureau),
// with the bureau for analysis of the documents, registered, or refused
// (the fee returned).
const (
	DunningPending          = "PENDING"
	DunningAwaitingApproval = "AWAITING_APPROVAL"
	DunningProcessed        = "PROCESSED"
	DunningDenied           = "DENIED"
)

// DunningStatuses lists the statuses a list may filter on.
var DunningStatuses = []string{DunningPending, DunningAwaitingApproval, DunningProcessed, DunningDenied}

// DunningTypes are a dunning's types, read in any case.
var DunningTypes = domain.Folded(DunningTypeCreditBureau)

// Enums are the request's closed sets.
func (DunningRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"type": DunningTypes}
}

// Enums are the dunning's closed sets.
func (DunningView) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(DunningStatuses...), "type": domain.Exact(DunningTypes.Values...)}
}

// Enums are the report's closed sets.
func (Report) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(ReportCompleted)}
}

// Report statuses: the bureau answers a report at once.
const ReportCompleted = "COMPLETED"

// MaxDunningDocument bounds the documents file of a dunning: the whole
// form fits in the API's 1 MiB request body (the Idempotency-Key replay
// hashes bodies up to that size).
const MaxDunningDocument = 1000 << 10

// DunningDocumentTypes are the types a documents file may have, as
// detected from its bytes (not from the name or the header a client sent).
var DunningDocumentTypes = []string{"application/pdf", "image/png", "image/jpeg"}

var postalCodePattern = regexp.MustCompile(`^\d{5}-?\d{3}$`)

// DunningRequest is the body of POST /bureau/dunnings/create: the
// multipart form CONTRACTS.md names (Document is then the `documents`
// file), or the same fields as JSON with `documents` as {name,
// contentBase64}.
type DunningRequest struct {
	Payment               *string `json:"payment" jsonschema:"required"`
	Type                  *string `json:"type" jsonschema:"required"`
	Description           *string `json:"description"`
	CustomerName          *string `json:"customerName" jsonschema:"required"`
	CustomerCpfCnpj       *string `json:"customerCpfCnpj" jsonschema:"required"`
	CustomerPrimaryPhone  *string `json:"customerPrimaryPhone"`
	CustomerEmail         *string `json:"customerEmail"`
	CustomerPostalCode    *string `json:"customerPostalCode" jsonschema:"required"`
	CustomerAddress       *string `json:"customerAddress" jsonschema:"required"`
	CustomerAddressNumber *string `json:"customerAddressNumber" jsonschema:"required"`
	CustomerComplement    *string `json:"customerComplement"`
	CustomerProvince      *string `json:"customerProvince" jsonschema:"required"`
	CustomerCity          *string `json:"customerCity" jsonschema:"required"`
	CustomerState         *string `json:"customerState" jsonschema:"required"`
	// Documents is the file of a JSON body.
	Documents *FileRequest `json:"documents" jsonschema:"required"`
	// Document is the multipart file's bytes (nil: none sent); DocumentName its name.
	Document     []byte `json:"-"`
	DocumentName string `json:"-"`
}

// FileRequest is a file sent inside a JSON body.
type FileRequest struct {
	Name          *string `json:"name"`
	ContentBase64 *string `json:"contentBase64"`
}

// Debtor is a dunning's debtor as the bureau registers them.
type Debtor struct {
	Name          string  `json:"customerName"`
	CpfCnpj       string  `json:"customerCpfCnpj"`
	PrimaryPhone  *string `json:"customerPrimaryPhone,omitempty"`
	Email         *string `json:"customerEmail,omitempty"`
	PostalCode    string  `json:"customerPostalCode"`
	Address       string  `json:"customerAddress"`
	AddressNumber string  `json:"customerAddressNumber"`
	Complement    *string `json:"customerComplement,omitempty"`
	Province      string  `json:"customerProvince"`
	City          string  `json:"customerCity"`
	State         string  `json:"customerState"`
}

// NewDunning is a validated dunning request.
type NewDunning struct {
	IdempotencyKey string
	Payment        string
	Description    string
	Debtor         Debtor
	Document       []byte
	DocumentName   string
	DocumentType   string
}

// Validate checks the form: every field names itself when wrong.
func (b DunningRequest) Validate() (NewDunning, error) {
	var n NewDunning
	var err error
	if n.Payment, err = domain.Text("payment", b.Payment, 1, 64, true); err != nil {
		return n, err
	}
	if b.Type == nil {
		return n, domain.Invalid("type", "is required: %s", DunningTypeCreditBureau)
	}
	if _, ok := DunningTypes.Match(*b.Type); !ok {
		return n, domain.Invalid("type", "must be %s", DunningTypeCreditBureau)
	}
	if n.Description, err = domain.Text("description", b.Description, 0, 500, false); err != nil {
		return n, err
	}
	d := &n.Debtor
	if d.Name, err = domain.Text("customerName", b.CustomerName, 1, 120, true); err != nil {
		return n, err
	}
	if d.CpfCnpj, err = domain.TaxID("customerCpfCnpj", b.CustomerCpfCnpj); err != nil {
		return n, err
	}
	if d.PrimaryPhone, err = store.Phone("customerPrimaryPhone", b.CustomerPrimaryPhone); err != nil {
		return n, err
	}
	if b.CustomerEmail != nil {
		e, err := domain.Email("customerEmail", b.CustomerEmail)
		if err != nil {
			return n, err
		}
		d.Email = &e
	}
	if b.CustomerPostalCode == nil || !postalCodePattern.MatchString(strings.TrimSpace(*b.CustomerPostalCode)) {
		return n, domain.Invalid("customerPostalCode", "must be a CEP of 8 digits (01310-100)")
	}
	d.PostalCode = document.Digits(*b.CustomerPostalCode)
	if d.Address, err = domain.Text("customerAddress", b.CustomerAddress, 1, 200, true); err != nil {
		return n, err
	}
	if d.AddressNumber, err = domain.Text("customerAddressNumber", b.CustomerAddressNumber, 1, 20, true); err != nil {
		return n, err
	}
	if d.Complement, err = domain.OptionalText("customerComplement", b.CustomerComplement, 0, 100); err != nil {
		return n, err
	}
	if d.Province, err = domain.Text("customerProvince", b.CustomerProvince, 1, 100, true); err != nil {
		return n, err
	}
	if d.City, err = domain.Text("customerCity", b.CustomerCity, 1, 100, true); err != nil {
		return n, err
	}
	if b.CustomerState == nil {
		return n, domain.Invalid("customerState", "is required: the state's two letters (UF), such as SP")
	}
	st, err := store.State("customerState", b.CustomerState)
	if err != nil {
		return n, err
	}
	d.State = *st
	if b.Document == nil && b.Documents != nil {
		if b.Documents.ContentBase64 == nil {
			return n, domain.Invalid("documents.contentBase64", "is required")
		}
		raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(*b.Documents.ContentBase64))
		if err != nil {
			return n, domain.Invalid("documents.contentBase64", "must be standard base64")
		}
		b.Document = raw
		if b.Documents.Name != nil {
			b.DocumentName = *b.Documents.Name
		}
	}
	if b.Document == nil {
		return n, domain.Invalid("documents", "is required: the file that proves the debt (PDF, PNG or JPEG)")
	}
	if len(b.Document) == 0 || len(b.Document) > MaxDunningDocument {
		return n, domain.Invalid("documents", "must have from 1 byte to %d KiB", MaxDunningDocument>>10)
	}
	n.DocumentType = http.DetectContentType(b.Document)
	if !slices.Contains(DunningDocumentTypes, n.DocumentType) {
		return n, domain.Invalid("documents", "must be a PDF, PNG or JPEG file (its content is %s)", n.DocumentType)
	}
	n.Document = b.Document
	n.DocumentName = strings.TrimSpace(b.DocumentName)
	if len(n.DocumentName) > 200 {
		n.DocumentName = n.DocumentName[:200]
	}
	return n, nil
}

// Dunning is a stored dunning.
type Dunning struct {
	ID           string               `db:"id" json:"id"`
	AccountID    string               `db:"account_id" json:"-"`
	Status       string               `db:"status" json:"status"`
	Type         string               `db:"type" json:"type"`
	Payment      string               `db:"payment" json:"payment"`
	Value        money.Cents          `db:"value" json:"value"`
	Fee          money.Cents          `db:"fee" json:"fee"`
	Description  string               `db:"description" json:"description"`
	Debtor       domain.JSONB[Debtor] `db:"debtor" json:"-"`
	DocumentName string               `db:"document_name" json:"documentName"`
	DocumentType string               `db:"document_type" json:"documentType"`
	ReferenceID  *string              `db:"reference_id" json:"-"`
	Reason       *string              `db:"reason" json:"reason,omitempty"`
	CreatedAt    domain.Time          `db:"created_at" json:"dateCreated"`
	UpdatedAt    domain.Time          `db:"updated_at" json:"-"`
}

// DunningView is a dunning as the API shows it: the spec's item fields
// (id, status, type, payment, customerName, customerCpfCnpj, dateCreated)
// and the value, fee and debtor's address.
type DunningView struct {
	ID          string      `json:"id"`
	Status      string      `json:"status"`
	Type        string      `json:"type"`
	Payment     string      `json:"payment"`
	Value       money.Cents `json:"value"`
	Fee         money.Cents `json:"fee"`
	Description string      `json:"description,omitempty"`
	Debtor
	DocumentName string      `json:"documentName,omitempty"`
	Reason       *string     `json:"reason,omitempty"`
	DateCreated  domain.Time `json:"dateCreated"`
}

// View is the dunning's public form.
func (d Dunning) View() DunningView {
	return DunningView{ID: d.ID, Status: d.Status, Type: d.Type, Payment: d.Payment, Value: d.Value, Fee: d.Fee,
		Description: d.Description, Debtor: d.Debtor.V, DocumentName: d.DocumentName, Reason: d.Reason, DateCreated: d.CreatedAt}
}

// DunningFilter is the dunning list's query: an offset and a limit (the
// spec's own paging for this list, limit at most 100) and optional filters.
type DunningFilter struct {
	Offset, Limit         int
	Status, Type, Payment string
}

// DunningSimulation is the answer of GET /bureau/dunnings/simulate.
type DunningSimulation struct {
	Payment        string      `json:"payment"`
	CanBeRequested bool        `json:"canBeRequested"`
	Reason         string      `json:"reason,omitempty"`
	Fee            money.Cents `json:"fee"`
	Value          money.Cents `json:"value"`
}

// DunningEligibility is the rule of a dunning: an OVERDUE billing of the
// account, with no dunning that still stands (a DENIED one may be asked
// again), requested by a verified account. It returns "" when a dunning
// can be requested, else the reason it cannot.
func DunningEligibility(acct domain.Account, billingStatus string, existing *Dunning) string {
	switch {
	case !acct.Verified:
		return "the account is not verified: a dunning needs a verified account"
	case billingStatus != billing.BillingOverdue:
		return "the billing is " + billingStatus + ": only an OVERDUE billing can be sent to the credit bureau"
	case existing != nil && existing.Status != DunningDenied:
		return "the billing already has dunning " + existing.ID + " (" + existing.Status + ")"
	}
	return ""
}

// ReportRequest is the body of POST /bureau/reports/create.
type ReportRequest struct {
	Customer *string `json:"customer" jsonschema:"required"`
	CpfCnpj  *string `json:"cpfCnpj" jsonschema:"required"`
}

// NewReport is a validated report request.
type NewReport struct {
	IdempotencyKey string
	CustomerID     string
	CpfCnpj        string
}

// Validate checks the body.
func (b ReportRequest) Validate() (NewReport, error) {
	var n NewReport
	var err error
	if n.CustomerID, err = domain.Text("customer", b.Customer, 1, 64, true); err != nil {
		return n, err
	}
	if n.CpfCnpj, err = domain.TaxID("cpfCnpj", b.CpfCnpj); err != nil {
		return n, err
	}
	return n, nil
}

// Report is a stored credit report: the contract's fields and what the
// bureau found (a score from 0 to 1000 and the debts registered).
type Report struct {
	ID           string      `db:"id" json:"id"`
	AccountID    string      `db:"account_id" json:"-"`
	Status       string      `db:"status" json:"status"`
	Customer     string      `db:"customer_id" json:"customer"`
	CpfCnpj      string      `db:"cpf_cnpj" json:"cpfCnpj"`
	Fee          money.Cents `db:"fee" json:"fee"`
	Score        int         `db:"score" json:"score"`
	Restrictions int         `db:"restrictions" json:"restrictions"`
	ReferenceID  string      `db:"reference_id" json:"-"`
	CreatedAt    domain.Time `db:"created_at" json:"createdAt"`
}
