// Package dashboard holds the merchant dashboard's rules: who its users
// are, what each role may do, and the requests that make users and
// accounts. No I/O: the service and the pages call these.
package dashboard

import (
	"slices"
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

// The roles of a dashboard user, from the most to the least power.
const (
	RoleOwner     = "owner"
	RoleAdmin     = "admin"
	RoleDeveloper = "developer"
	RoleViewer    = "viewer"
)

// Roles is every role, in the order the pages list them.
var Roles = []string{RoleOwner, RoleAdmin, RoleDeveloper, RoleViewer}

// What a role may do. Every user reads money and payments.
const (
	// ManageIntegration is keys and webhook endpoints.
	ManageIntegration = "integration"
	// ManageUsers is inviting and removing users.
	ManageUsers = "users"
	// ReadAudit is reading the audit log.
	ReadAudit = "audit"
	// ReadMoney is balances, statements and payments.
	ReadMoney = "money"
)

// Can reports whether role may do action: a viewer only reads money and
// payments; a developer also manages keys and endpoints; an admin also
// manages users and reads the audit log; the owner does everything.
func Can(role, action string) bool {
	switch action {
	case ReadMoney:
		return slices.Contains(Roles, role)
	case ManageIntegration:
		return role == RoleOwner || role == RoleAdmin || role == RoleDeveloper
	case ManageUsers, ReadAudit:
		return role == RoleOwner || role == RoleAdmin
	}
	return false
}

// CanGrant reports whether a user of role may invite one of role grant:
// only an owner makes owners and admins.
func CanGrant(role, grant string) bool {
	if !Can(role, ManageUsers) || !slices.Contains(Roles, grant) {
		return false
	}
	return role == RoleOwner || (grant != RoleOwner && grant != RoleAdmin)
}

// InviteValid is how long an invitation's link sets a password.
const InviteValid = 24 * time.Hour

// User is a dashboard user (its password and second factor's secrets
// stay in the database layer).
type User struct {
	ID          string       `db:"id" json:"id"`
	AccountID   string       `db:"account_id" json:"-"`
	Email       string       `db:"email" json:"email"`
	Role        string       `db:"role" json:"role"`
	Epoch       int64        `db:"session_epoch" json:"-"`
	TwoFactor   bool         `db:"two_factor" json:"twoFactorEnabled"`
	HasPassword bool         `db:"has_password" json:"-"`
	LastLoginAt *domain.Time `db:"last_login_at" json:"lastLoginAt,omitempty"`
	CreatedAt   domain.Time  `db:"created_at" json:"createdAt"`
}

// InviteRequest is an invitation as the admin API and the users' page
// send it.
type InviteRequest struct {
	Email *string `json:"email" jsonschema:"required,format=email"`
	Role  *string `json:"role" jsonschema:"required"`
}

// Enums are the request's closed sets.
func (InviteRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"role": domain.Exact(Roles...)}
}

// Invite is a validated invitation.
type Invite struct {
	Email, Role string
}

// Validate checks an invitation: an e-mail and one of the roles.
func (b InviteRequest) Validate() (Invite, error) {
	var n Invite
	var err error
	if n.Email, err = domain.Email("email", b.Email); err != nil {
		return n, err
	}
	n.Email = strings.ToLower(n.Email)
	if b.Role == nil || !domain.Exact(Roles...).Has(*b.Role) {
		return n, domain.Invalid("role", "must be one of owner, admin, developer, viewer")
	}
	n.Role = *b.Role
	return n, nil
}

// SignupRequest is the sign-up form: the account's name, e-mail and CPF
// or CNPJ, and its owner's password.
type SignupRequest struct {
	Account  domain.AccountRequest
	Password *string
}

// Signup is a validated sign-up.
type Signup struct {
	Account  domain.NewAccount
	Password string
}

// Validate checks a sign-up as an account's create (the document checked)
// and the password against the portal's rule.
func (b SignupRequest) Validate() (Signup, error) {
	var n Signup
	var err error
	if n.Account, err = b.Account.Validate(); err != nil {
		return n, err
	}
	n.Account.Email = strings.ToLower(n.Account.Email)
	n.Password, err = subaccount.Password("password", b.Password)
	return n, err
}
