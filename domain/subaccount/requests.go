package subaccount

import (
	"net/url"
	"strings"
	"time"

	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// MaxDocument caps the PJ proof document (bytes): enough for a compressed
// scan as PDF or a photo, and the whole multipart request stays under the
// API's 1 MiB body cap.
const MaxDocument = 768 << 10

// DocumentTypes are the content types accepted for the PJ proof document
// (sniffed from the bytes, not taken from the client).
var DocumentTypes = []string{"application/pdf", "image/png", "image/jpeg"}

// File is an uploaded PJ proof document.
type File struct {
	Info  FileInfo
	Bytes []byte
}

// CreateRequest is the body of POST /subaccount/create: JSON for PF,
// multipart (the same names as form fields plus the document file) for PJ.
type CreateRequest struct {
	PersonType        *string `json:"personType"`
	FullName          *string `json:"fullName"`
	CPF               *string `json:"cpf"`
	BirthDate         *string `json:"birthDate"`
	PostalCode        *string `json:"postalCode"`
	ExternalReference *string `json:"externalReference"`
	PortalEmail       *string `json:"portalEmail"`
	PortalPassword    *string `json:"portalPassword"`
	CNPJ              *string `json:"cnpj"`
	CompanyName       *string `json:"companyName"`
	Site              *string `json:"site"`
	// Document is the multipart file; JSON cannot carry it.
	Document *File `json:"-"`
	// Multipart tells Validate the body came as multipart/form-data.
	Multipart bool `json:"-"`
}

// NewSubaccount is a validated create request.
type NewSubaccount struct {
	// IdempotencyKey is the request's Idempotency-Key (scoped by its API
	// key), set by the handler: the sub-account's id is derived from it, so
	// that a retry whose answer was lost finds the sub-account it made.
	IdempotencyKey                                                  string
	PersonType, Name, CPF, BirthDate, PostalCode, ExternalReference string
	CNPJ, CompanyName, Site                                         *string
	Document                                                        *File
	// PortalEmail and PortalPassword are set together or not at all.
	PortalEmail, PortalPassword *string
}

// Today is the clock of birth date checks; tests may replace it.
var Today = func() time.Time { return time.Now() }

// The closed sets of a sub-account's requests, read in any case.
var (
	PersonTypes = domain.Folded(PersonPF, PersonPJ)
	Statuses    = domain.Folded(StatusActive, StatusDisabled)
	LockModes   = domain.Folded(LockFull, LockWithdrawOnly, LockDepositOnly)
	// PortalStates are every portal state a record may show.
	PortalStates = domain.Exact(PortalNone, PortalActive, PortalDisabled, PortalPendingPassword,
		PortalInvitePending, PortalPendingVerification)
	// ShownLockModes are a record's lockMode: NONE or a lock's mode.
	ShownLockModes = domain.Exact(append([]string{LockNone}, LockModes.Values...)...)
)

// Enums are the request's closed sets.
func (CreateRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"personType": PersonTypes}
}

// Enums are the request's closed sets.
func (UpdateRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": Statuses}
}

// Enums are the request's closed sets.
func (LockRequest) Enums() map[string]domain.Enum { return map[string]domain.Enum{"mode": LockModes} }

// Enums are the record's closed sets.
func (View) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"personType": domain.Exact(PersonTypes.Values...), "status": domain.Exact(Statuses.Values...),
		"lockMode": ShownLockModes, "portalState": PortalStates}
}

// Enums are the record's closed sets.
func (Lean) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(Statuses.Values...), "lockMode": ShownLockModes}
}

// Enums are the portal block's closed sets.
func (PortalView) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"state": PortalStates}
}

// Validate checks a create request.
func (b CreateRequest) Validate() (NewSubaccount, error) {
	var n NewSubaccount
	var err error
	n.PersonType = PersonPF
	if b.Multipart {
		n.PersonType = PersonPJ
	}
	if b.PersonType != nil {
		n.PersonType, _ = PersonTypes.Match(*b.PersonType)
	}
	if !PersonTypes.Has(n.PersonType) {
		return n, domain.Invalid("personType", "must be %s", PersonTypes)
	}
	if n.Name, err = domain.Text("fullName", b.FullName, 1, 120, true); err != nil {
		return n, err
	}
	if n.CPF, err = CPF("cpf", b.CPF); err != nil {
		return n, err
	}
	if n.BirthDate, err = BirthDate("birthDate", b.BirthDate, Today()); err != nil {
		return n, err
	}
	if n.PostalCode, err = PostalCode("postalCode", b.PostalCode); err != nil {
		return n, err
	}
	if n.ExternalReference, err = domain.Text("externalReference", b.ExternalReference, 1, 64, true); err != nil {
		return n, err
	}
	if err := n.portal(b); err != nil {
		return n, err
	}
	if n.PersonType == PersonPF {
		return n, nil
	}
	return n, n.company(b)
}

