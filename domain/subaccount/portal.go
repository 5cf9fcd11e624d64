package subaccount

import (
	"strings"

	"github.com/jangada/jangada/domain"
)

// PortalSetupRequest is the body of POST /subaccount/portal/setup.
type PortalSetupRequest struct {
	ID                *string `json:"id"`
	ExternalReference *string `json:"externalReference"`
	Email             *string `json:"email"`
	Password          *string `json:"password"`
}

// PortalSetup is a validated portal setup.
type PortalSetup struct {
	Ref             string
	Email, Password string
}

// Validate checks the reference, the e-mail and the password rule.
func (b PortalSetupRequest) Validate() (PortalSetup, error) {
	var p PortalSetup
	var err error
	if p.Ref, err = (Ref{ID: b.ID, ExternalReference: b.ExternalReference}).Validate(); err != nil {
		return p, err
	}
	if p.Email, err = domain.Email("email", b.Email); err != nil {
		return p, err
	}
	p.Email = strings.ToLower(p.Email)
	p.Password, err = Password("password", b.Password)
	return p, err
}

// PortalEmailRequest is the body of POST /subaccount/portal/update-email.
type PortalEmailRequest struct {
	ID                *string `json:"id"`
	ExternalReference *string `json:"externalReference"`
	Email             *string `json:"email"`
}

// PortalEmail is a validated e-mail change.
type PortalEmail struct{ Ref, Email string }

// Validate checks the reference and the e-mail.
func (b PortalEmailRequest) Validate() (PortalEmail, error) {
	var p PortalEmail
	var err error
	if p.Ref, err = (Ref{ID: b.ID, ExternalReference: b.ExternalReference}).Validate(); err != nil {
		return p, err
	}
	p.Email, err = domain.Email("email", b.Email)
	p.Email = strings.ToLower(p.Email)
	return p, err
}
