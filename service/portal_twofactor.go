package service

import (
	"context"
)

// BeginTwoFactor makes a new TOTP secret for the holder to enroll.
func (s *Portal) BeginTwoFactor(_ context.Context, h PortalHolder) (Enrollment, error) {
	label := h.Subaccount.ID
	if h.Subaccount.PortalEmail != nil {
		label = *h.Subaccount.PortalEmail
	}
	return beginTOTP(s.Sealer, h.Subaccount.ID, label)
}

// ConfirmTwoFactor enrolls the sealed secret once code is one of its
// codes, and answers the ten recovery codes to show once and the epoch
// the holder's session goes on under: every other session of the portal,
// opened without the second factor, ends. A wrong code is a 400 naming
// code; a session ended meanwhile is ErrSessionEnded.
func (s *Portal) ConfirmTwoFactor(ctx context.Context, h PortalHolder, sealed, code string) ([]string, int64, error) {
	return s.factor().confirm(ctx, h.Subaccount.ID, h.Epoch, sealed, code)
}
