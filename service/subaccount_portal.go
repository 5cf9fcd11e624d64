package service

import (
	"context"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

// PortalSetup configures the sub-account's portal from any state (none,
// disabled, a legacy state, or active again): the e-mail, unique across the
// platform, and the password, kept only as its argon2id hash.
func (s *Subaccounts) PortalSetup(ctx context.Context, acct domain.Account, p subaccount.PortalSetup) error {
	id, err := s.resolve(ctx, acct, p.Ref)
	if err != nil {
		return err
	}
	hash, err := subaccount.HashPassword(p.Password)
	if err != nil {
		return err
	}
	_, err = s.change(ctx, acct, id, func(sa *subaccount.Subaccount) error {
		sa.PortalState, sa.PortalEmail, sa.PortalPasswordHash = subaccount.PortalActive, &p.Email, &hash
		sa.PortalEmailVerified, sa.PortalTwoFactor = false, false
		sa.EndPortalSessions()
		return nil
	})
	return err
}

// PortalStatus is the portal of the sub-account named by ref (id or
// externalReference).
func (s *Subaccounts) PortalStatus(ctx context.Context, acct domain.Account, ref string) (subaccount.PortalItem, error) {
	if err := acct.Require(domain.FeatureSubaccounts); err != nil {
		return subaccount.PortalItem{}, err
	}
	sa, err := db.GetSubaccount(ctx, s.DB, acct.ID, ref)
	if err != nil {
		return subaccount.PortalItem{}, err
	}
	return sa.Portal(), nil
}

// ListPortals is one page of the portals of the account's live
// sub-accounts, newest first, and how many there are.
func (s *Subaccounts) ListPortals(ctx context.Context, acct domain.Account, page, pageSize int) ([]subaccount.PortalItem, int, error) {
	if err := acct.Require(domain.FeatureSubaccounts); err != nil {
		return nil, 0, err
	}
	rows, total, err := db.ListSubaccounts(ctx, s.DB, acct.ID, "", page, pageSize)
	if err != nil {
		return nil, 0, err
	}
	items := make([]subaccount.PortalItem, len(rows))
	for i, r := range rows {
		items[i] = r.Portal()
	}
	return items, total, nil
}

// portalChange applies f to a configured portal and ends its open
// sessions; a sub-account without one (none, disabled) is a 400.
func (s *Subaccounts) portalChange(ctx context.Context, acct domain.Account, ref string, f func(*subaccount.Subaccount)) (subaccount.PortalItem, error) {
	id, err := s.resolve(ctx, acct, ref)
	if err != nil {
		return subaccount.PortalItem{}, err
	}
	var out subaccount.Subaccount
	_, err = s.change(ctx, acct, id, func(sa *subaccount.Subaccount) error {
		if !subaccount.PortalExists(sa.PortalState) {
			return domain.Invalidf("sub-account %s has no portal (state %s): set it up first", sa.ID, sa.PortalState)
		}
		f(sa)
		sa.EndPortalSessions()
		out = *sa
		return nil
	})
	return out.Portal(), err
}

// PortalUpdateEmail changes the portal's e-mail (not verified again until the portal confirms it).
func (s *Subaccounts) PortalUpdateEmail(ctx context.Context, acct domain.Account, p subaccount.PortalEmail) (subaccount.PortalItem, error) {
	return s.portalChange(ctx, acct, p.Ref, func(sa *subaccount.Subaccount) {
		sa.PortalEmail, sa.PortalEmailVerified = &p.Email, false
	})
}

// PortalRevoke disables the portal: its password hash is dropped and its
// e-mail is free for another portal.
func (s *Subaccounts) PortalRevoke(ctx context.Context, acct domain.Account, ref string) (subaccount.PortalItem, error) {
	return s.portalChange(ctx, acct, ref, func(sa *subaccount.Subaccount) {
		sa.PortalState, sa.PortalPasswordHash, sa.PortalTwoFactor = subaccount.PortalDisabled, nil, false
	})
}

// PortalReset2FA turns the portal's second factor off; the holder enrols again at the next login.
func (s *Subaccounts) PortalReset2FA(ctx context.Context, acct domain.Account, ref string) (subaccount.PortalItem, error) {
	return s.portalChange(ctx, acct, ref, func(sa *subaccount.Subaccount) { sa.PortalTwoFactor = false })
}