func (n *NewSubaccount) portal(b CreateRequest) error {
	switch {
	case b.PortalEmail == nil && b.PortalPassword == nil:
		return nil
	case b.PortalPassword == nil:
		return domain.Invalid("portalPassword", "is required with portalEmail")
	case b.PortalEmail == nil:
		return domain.Invalid("portalEmail", "is required with portalPassword")
	}
	email, err := domain.Email("portalEmail", b.PortalEmail)
	if err != nil {
		return err
	}
	pw, err := Password("portalPassword", b.PortalPassword)
	if err != nil {
		return err
	}
	email = strings.ToLower(email)
	n.PortalEmail, n.PortalPassword = &email, &pw
	return nil
}

func (n *NewSubaccount) company(b CreateRequest) error {
	if !b.Multipart {
		return domain.Invalid("document", "is required: a PJ sub-account is created with multipart/form-data carrying the document file")
	}
	if b.CNPJ == nil {
		return domain.Invalid("cnpj", "is required")
	}
	d, kind, ok := document.Classify(*b.CNPJ)
	if !ok || kind != document.KindCNPJ || !document.ValidCNPJ(d) {
		return domain.Invalid("cnpj", "must be a valid CNPJ")
	}
	n.CNPJ = &d
	name, err := domain.Text("companyName", b.CompanyName, 1, 120, true)
	if err != nil {
		return err
	}
	n.CompanyName, n.Name = &name, name
	if b.Site != nil && strings.TrimSpace(*b.Site) != "" {
		s := strings.TrimSpace(*b.Site)
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(s) > 200 {
			return domain.Invalid("site", "must be an http or https URL of at most 200 characters")
		}
		n.Site = &s
	}
	if b.Document == nil || b.Document.Info.Size == 0 {
		return domain.Invalid("document", "is required: the PJ proof document file")
	}
	if b.Document.Info.Size > MaxDocument {
		return domain.Invalid("document", "must be at most %d bytes", MaxDocument)
	}
	okType := false
	for _, t := range DocumentTypes {
		okType = okType || b.Document.Info.ContentType == t
	}
	if !okType {
		return domain.Invalid("document", "must be a PDF, PNG or JPEG file")
	}
	n.Document = b.Document
	return nil
}

// CPF requires a CPF with valid check digits, with or without punctuation.
func CPF(field string, v *string) (string, error) {
	if v == nil {
		return "", domain.Invalid(field, "is required")
	}
	d, kind, ok := document.Classify(*v)
	if !ok || kind != document.KindCPF || !document.ValidCPF(d) {
		return "", domain.Invalid(field, "must be a valid CPF")
	}
	return d, nil
}

// BirthDate requires a YYYY-MM-DD date in the past and after 1900.
func BirthDate(field string, v *string, today time.Time) (string, error) {
	if v == nil {
		return "", domain.Invalid(field, "is required")
	}
	s := strings.TrimSpace(*v)
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return "", domain.Invalid(field, "must be a date as YYYY-MM-DD")
	}
	if t.Year() < 1900 || !t.Before(today) {
		return "", domain.Invalid(field, "must be a past date after 1900")
	}
	return s, nil
}

// PostalCode requires a CEP: 8 digits, with or without the hyphen.
func PostalCode(field string, v *string) (string, error) {
	if v == nil {
		return "", domain.Invalid(field, "is required")
	}
	s := strings.Replace(strings.TrimSpace(*v), "-", "", 1)
	if len(s) != 8 || strings.Trim(s, "0123456789") != "" || s == "00000000" {
		return "", domain.Invalid(field, "must be a CEP of 8 digits")
	}
	return s, nil
}

// ID requires a sub-account id field.
func ID(field string, v *string) (string, error) {
	return domain.Text(field, v, 1, 64, true)
}

// Ref names a sub-account by id or by externalReference.
type Ref struct {
	ID                *string `json:"id"`
	ExternalReference *string `json:"externalReference"`
}

// Validate requires one of the two and returns it (id first).
func (r Ref) Validate() (string, error) {
	if r.ID != nil && strings.TrimSpace(*r.ID) != "" {
		return ID("id", r.ID)
	}
	if r.ExternalReference != nil && strings.TrimSpace(*r.ExternalReference) != "" {
		return domain.Text("externalReference", r.ExternalReference, 1, 64, true)
	}
	return "", domain.Invalid("id", "or externalReference is required")
}

// UpdateRequest is the body of POST /subaccount/update.
type UpdateRequest struct {
	ID     *string `json:"id"`
	Name   *string `json:"name"`
	Status *string `json:"status"`
}

// Update is a validated update: nil fields stay as they are.
type Update struct {
	ID           string
	Name, Status *string
}

