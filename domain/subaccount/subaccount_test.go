package subaccount

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

func ptr[T any](v T) *T { return &v }

func validPF() CreateRequest {
	return CreateRequest{FullName: ptr("Ana"), CPF: ptr("529.982.247-25"), BirthDate: ptr("1990-01-31"),
		PostalCode: ptr("01310-100"), ExternalReference: ptr("ref")}
}

func TestCreateValidate(t *testing.T) {
	pdf := &File{Bytes: []byte("%PDF"), Info: FileInfo{Size: 4, ContentType: "application/pdf"}}
	cases := []struct {
		name  string
		edit  func(*CreateRequest)
		field string // "" means valid
	}{
		{"valid PF", func(*CreateRequest) {}, ""},
		{"CPF check digit", func(b *CreateRequest) { b.CPF = ptr("529.982.247-24") }, "cpf"},
		{"CNPJ as CPF", func(b *CreateRequest) { b.CPF = ptr("11222333000181") }, "cpf"},
		{"birth date format", func(b *CreateRequest) { b.BirthDate = ptr("31/01/1990") }, "birthDate"},
		{"birth date future", func(b *CreateRequest) { b.BirthDate = ptr("2999-01-01") }, "birthDate"},
		{"birth date before 1900", func(b *CreateRequest) { b.BirthDate = ptr("1899-12-31") }, "birthDate"},
		{"CEP 7 digits", func(b *CreateRequest) { b.PostalCode = ptr("0131010") }, "postalCode"},
		{"CEP letters", func(b *CreateRequest) { b.PostalCode = ptr("0131010A") }, "postalCode"},
		{"CEP without hyphen", func(b *CreateRequest) { b.PostalCode = ptr("01310100") }, ""},
		{"reference missing", func(b *CreateRequest) { b.ExternalReference = nil }, "externalReference"},
		{"reference 64", func(b *CreateRequest) { b.ExternalReference = ptr(strings.Repeat("r", 64)) }, ""},
		{"reference 65", func(b *CreateRequest) { b.ExternalReference = ptr(strings.Repeat("r", 65)) }, "externalReference"},
		{"portal email alone", func(b *CreateRequest) { b.PortalEmail = ptr("a@b.co") }, "portalPassword"},
		{"portal password alone", func(b *CreateRequest) { b.PortalPassword = ptr("Str0ng!pw") }, "portalEmail"},
		{"portal both", func(b *CreateRequest) { b.PortalEmail, b.PortalPassword = ptr("A@B.co"), ptr("Str0ng!pw") }, ""},
		{"person type", func(b *CreateRequest) { b.PersonType = ptr("PX") }, "personType"},
		{"PJ by JSON", func(b *CreateRequest) { b.PersonType = ptr("PJ") }, "document"},
		{"PJ alphanumeric CNPJ", func(b *CreateRequest) {
			b.Multipart, b.CNPJ, b.CompanyName, b.Document = true, ptr("12.ABC.345/01DE-35"), ptr("ACME"), pdf
		}, ""},
		{"PJ CNPJ digit", func(b *CreateRequest) {
			b.Multipart, b.CNPJ, b.CompanyName, b.Document = true, ptr("12.ABC.345/01DE-36"), ptr("ACME"), pdf
		}, "cnpj"},
		{"PJ no document", func(b *CreateRequest) { b.Multipart, b.CNPJ, b.CompanyName = true, ptr("11222333000181"), ptr("ACME") }, "document"},
		{"PJ bad site", func(b *CreateRequest) {
			b.Multipart, b.CNPJ, b.CompanyName, b.Document, b.Site = true, ptr("11222333000181"), ptr("ACME"), pdf, ptr("ftp://x")
		}, "site"},
		{"PJ text document", func(b *CreateRequest) {
			b.Multipart, b.CNPJ, b.CompanyName = true, ptr("11222333000181"), ptr("ACME")
			b.Document = &File{Info: FileInfo{Size: 3, ContentType: "text/plain"}}
		}, "document"},
	}
	for _, c := range cases {
		b := validPF()
		c.edit(&b)
		n, err := b.Validate()
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			if c.name == "portal both" && *n.PortalEmail != "a@b.co" {
				t.Errorf("portal e-mail not lower-cased: %s", *n.PortalEmail)
			}
			continue
		}
		if !errors.Is(err, domain.ErrInvalid) || !strings.HasPrefix(err.Error(), c.field) {
			t.Errorf("%s: %v, want an error naming %s", c.name, err, c.field)
		}
	}
}

