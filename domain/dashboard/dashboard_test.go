package dashboard_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/dashboard"
)

// What each role may do: a viewer reads, a developer manages the
// integration, an admin also users and the audit log, the owner all.
func TestCan(t *testing.T) {
	t.Parallel()
	want := map[string][]string{
		dashboard.RoleOwner:     {dashboard.ReadMoney, dashboard.ManageIntegration, dashboard.ManageUsers, dashboard.ReadAudit},
		dashboard.RoleAdmin:     {dashboard.ReadMoney, dashboard.ManageIntegration, dashboard.ManageUsers, dashboard.ReadAudit},
		dashboard.RoleDeveloper: {dashboard.ReadMoney, dashboard.ManageIntegration},
		dashboard.RoleViewer:    {dashboard.ReadMoney},
		"stranger":              {},
	}
	all := []string{dashboard.ReadMoney, dashboard.ManageIntegration, dashboard.ManageUsers, dashboard.ReadAudit, "anything"}
	for role, allowed := range want {
		for _, action := range all {
			ok := false
			for _, a := range allowed {
				ok = ok || a == action
			}
			if got := dashboard.Can(role, action); got != ok {
				t.Errorf("Can(%s, %s) = %v, want %v", role, action, got, ok)
			}
		}
	}
}

// Only an owner makes owners and admins; an admin makes developers and
// viewers; nobody else invites.
func TestCanGrant(t *testing.T) {
	t.Parallel()
	cases := []struct {
		role, grant string
		want        bool
	}{
		{dashboard.RoleOwner, dashboard.RoleOwner, true}, {dashboard.RoleOwner, dashboard.RoleAdmin, true},
		{dashboard.RoleAdmin, dashboard.RoleOwner, false}, {dashboard.RoleAdmin, dashboard.RoleAdmin, false},
		{dashboard.RoleAdmin, dashboard.RoleDeveloper, true}, {dashboard.RoleAdmin, dashboard.RoleViewer, true},
		{dashboard.RoleDeveloper, dashboard.RoleViewer, false}, {dashboard.RoleViewer, dashboard.RoleViewer, false},
		{dashboard.RoleOwner, "root", false},
	}
	for _, c := range cases {
		if got := dashboard.CanGrant(c.role, c.grant); got != c.want {
			t.Errorf("CanGrant(%s, %s) = %v, want %v", c.role, c.grant, got, c.want)
		}
	}
}

// An invitation and a sign-up name the field they refuse.
func TestRequests(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	for name, c := range map[string]struct {
		err   error
		field string
	}{
		"invite, no e-mail": {func() error { _, err := dashboard.InviteRequest{Role: s("viewer")}.Validate(); return err }(), "email"},
		"invite, bad role": {func() error {
			_, err := dashboard.InviteRequest{Email: s("a@b.com"), Role: s("root")}.Validate()
			return err
		}(), "role"},
		"signup, bad CPF": {func() error {
			_, err := dashboard.SignupRequest{Account: domain.AccountRequest{Name: s("L"), Email: s("a@b.com"), Document: s("123")}, Password: s("Aa1!aaaa")}.Validate()
			return err
		}(), "document"},
		"signup, weak password": {func() error {
			_, err := dashboard.SignupRequest{Account: domain.AccountRequest{Name: s("L"), Email: s("a@b.com"), Document: s("52998224725")}, Password: s("password")}.Validate()
			return err
		}(), "password"},
	} {
		if !errors.Is(c.err, domain.ErrInvalid) || !strings.HasPrefix(c.err.Error(), c.field+" ") {
			t.Errorf("%s: %v, want a 400 naming %s", name, c.err, c.field)
		}
	}
	in, err := dashboard.InviteRequest{Email: s("Dev@Loja.com"), Role: s("developer")}.Validate()
	if err != nil || in.Email != "dev@loja.com" {
		t.Fatalf("invite %+v %v", in, err)
	}
}
