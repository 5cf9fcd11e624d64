package store

import (
	"strings"

	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Customer types: a person (CPF) or a company (CNPJ).
const (
	CustomerPF = "PF"
	CustomerPJ = "PJ"
)

// Customer statuses, stored in English; the API also accepts the
// Portuguese names the spec lists (CustomerStatus).
const (
	CustomerActive   = "ACTIVE"
	CustomerInactive = "INACTIVE"
	CustomerBlocked  = "BLOCKED"
)

// Customer is a store customer of an account, as stored and as the API
// shows it. Transactions and Volume are read-only: the products whose
// payments a customer makes (billings, checkout sessions, PIX automatic)
// count each paid payment once, in their paid transition
// (db.AddCustomerPayment).
type Customer struct {
	ID        string `db:"id" json:"id"`
	AccountID string `db:"account_id" json:"-"`
	Name      string `db:"name" json:"name"`
	// Email is nil only for a customer made from a payer who gave none
	// (a billing's customer); the API's create requires it.
	Email *string `db:"email" json:"email"`
	// Document is the bare CPF or CNPJ (document.Digits), unique among
	// the account's live customers.
	Document     string      `db:"document" json:"document"`
	Type         string      `db:"type" json:"type"`
	Status       string      `db:"status" json:"status"`
	Phone        *string     `db:"phone" json:"phone"`
	Whatsapp     *string     `db:"whatsapp" json:"whatsapp"`
	City         *string     `db:"city" json:"city"`
	State        *string     `db:"state" json:"state"`
	Transactions int64       `db:"transactions" json:"transactions"`
	Volume       money.Cents `db:"volume" json:"volume"`
	CreatedAt    domain.Time `db:"created_at" json:"createdAt"`
	UpdatedAt    domain.Time `db:"updated_at" json:"-"`
}

// CustomerTypeOf is the type a document implies: PJ for a CNPJ (14
// characters), PF otherwise.
func CustomerTypeOf(doc string) string {
	if len(document.Digits(doc)) == 14 {
		return CustomerPJ
	}
	return CustomerPF
}

// WithDefaults fills what a customer made from a payer leaves out (a
// billing's `{name, taxId}`): the bare document, the type it implies and
// the status ACTIVE. It never overrides a value that is set.
func (c Customer) WithDefaults() Customer {
	c.Document = document.Digits(c.Document)
	if c.Type == "" {
		c.Type = CustomerTypeOf(c.Document)
	}
	if c.Status == "" {
		c.Status = CustomerActive
	}
	return c
}

// customerStatuses maps every accepted spelling (lower-cased) to the
// stored status: the spec's list filter takes Portuguese and English.
var customerStatuses = map[string]string{
	"active": CustomerActive, "ativo": CustomerActive,
	"inactive": CustomerInactive, "inativo": CustomerInactive,
	"blocked": CustomerBlocked, "bloqueado": CustomerBlocked,
}

// CustomerStatus reads a customer status in English or Portuguese, in any
// case ("Ativo", "active", "ACTIVE"), as the stored value.
func CustomerStatus(field, s string) (string, error) {
	if st, ok := customerStatuses[strings.ToLower(strings.TrimSpace(s))]; ok {
		return st, nil
	}
	return "", domain.Invalid(field, "must be one of Ativo, Inativo, Bloqueado (or active, inactive, blocked)")
}

// CustomerType reads PF or PJ in any case.
func CustomerType(field, s string) (string, error) {
	if t, ok := CustomerTypes.Match(s); ok {
		return t, nil
	}
	return "", domain.Invalid(field, "must be %s", CustomerTypes)
}

// States are the 27 federative units (UF), read in any case.
var States = domain.Folded("AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
	"PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO")

// State reads a Brazilian federative unit (UF: "SP", "rj"), upper-cased.
func State(field string, v *string) (*string, error) {
	if v == nil {
		return nil, nil
	}
	s, ok := States.Match(*v)
	if !ok {
		return nil, domain.Invalid(field, "must be a Brazilian state (UF), such as SP or RJ")
	}
	return &s, nil
}

// Phone reads a Brazilian phone number with area code, with or without
// +55 and punctuation ("(11) 98765-4321", "+55 11 98765-4321"), and
// returns its digits (10 to 13: area code and number, optionally the
// country code).
func Phone(field string, v *string) (*string, error) {
	if v == nil {
		return nil, nil
	}
	var b strings.Builder
	for _, r := range strings.TrimSpace(*v) {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '(' || r == ')' || r == '-' || r == '.' || (r == '+' && b.Len() == 0):
		default:
			return nil, domain.Invalid(field, "must be a phone number with area code, such as (11) 98765-4321")
		}
	}
	d := b.String()
	if len(d) < 10 || len(d) > 13 {
		return nil, domain.Invalid(field, "must be a phone number with area code, such as (11) 98765-4321")
	}
	return &d, nil
}

// CustomerRequest is the body of POST /customers/create.
type CustomerRequest struct {
	Name     *string `json:"name" jsonschema:"required,minLength=1,maxLength=200"`
	Email    *string `json:"email" jsonschema:"required,format=email"`
	Document *string `json:"document" jsonschema:"required,description=CPF or CNPJ (alphanumeric CNPJ included)"`
	Type     *string `json:"type" jsonschema:"description=inferred from the document when absent"`
	Status   *string `json:"status" jsonschema:"description=ACTIVE/INACTIVE/BLOCKED or Ativo/Inativo/Bloqueado"`
	Phone    *string `json:"phone" jsonschema:"description=with area code"`
	Whatsapp *string `json:"whatsapp" jsonschema:"description=with area code"`
	City     *string `json:"city" jsonschema:"maxLength=100"`
	State    *string `json:"state" jsonschema:"description=Brazilian state (UF)"`
}

