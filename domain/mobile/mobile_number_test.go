package mobile

import (
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

func TestParsePhone(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw, want, err string
	}{
		{"11987654321", "11987654321", ""},
		{"(11) 98765-4321", "11987654321", ""},
		{"+55 21 99876-5432", "21998765432", ""},
		{"5561991234567", "61991234567", ""},
		{"011987654321", "11987654321", ""},
		{"99 9 8888.7777", "99988887777", ""},
		{"", "", "must have a two-digit area code"},
		{"1198765432", "", "must have a two-digit area code"},
		{"119876543210", "", "must have a two-digit area code"},
		{"10987654321", "", "area code 10, which is not in service"},
		{"20987654321", "", "area code 20"},
		{"23987654321", "", "area code 23"},
		{"52987654321", "", "area code 52"},
		{"11887654321", "", "must be a mobile number"},
		{"1133334444", "", "must have a two-digit area code"},
		{"11 98765-4321 ramal 2", "", "must be a Brazilian mobile number"},
		{"11+987654321", "", "must be a Brazilian mobile number"},
	}
	for _, c := range cases {
		p, err := ParseMobileNumber("phone", c.raw)
		if c.err == "" {
			if err != nil || p.String() != c.want {
				t.Errorf("ParseMobileNumber(%q) = %q, %v; want %q", c.raw, p, err, c.want)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), "phone ") || !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseMobileNumber(%q) error = %v; want one naming phone with %q", c.raw, err, c.err)
		}
	}
}

func TestDDDTable(t *testing.T) {
	t.Parallel()
	if len(dddStates) != 67 {
		t.Fatalf("%d area codes, want the 67 of the national plan", len(dddStates))
	}
	for ddd, uf := range map[string]string{"11": "SP", "21": "RJ", "31": "MG", "61": "DF", "71": "BA", "92": "AM", "99": "MA"} {
		if got, ok := DDDState(ddd); !ok || got != uf {
			t.Errorf("DDDState(%s) = %s, %v; want %s", ddd, got, ok, uf)
		}
	}
	for _, ddd := range []string{"00", "10", "20", "23", "25", "26", "29", "30", "36", "39", "40", "50", "52", "56", "60", "70", "72", "76", "78", "80", "90"} {
		if _, ok := DDDState(ddd); ok {
			t.Errorf("DDD %s is not in service but was accepted", ddd)
		}
	}
}

func TestRechargeRequestValidate(t *testing.T) {
	t.Parallel()
	phone, amount, zero := "(11) 98765-4321", money.Cents(2000), money.Cents(0)
	n, err := RechargeRequest{Phone: &phone, Amount: &amount}.Validate()
	if err != nil || n.Phone.String() != "11987654321" || n.Amount != 2000 {
		t.Fatalf("valid request: %+v, %v", n, err)
	}
	for name, c := range map[string]struct {
		b    RechargeRequest
		want string
	}{
		"no phone":    {RechargeRequest{Amount: &amount}, "phone is required"},
		"no amount":   {RechargeRequest{Phone: &phone}, "amount is required"},
		"zero amount": {RechargeRequest{Phone: &phone, Amount: &zero}, "amount must be between"},
	} {
		if _, err := c.b.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

func TestOfferedAmount(t *testing.T) {
	t.Parallel()
	offer := []money.Cents{1000, 1500, 2000}
	if err := OfferedAmount(1500, offer); err != nil {
		t.Fatal(err)
	}
	err := OfferedAmount(1234, offer)
	if err == nil || err.Error() != "amount must be one of the amounts offered for this number: 10.00, 15.00, 20.00" {
		t.Fatalf("OfferedAmount(12.34) = %v", err)
	}
}

func TestRechargePublicCanBeCancelled(t *testing.T) {
	t.Parallel()
	r := domain.Transaction{Type: domain.TypeMobileRecharge, Status: domain.StatusPending,
		Details: domain.SomeJSON(domain.Details{Recharge: &domain.RechargeBlock{Phone: "11987654321", Operator: "VIVO"}})}
	p := r.Public("")
	if p.CanBeCancelled == nil || !*p.CanBeCancelled || p.Phone != "11987654321" || p.Operator != "VIVO" {
		t.Fatalf("pending: %+v", p)
	}
	for _, s := range []string{domain.StatusCompleted, domain.StatusCanceled, domain.StatusFailed} {
		r.Status = s
		if p := r.Public(""); p.CanBeCancelled == nil || *p.CanBeCancelled {
			t.Errorf("%s recharge: canBeCancelled %v, want false", s, p.CanBeCancelled)
		}
	}
	if p := (domain.Transaction{Type: domain.TypePixOut}).Public(""); p.CanBeCancelled != nil {
		t.Fatal("a PIX out carries canBeCancelled")
	}
}
