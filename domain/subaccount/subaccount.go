// Package subaccount holds the rules of sub-accounts (logical wallets under
// a merchant account): the request types and their Validate, the lock table,
// the limit windows, the pricing preview and the portal password rule and
// hash. It does no I/O; the database side is db/subaccounts.go and the use
// cases are service/subaccounts.go.
package subaccount

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Statuses of a sub-account.
const (
	StatusActive   = "ACTIVE"
	StatusDisabled = "DISABLED"
)

// Person types.
const (
	PersonPF = "PF"
	PersonPJ = "PJ"
)

// Transaction types of the moves (docs/ledger.md, docs/events.md).
const (
	TypeAddBalance    = "SUBACCOUNT_ADD_BALANCE"
	TypeRemoveBalance = "SUBACCOUNT_REMOVE_BALANCE"
	TypeTransfer      = "SUBACCOUNT_TRANSFER"
)

// MoveTypes are the record types of the three moves.
var MoveTypes = []string{TypeAddBalance, TypeRemoveBalance, TypeTransfer}

// LockedLedger is the ledger account holding a sub-account's money blocked by
// a MED dispute (lockedPadrao). Its available and pending ledger accounts are
// domain.AvailableLedger(id) and domain.PendingLedger(id), as for a merchant
// account, so the balance rules of docs/ledger.md apply unchanged.
func LockedLedger(id string) string { return id + ":locked" }

// Subaccount is a sub-account as stored.
type Subaccount struct {
	ID                  string                    `db:"id"`
	AccountID           string                    `db:"account_id"`
	Name                string                    `db:"name"`
	ExternalReference   string                    `db:"external_reference"`
	PersonType          string                    `db:"person_type"`
	CPF                 string                    `db:"cpf"`
	BirthDate           string                    `db:"birth_date"`
	PostalCode          string                    `db:"postal_code"`
	CNPJ                *string                   `db:"cnpj"`
	CompanyName         *string                   `db:"company_name"`
	Site                *string                   `db:"site"`
	Document            domain.JSONB[FileInfo]    `db:"document_info"`
	Status              string                    `db:"status"`
	LockMode            string                    `db:"lock_mode"`
	LimitDaily          *money.Cents              `db:"limit_daily"`
	LimitMonthly        *money.Cents              `db:"limit_monthly"`
	LimitPerTransaction *money.Cents              `db:"limit_per_transaction"`
	Pricing             domain.JSONB[domain.Fees] `db:"pricing"`
	PortalState         string                    `db:"portal_state"`
	PortalEmail         *string                   `db:"portal_email"`
	// PortalPasswordHash is the argon2id PHC string: never serialised.
	PortalPasswordHash  *string      `db:"portal_password_hash"`
	PortalEmailVerified bool         `db:"portal_email_verified"`
	PortalTwoFactor     bool         `db:"portal_two_factor"`
	PortalLastLoginAt   *domain.Time `db:"portal_last_login_at"`
	// PortalEpoch is the generation of the portal's sessions: a session
	// opened under another one has ended (BumpPortalEpoch).
	PortalEpoch int64       `db:"portal_session_epoch"`
	CreatedAt   domain.Time `db:"created_at"`
	UpdatedAt   domain.Time `db:"updated_at"`
}

// FileInfo describes the PJ proof document; its bytes are stored apart and
// never read back by the API.
type FileInfo struct {
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
}

// Limits are the sub-account's debit limits; nil is no limit.
func (s Subaccount) Limits() Limits {
	return Limits{Daily: s.LimitDaily, Monthly: s.LimitMonthly, PerTransaction: s.LimitPerTransaction}
}

// Balance is a sub-account's balance (definitions in docs/ledger.md).
type Balance struct {
	SpendablePadrao money.Cents `json:"spendablePadrao"`
	AvailablePadrao money.Cents `json:"availablePadrao"`
	LockedPadrao    money.Cents `json:"lockedPadrao"`
	PendingPadrao   money.Cents `json:"pendingPadrao"`
}