// CustomerUpdateRequest is the body of PATCH /customers/update/{id}: the
// same fields, all optional.
type CustomerUpdateRequest CustomerRequest

// The closed sets of a customer: its type read in any case (CustomerType),
// its stored status (a request's status also takes the Portuguese names,
// CustomerStatus, so it has no enum).
var (
	CustomerTypes    = domain.Folded(CustomerPF, CustomerPJ)
	CustomerStatuses = domain.Exact(CustomerActive, CustomerInactive, CustomerBlocked)
)

// Enums are the request's closed sets.
func (CustomerRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"type": CustomerTypes, "state": States}
}

// Enums are the update's closed sets.
func (CustomerUpdateRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"type": CustomerTypes, "state": States}
}

// Enums are the record's closed sets.
func (Customer) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"type": domain.Exact(CustomerTypes.Values...), "status": CustomerStatuses,
		"state": domain.Exact(States.Values...)}
}

// CustomerPatch is a validated customer request: nil leaves a field alone
// (on create, absent optional fields). IdempotencyKey is the create's
// Idempotency-Key, set by the handler.
type CustomerPatch struct {
	IdempotencyKey                      string
	Name, Email, Document, Type, Status *string
	Phone, Whatsapp, City, State        *string
}

// Validate checks a create: name, email and document are required; type,
// when absent, follows the document.
func (b CustomerRequest) Validate() (CustomerPatch, error) {
	p, err := b.validate(true)
	if err != nil {
		return p, err
	}
	if p.Type == nil {
		t := CustomerTypeOf(*p.Document)
		p.Type = &t
	}
	if p.Status == nil {
		st := CustomerActive
		p.Status = &st
	}
	return p, nil
}

// Validate checks an update: only what is sent.
func (b CustomerUpdateRequest) Validate() (CustomerPatch, error) {
	return CustomerRequest(b).validate(false)
}

func (b CustomerRequest) validate(create bool) (CustomerPatch, error) {
	var p CustomerPatch
	var err error
	if b.Name != nil || create {
		n, err := domain.Text("name", b.Name, 1, 200, true)
		if err != nil {
			return p, err
		}
		p.Name = &n
	}
	if b.Email != nil || create {
		e, err := domain.Email("email", b.Email)
		if err != nil {
			return p, err
		}
		p.Email = &e
	}
	if b.Document != nil || create {
		d, err := domain.TaxID("document", b.Document)
		if err != nil {
			return p, err
		}
		p.Document = &d
	}
	if b.Type != nil {
		t, err := CustomerType("type", *b.Type)
		if err != nil {
			return p, err
		}
		p.Type = &t
	}
	if p.Type != nil && p.Document != nil && CustomerTypeOf(*p.Document) != *p.Type {
		return p, domain.Invalid("type", "%s does not match the document (a CPF is PF, a CNPJ is PJ)", *p.Type)
	}
	if b.Status != nil {
		st, err := CustomerStatus("status", *b.Status)
		if err != nil {
			return p, err
		}
		p.Status = &st
	}
	if p.Phone, err = Phone("phone", b.Phone); err != nil {
		return p, err
	}
	if p.Whatsapp, err = Phone("whatsapp", b.Whatsapp); err != nil {
		return p, err
	}
	if p.City, err = domain.OptionalText("city", b.City, 1, 100); err != nil {
		return p, err
	}
	if p.State, err = State("state", b.State); err != nil {
		return p, err
	}
	return p, nil
}

// Apply returns c changed by p. A new document without a type brings the
// type it implies; a type that does not match the document is refused.
func (c Customer) Apply(p CustomerPatch) (Customer, error) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	setPtr := func(dst **string, v *string) {
		if v != nil {
			s := *v
			*dst = &s
		}
	}
	set(&c.Name, p.Name)
	setPtr(&c.Email, p.Email)
	if p.Document != nil {
		c.Document = *p.Document
		if p.Type == nil {
			c.Type = CustomerTypeOf(c.Document)
		}
	}
	if p.Type != nil {
		if CustomerTypeOf(c.Document) != *p.Type {
			return c, domain.Invalid("type", "%s does not match the customer's document (a CPF is PF, a CNPJ is PJ)", *p.Type)
		}
		c.Type = *p.Type
	}
	set(&c.Status, p.Status)
	setPtr(&c.Phone, p.Phone)
	setPtr(&c.Whatsapp, p.Whatsapp)
	setPtr(&c.City, p.City)
	setPtr(&c.State, p.State)
	return c, nil
}

// CustomerFilter selects a page of an account's customers: Search matches
// name, e-mail or document (punctuation ignored) partially; Status and
// Type match exactly ("" means any).
type CustomerFilter struct {
	Page, PageSize       int
	Search, Status, Type string
}

// NewCustomerFilter reads the list query's search, status (English or
// Portuguese) and type.
func NewCustomerFilter(page, pageSize int, search, status, typ string) (CustomerFilter, error) {
	f := CustomerFilter{Page: page, PageSize: pageSize, Search: strings.TrimSpace(search)}
	var err error
	if strings.TrimSpace(status) != "" {
		if f.Status, err = CustomerStatus("status", status); err != nil {
			return f, err
		}
	}
	if strings.TrimSpace(typ) != "" {
		if f.Type, err = CustomerType("type", typ); err != nil {
			return f, err
		}
	}
	return f, nil
}