// TestLockTable pins every cell of the table in docs/ledger.md.
func TestLockTable(t *testing.T) {
	want := map[string][7]bool{ // PIX out, remove, transfer out, charge, add, transfer in, refund
		LockNone:         {true, true, true, true, true, true, true},
		LockFull:         {false, false, false, false, false, false, false},
		LockWithdrawOnly: {false, false, false, true, true, true, false},
		LockDepositOnly:  {true, true, true, false, false, false, true},
	}
	for mode, row := range want {
		for i, op := range Ops {
			if Allows(mode, op) != row[i] {
				t.Errorf("%s %s: allowed %v", mode, op, !row[i])
			}
			s := Subaccount{Status: StatusActive, LockMode: mode}
			if (s.Permit(op) == nil) != row[i] {
				t.Errorf("Permit %s %s", mode, op)
			}
			s.Status = StatusDisabled
			if s.Permit(op) == nil {
				t.Errorf("DISABLED allows %s", op)
			}
		}
	}
	// ModesAllowing is the same table as data (the charge insert's SQL check).
	for i, op := range Ops {
		var modes []string
		for _, m := range []string{LockNone, LockFull, LockWithdrawOnly, LockDepositOnly} {
			if want[m][i] {
				modes = append(modes, m)
			}
		}
		if got := ModesAllowing(op); strings.Join(got, ",") != strings.Join(modes, ",") {
			t.Errorf("ModesAllowing(%s) = %v, want %v", op, got, modes)
		}
	}
}

func TestLimitWindows(t *testing.T) {
	// 02:30 UTC on 1 Dec is still 30 Nov in São Paulo (UTC-3, no DST since 2019).
	w := WindowAt(time.Date(2026, 12, 1, 2, 30, 0, 0, time.UTC))
	if w.DayStart != time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC) || w.DayEnd != time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC) {
		t.Fatalf("day %v–%v", w.DayStart, w.DayEnd)
	}
	if w.MonthStart != time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC) || w.MonthEnd != w.DayEnd {
		t.Fatalf("month %v–%v", w.MonthStart, w.MonthEnd)
	}
	ten, hundred := money.Cents(1000), money.Cents(10000)
	l := Limits{Daily: &ten, Monthly: &hundred, PerTransaction: &ten}
	for _, c := range []struct {
		amount, day, month money.Cents
		field              string
	}{{1000, 0, 0, ""}, {1001, 0, 0, "per-transaction"}, {1, 1000, 0, "daily"}, {1, 0, 10000, "monthly"}, {500, 500, 9500, ""}} {
		err := l.Check(c.amount, c.day, c.month)
		if (c.field == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.field) {
			t.Errorf("%+v: %v", c, err)
		}
	}
	if (Limits{}).Check(1<<40, 1<<40, 1<<40) != nil {
		t.Fatal("no limits refused a debit")
	}
}

func TestPricingPreview(t *testing.T) {
	p := PreviewOf("sub_1", domain.Fees{PixInFixed: 50, PixInPercent: 100, PixOutFixed: 50},
		domain.Fees{PixInFixed: 25, PixInPercent: 150, PixOutPercent: 10})
	if len(p.Lines) != 2 || p.TotalFixedFee != 75 || p.TotalPercentFee != 250 || p.Lines[1].Label == "" {
		t.Fatalf("pix in: %+v", p.Side)
	}
	if p.PixOut.TotalFixedFee != 50 || p.PixOut.TotalPercentFee != 10 {
		t.Fatalf("pix out: %+v", p.PixOut)
	}
}

func TestPasswordRule(t *testing.T) {
	for pw, ok := range map[string]bool{"Str0ng!pw": true, "Sh0rt!": false, "nouppercase1!": false, "NOLOWER1!": false,
		"NoDigits!!": false, "NoSymbol12": false, "Ünïcode1!ok": true, "Spaces 1 Aa": false} {
		_, err := Password("password", &pw)
		if (err == nil) != ok {
			t.Errorf("%q: %v", pw, err)
		}
	}
}

func TestArgon2idHash(t *testing.T) {
	h, err := HashPassword("Str0ng!pw")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") || strings.Contains(h, "Str0ng") {
		t.Fatalf("hash %s", h)
	}
	h2, _ := HashPassword("Str0ng!pw")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	if !VerifyPassword(h, "Str0ng!pw") || VerifyPassword(h, "Str0ng!pW") || VerifyPassword("$argon2id$v=19$m=0,t=1,p=1$x$y", "") {
		t.Fatal("verify")
	}
}