// Zero reports whether nothing at all is held for the sub-account.
func (b Balance) Zero() bool {
	return b.AvailablePadrao == 0 && b.LockedPadrao == 0 && b.PendingPadrao == 0
}

// Company is the PJ block of a sub-account's view.
type Company struct {
	CNPJ        string    `json:"cnpj"`
	CompanyName string    `json:"companyName"`
	Site        *string   `json:"site"`
	Document    *FileInfo `json:"document,omitempty"`
}

// View is the sub-account as the API shows it (the spec's rule 4: no
// updatedAt).
type View struct {
	ID                string      `json:"id"`
	Name              string      `json:"name"`
	ExternalReference string      `json:"externalReference"`
	PersonType        string      `json:"personType"`
	CPF               string      `json:"cpf"`
	BirthDate         string      `json:"birthDate"`
	PostalCode        string      `json:"postalCode"`
	Company           *Company    `json:"company,omitempty"`
	Status            string      `json:"status"`
	LockMode          string      `json:"lockMode"`
	Limits            Limits      `json:"limits"`
	Pricing           domain.Fees `json:"pricing"`
	PortalState       string      `json:"portalState"`
	Balance           Balance     `json:"balance"`
	CreatedAt         domain.Time `json:"createdAt"`
}

// View builds the public view with the given balance.
func (s Subaccount) View(b Balance) View {
	v := View{ID: s.ID, Name: s.Name, ExternalReference: s.ExternalReference, PersonType: s.PersonType,
		CPF: s.CPF, BirthDate: s.BirthDate, PostalCode: s.PostalCode, Status: s.Status, LockMode: s.LockMode,
		Limits: s.Limits(), Pricing: s.Pricing.V, PortalState: s.PortalState, Balance: b,
		CreatedAt: s.CreatedAt}
	if s.CNPJ != nil {
		v.Company = &Company{CNPJ: *s.CNPJ, Site: s.Site, Document: s.Document.Ptr()}
		if s.CompanyName != nil {
			v.Company.CompanyName = *s.CompanyName
		}
	}
	return v
}

// LeanBalance is the balance block of the get-by-ref shape.
type LeanBalance struct {
	SpendablePadrao money.Cents `json:"spendablePadrao"`
}

// Lean is the get-by-ref shape the spec lists.
type Lean struct {
	ID                string      `json:"id"`
	Name              string      `json:"name"`
	ExternalReference string      `json:"externalReference"`
	Status            string      `json:"status"`
	LockMode          string      `json:"lockMode"`
	Balance           LeanBalance `json:"balance"`
}

// Lean builds the get-by-ref shape.
func (s Subaccount) Lean(b Balance) Lean {
	return Lean{ID: s.ID, Name: s.Name, ExternalReference: s.ExternalReference, Status: s.Status,
		LockMode: s.LockMode, Balance: LeanBalance{SpendablePadrao: b.SpendablePadrao}}
}

// PortalView is the portal block of a portal status item.
type PortalView struct {
	State            string       `json:"state"`
	Email            *string      `json:"email"`
	EmailVerified    bool         `json:"emailVerified"`
	TwoFactorEnabled bool         `json:"twoFactorEnabled"`
	LastLoginAt      *domain.Time `json:"lastLoginAt"`
}

// PortalItem is one item of GET /subaccount/portal/status.
type PortalItem struct {
	SubaccountID   string     `json:"subaccountId"`
	SubaccountName string     `json:"subaccountName"`
	Portal         PortalView `json:"portal"`
}

// Portal builds the portal status item; the hash never leaves.
func (s Subaccount) Portal() PortalItem {
	return PortalItem{SubaccountID: s.ID, SubaccountName: s.Name, Portal: PortalView{
		State: s.PortalState, Email: s.PortalEmail, EmailVerified: s.PortalEmailVerified,
		TwoFactorEnabled: s.PortalTwoFactor, LastLoginAt: s.PortalLastLoginAt,
	}}
}
