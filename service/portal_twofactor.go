package service

import (
	"context"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/twofactor"
)

// portalIssuer names Jangada in the holder's authenticator app.
const portalIssuer = "Jangada"

// PortalEnrollment is a TOTP secret being enrolled: shown to the holder
// (Secret, URI) and kept sealed in the session until a code confirms it.
type PortalEnrollment struct {
	twofactor.Enrollment
	Sealed string
}

// BeginTwoFactor makes a new TOTP secret for the holder to enroll.
func (s *Portal) BeginTwoFactor(_ context.Context, h PortalHolder) (PortalEnrollment, error) {
	account := h.Subaccount.ID
	if h.Subaccount.PortalEmail != nil {
		account = *h.Subaccount.PortalEmail
	}
	e, err := twofactor.NewSecret(portalIssuer, account)
	if err != nil {
		return PortalEnrollment{}, err
	}
	return PortalEnrollment{Enrollment: e, Sealed: s.Sealer.Seal(h.Subaccount.ID, e.Secret)}, nil
}

// ConfirmTwoFactor enrolls the sealed secret once code is one of its
// codes, and answers the ten recovery codes to show once and the epoch
// the holder's session goes on under: every other session of the portal,
// opened without the second factor, ends. A wrong code is a 400 naming
// code; a session ended meanwhile is ErrSessionEnded.
func (s *Portal) ConfirmTwoFactor(ctx context.Context, h PortalHolder, sealed, code string) ([]string, int64, error) {
	secret, err := s.Sealer.Open(h.Subaccount.ID, sealed)
	if err != nil {
		return nil, 0, domain.Invalid("code", "names no secret being enrolled: open the page again")
	}
	step, err := twofactor.Verify(secret, code, s.now(), 0)
	if err != nil {
		return nil, 0, domain.Invalid("code", "is not the code your app shows now")
	}
	codes, hashes := twofactor.RecoveryCodes()
	ok, err := db.PortalFactors.Enroll(ctx, s.DB, h.Subaccount.ID, h.Epoch, sealed, step, hashes)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, ErrSessionEnded
	}
	return codes, h.Epoch + 1, nil
}