// Validate checks an update: a name, a status of ACTIVE or DISABLED, or both.
func (b UpdateRequest) Validate() (Update, error) {
	var u Update
	var err error
	if u.ID, err = ID("id", b.ID); err != nil {
		return u, err
	}
	if b.Name == nil && b.Status == nil {
		return u, domain.Invalid("name", "or status is required")
	}
	if u.Name, err = domain.OptionalText("name", b.Name, 1, 120); err != nil {
		return u, err
	}
	if b.Status != nil {
		s, ok := Statuses.Match(*b.Status)
		if !ok {
			return u, domain.Invalid("status", "must be %s", Statuses)
		}
		u.Status = &s
	}
	return u, nil
}

// IDRequest is a body naming one sub-account (delete, unlock).
type IDRequest struct {
	ID *string `json:"id"`
}

// Validate requires the id.
func (b IDRequest) Validate() (string, error) { return ID("id", b.ID) }

// LockRequest is the body of POST /subaccount/lock.
type LockRequest struct {
	ID   *string `json:"id"`
	Mode *string `json:"mode"`
}

// Lock is a validated lock request.
type Lock struct{ ID, Mode string }

// Validate requires the id and a mode of full, withdraw_only or deposit_only.
func (b LockRequest) Validate() (Lock, error) {
	var l Lock
	var err error
	if l.ID, err = ID("id", b.ID); err != nil {
		return l, err
	}
	if b.Mode == nil {
		return l, domain.Invalid("mode", "is required")
	}
	var ok bool
	if l.Mode, ok = LockModes.Match(*b.Mode); !ok {
		return l, domain.Invalid("mode", "must be %s", LockModes)
	}
	return l, nil
}

// LimitsRequest is the body of POST /subaccount/set-limits. A limit sent
// as null, or left out, is removed: the request states all three limits.
type LimitsRequest struct {
	ID             *string      `json:"id"`
	Daily          *money.Cents `json:"daily" jsonschema:"nullable,description=null: no limit"`
	Monthly        *money.Cents `json:"monthly" jsonschema:"nullable,description=null: no limit"`
	PerTransaction *money.Cents `json:"perTransaction" jsonschema:"nullable,description=null: no limit"`
}

// SetLimits is a validated set-limits request.
type SetLimits struct {
	ID string
	Limits
}

// Validate checks each limit is positive.
func (b LimitsRequest) Validate() (SetLimits, error) {
	var s SetLimits
	var err error
	if s.ID, err = ID("id", b.ID); err != nil {
		return s, err
	}
	for _, l := range []struct {
		name string
		v    *money.Cents
	}{{"daily", b.Daily}, {"monthly", b.Monthly}, {"perTransaction", b.PerTransaction}} {
		if l.v != nil && (*l.v <= 0 || *l.v > domain.MaxTransfer*1000) {
			return s, domain.Invalid(l.name, "must be a positive amount (or null for no limit)")
		}
	}
	s.Limits = Limits{Daily: b.Daily, Monthly: b.Monthly, PerTransaction: b.PerTransaction}
	return s, nil
}

// PricingRequest is the body of POST /subaccount/set-pricing: the
// surcharges added to the main account's fee (absent is zero).
type PricingRequest struct {
	ID            *string        `json:"id"`
	PixInPercent  *money.Percent `json:"pixInPercent"`
	PixInFixed    *money.Cents   `json:"pixInFixed"`
	PixOutPercent *money.Percent `json:"pixOutPercent"`
	PixOutFixed   *money.Cents   `json:"pixOutFixed"`
}

// SetPricing is a validated set-pricing request.
type SetPricing struct {
	ID        string
	Surcharge domain.Fees
}

// Validate checks the surcharges: non-negative, percentages below 100.
func (b PricingRequest) Validate() (SetPricing, error) {
	var s SetPricing
	var err error
	if s.ID, err = ID("id", b.ID); err != nil {
		return s, err
	}
	val := func(c *money.Cents) money.Cents {
		if c == nil {
			return 0
		}
		return *c
	}
	pct := func(p *money.Percent) money.Percent {
		if p == nil {
			return 0
		}
		return *p
	}
	s.Surcharge = domain.Fees{PixInPercent: pct(b.PixInPercent), PixInFixed: val(b.PixInFixed),
		PixOutPercent: pct(b.PixOutPercent), PixOutFixed: val(b.PixOutFixed)}
	if s.Surcharge.PixInFixed < 0 || s.Surcharge.PixOutFixed < 0 || s.Surcharge.PixInFixed > 1_000_000 || s.Surcharge.PixOutFixed > 1_000_000 {
		return s, domain.Invalid("pixInFixed", "and pixOutFixed must be from 0 to 10000.00")
	}
	if err := s.Surcharge.Validate(); err != nil {
		return s, domain.Invalid("pixInPercent", "and pixOutPercent must be from 0 to below 100")
	}
	return s, nil
}

// StatusFilter checks the list route's status filter ("" lists all).
func StatusFilter(v string) (string, error) {
	if strings.TrimSpace(v) == "" {
		return "", nil
	}
	s, ok := Statuses.Match(v)
	if !ok {
		return "", domain.Invalid("status", "must be %s", Statuses)
	}
	return s, nil
}
