package domain_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
	"github.com/jangada/jangada/money"
)

// The shared helpers of the domain tests.

func strp(s string) *string { return &s }

func centsp(c money.Cents) *money.Cents { return &c }

func TestText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       *string
		min, max int
		required bool
		want     string
		wantErr  bool
	}{
		{name: "absent optional", in: nil, min: 3, max: 10, want: ""},
		{name: "absent required", in: nil, min: 3, max: 10, required: true, wantErr: true},
		{name: "trimmed", in: strp("  abc  "), min: 3, max: 10, want: "abc"},
		{name: "too short after trim", in: strp("  ab  "), min: 3, max: 10, wantErr: true},
		{name: "at max", in: strp("abcdefghij"), min: 3, max: 10, want: "abcdefghij"},
		{name: "over max", in: strp("abcdefghijk"), min: 3, max: 10, wantErr: true},
		{name: "counts characters, not bytes", in: strp("çãõéíóúâêô"), min: 3, max: 10, want: "çãõéíóúâêô"},
		{name: "empty allowed with min 0", in: strp("   "), min: 0, max: 10, want: ""},
		{name: "empty refused with min 1", in: strp("   "), min: 1, max: 10, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := domain.Text("field", tt.in, tt.min, tt.max, tt.required)
			if tt.wantErr {
				domaintest.WantFieldErr(t, err, domain.ErrInvalid, "field")
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Text = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestOptionalText(t *testing.T) {
	t.Parallel()
	if got, err := domain.OptionalText("ref", nil, 1, 5); got != nil || err != nil {
		t.Fatalf("absent: %v, %v", got, err)
	}
	got, err := domain.OptionalText("ref", strp(" ab "), 1, 5)
	if err != nil || got == nil || *got != "ab" {
		t.Fatalf("present: %v, %v", got, err)
	}
	_, err = domain.OptionalText("ref", strp(""), 1, 5)
	domaintest.WantFieldErr(t, err, domain.ErrInvalid, "ref")
	_, err = domain.OptionalText("ref", strp("abcdef"), 1, 5)
	domaintest.WantFieldErr(t, err, domain.ErrInvalid, "ref")
}

func TestAmount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      *money.Cents
		want    money.Cents
		wantErr bool
	}{
		{name: "absent", in: nil, wantErr: true},
		{name: "below", in: centsp(99), wantErr: true},
		{name: "low bound", in: centsp(100), want: 100},
		{name: "high bound", in: centsp(1000), want: 1000},
		{name: "above", in: centsp(1001), wantErr: true},
		{name: "negative", in: centsp(-500), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := domain.Amount("amount", tt.in, 100, 1000)
			if tt.wantErr {
				domaintest.WantFieldErr(t, err, domain.ErrInvalid, "amount")
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Amount = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestEmail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      *string
		want    string
		wantErr bool
	}{
		{in: strp(" Ana.Souza@Example.COM "), want: "Ana.Souza@Example.COM"}, // trimmed, case kept
		{in: strp("a@b.co"), want: "a@b.co"},
		{in: nil, wantErr: true},
		{in: strp(""), wantErr: true},
		{in: strp("ana"), wantErr: true},
		{in: strp("ana@example"), wantErr: true},
		{in: strp("ana souza@example.com"), wantErr: true},
		{in: strp("ana@@example.com"), wantErr: true},
		{in: strp(strings.Repeat("a", 243) + "@example.com"), wantErr: true}, // 255 characters
		{in: strp(strings.Repeat("a", 242) + "@example.com"), want: strings.Repeat("a", 242) + "@example.com"},
	}
	for _, tt := range tests {
		got, err := domain.Email("recipientEmail", tt.in)
		if tt.wantErr {
			domaintest.WantFieldErr(t, err, domain.ErrInvalid, "recipientEmail")
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Email(%q) = %q, %v; want %q", *tt.in, got, err, tt.want)
		}
	}
}

func TestTaxID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      *string
		want    string
		wantErr bool
	}{
		{name: "CPF punctuated", in: strp("529.982.247-25"), want: "52998224725"},
		{name: "CPF bare", in: strp("11144477735"), want: "11144477735"},
		{name: "CPF first check digit wrong", in: strp("529.982.247-15"), wantErr: true},
		{name: "CPF second check digit wrong", in: strp("529.982.247-24"), wantErr: true},
		{name: "CPF body digit wrong", in: strp("529.982.248-25"), wantErr: true},
		{name: "CPF all same digits", in: strp("111.111.111-11"), wantErr: true},
		{name: "CPF with a letter", in: strp("5299822472A"), wantErr: true},
		{name: "CNPJ punctuated", in: strp("11.222.333/0001-81"), want: "11222333000181"},
		{name: "CNPJ bare", in: strp("11444777000161"), want: "11444777000161"},
		{name: "CNPJ first check digit wrong", in: strp("11.222.333/0001-71"), wantErr: true},
		{name: "CNPJ second check digit wrong", in: strp("11.222.333/0001-82"), wantErr: true},
		{name: "CNPJ all same digits", in: strp("00.000.000/0000-00"), wantErr: true},
		{name: "alphanumeric CNPJ", in: strp("12.ABC.345/01DE-35"), want: "12ABC34501DE35"},
		{name: "alphanumeric CNPJ lower case", in: strp("12.abc.345/01de-35"), want: "12ABC34501DE35"},
		{name: "alphanumeric CNPJ check digit wrong", in: strp("12.ABC.345/01DE-36"), wantErr: true},
		{name: "alphanumeric CNPJ letter check digit", in: strp("12.ABC.345/01DE-3A"), wantErr: true},
		{name: "twelve digits", in: strp("529982247251"), wantErr: true},
		{name: "fifteen digits", in: strp("112223330001810"), wantErr: true},
		{name: "empty", in: strp(""), wantErr: true},
		{name: "absent", in: nil, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := domain.TaxID("payer.document", tt.in)
			if tt.wantErr {
				domaintest.WantFieldErr(t, err, domain.ErrInvalid, "payer.document")
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("TaxID = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestCentsFromJSON(t *testing.T) {
	t.Parallel()
	// Request amounts are reais on the wire and centavos once decoded.
	for body, want := range map[string]money.Cents{
		`{"amount": 10.5}`:       1050,
		`{"amount": 10.50}`:      1050,
		`{"amount": 1}`:          100,
		`{"amount": 0.01}`:       1,
		`{"amount": 1000000.00}`: 100_000_000,
	} {
		got := domaintest.DecodeBody[domain.InternalRequest](t, body)
		if got.Amount == nil || *got.Amount != want {
			t.Errorf("%s: amount %v, want %d centavos", body, got.Amount, want)
		}
	}
	for _, body := range []string{`{"amount": 10.505}`, `{"amount": "10.50"}`} {
		var r domain.InternalRequest
		if err := json.Unmarshal([]byte(body), &r); err == nil {
			t.Errorf("%s: decoded to %v, want an error", body, *r.Amount)
		}
	}
}
