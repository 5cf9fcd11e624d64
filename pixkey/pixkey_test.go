package pixkey

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name    string
		typ     Type
		key     string
		want    string
		wantErr string
	}{
		{"cpf formatted", CPF, "529.982.247-25", "52998224725", ""},
		{"cpf digits", CPF, "11144477735", "11144477735", ""},
		{"cpf bad check digit", CPF, "529.982.247-24", "", "pixKey is not a valid CPF"},
		{"cpf given a cnpj", CPF, "11222333000181", "", "pixKey is not a valid CPF"},
		{"cnpj formatted", CNPJ, "11.222.333/0001-81", "11222333000181", ""},
		{"cnpj alphanumeric", CNPJ, "12.abc.345/01de-35", "12ABC34501DE35", ""},
		{"cnpj bad check digit", CNPJ, "11.222.333/0001-82", "", "pixKey is not a valid CNPJ"},

		{"email", EMAIL, "Joao.Silva@Example.COM", "joao.silva@example.com", ""},
		{"email trimmed", EMAIL, "  ana@example.com\n", "ana@example.com", ""},
		{"email plus tag", EMAIL, "ana+pix@mail.example.com.br", "ana+pix@mail.example.com.br", ""},
		{"email 77 chars", EMAIL, strings.Repeat("a", 65) + "@example.com", strings.Repeat("a", 65) + "@example.com", ""},
		{"email 78 chars", EMAIL, strings.Repeat("a", 66) + "@example.com", "", "pixKey e-mail must be at most 77 characters"},
		{"email no at", EMAIL, "example.com", "", "pixKey is not a valid e-mail address"},
		{"email display name", EMAIL, "Ana <ana@example.com>", "", "pixKey is not a valid e-mail address"},
		{"email double dot", EMAIL, "a..b@example.com", "", "pixKey is not a valid e-mail address"},
		{"email leading dot", EMAIL, ".a@example.com", "", "pixKey is not a valid e-mail address"},
		{"email quoted", EMAIL, `"a b"@example.com`, "", "pixKey is not a valid e-mail address"},
		{"email two ats", EMAIL, "a@b@example.com", "", "pixKey is not a valid e-mail address"},
		{"email domain hyphen", EMAIL, "a@-example.com", "", "pixKey is not a valid e-mail address"},
		{"email empty", EMAIL, "", "", "pixKey is not a valid e-mail address"},

		{"phone e164", TELEFONE, "+5511987654321", "+5511987654321", ""},
		{"phone no plus", TELEFONE, "5511987654321", "+5511987654321", ""},
		{"phone national", TELEFONE, "11987654321", "+5511987654321", ""},
		{"phone formatted", TELEFONE, "(11) 98765-4321", "+5511987654321", ""},
		{"phone formatted intl", TELEFONE, "+55 (11) 98765-4321", "+5511987654321", ""},
		{"phone landline", TELEFONE, "(21) 3456-7890", "+552134567890", ""},
		{"phone landline intl", TELEFONE, "552134567890", "+552134567890", ""},
		{"phone ddd 55 national", TELEFONE, "55987654321", "+5555987654321", ""},
		{"phone ddd 99", TELEFONE, "99987654321", "+5599987654321", ""},
		{"phone foreign", TELEFONE, "+14155552671", "", "pixKey must be a Brazilian phone number (+55)"},
		{"phone ddd with zero", TELEFONE, "10987654321", "", "pixKey phone number has an invalid area code"},
		{"phone ddd leading zero", TELEFONE, "01987654321", "", "pixKey phone number has an invalid area code"},
		{"phone mobile not 9", TELEFONE, "11887654321", "", "pixKey 9-digit mobile number must start with 9"},
		{"phone 8-digit number", TELEFONE, "1198765432", "+551198765432", ""},
		{"phone 7 digits", TELEFONE, "119876543", "", "pixKey phone number must have a 2-digit area code and an 8 or 9-digit number"},
		{"phone plus too short", TELEFONE, "+55987654321", "", "pixKey phone number must have a 2-digit area code and an 8 or 9-digit number"},
		{"phone letters", TELEFONE, "11 9876-ABCD", "", "pixKey is not a valid phone number"},
		{"phone double plus", TELEFONE, "++5511987654321", "", "pixKey is not a valid phone number"},

		{"uuid", CHAVE_ALEATORIA, "123e4567-e12b-12d1-a456-426655440000", "123e4567-e12b-12d1-a456-426655440000", ""},
		{"uuid upper", CHAVE_ALEATORIA, "123E4567-E12B-12D1-A456-426655440000", "123e4567-e12b-12d1-a456-426655440000", ""},
		{"uuid no hyphens", CHAVE_ALEATORIA, "123e4567e12b12d1a456426655440000", "123e4567-e12b-12d1-a456-426655440000", ""},
		{"uuid bad hex", CHAVE_ALEATORIA, "123e4567-e12b-12d1-a456-42665544000g", "", "pixKey is not a valid random key (UUID)"},
		{"uuid misplaced hyphen", CHAVE_ALEATORIA, "123e456-7e12b-12d1-a456-426655440000", "", "pixKey is not a valid random key (UUID)"},
		{"uuid short", CHAVE_ALEATORIA, "123e4567-e12b-12d1-a456", "", "pixKey is not a valid random key (UUID)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.typ, tt.key)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("Normalize(%s, %q) error = %v, want %q", tt.typ, tt.key, err, tt.wantErr)
				}
				if !errors.Is(err, ErrInvalidKey) {
					t.Fatalf("error does not wrap ErrInvalidKey")
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Normalize(%s, %q) = %q, %v; want %q", tt.typ, tt.key, got, err, tt.want)
			}
		})
	}
}

func TestNormalizeUnknownType(t *testing.T) {
	for _, typ := range []Type{"", "cpf", "PHONE", "EVP"} {
		_, err := Normalize(typ, "52998224725")
		if !errors.Is(err, ErrUnknownType) || errors.Is(err, ErrInvalidKey) {
			t.Errorf("Normalize(%q) error = %v, want ErrUnknownType", typ, err)
		}
		if typ.Valid() {
			t.Errorf("Type(%q).Valid() = true", typ)
		}
	}
	for _, typ := range Types {
		if !typ.Valid() {
			t.Errorf("Type(%q).Valid() = false", typ)
		}
	}
}

func TestMask(t *testing.T) {
	tests := []struct {
		typ  Type
		key  string
		want string
	}{
		{CPF, "529.982.247-25", "***.982.247-**"},
		{CNPJ, "11222333000181", "**.222.333/0001-**"},
		{CNPJ, "12ABC34501DE35", "**.ABC.345/01DE-**"},
		{EMAIL, "joao@example.com", "jo***@example.com"},
		{EMAIL, "Jo@Example.com", "j***@example.com"},
		{TELEFONE, "(11) 98765-4321", "+55 11 9****-4321"},
		{TELEFONE, "2134567890", "+55 21 3***-7890"},
		{CHAVE_ALEATORIA, "123E4567-e12b-12d1-a456-426655440000", "123e4567…"},
		{CPF, "not a cpf", "***"},
		{"BOGUS", "x", "***"},
	}
	for _, tt := range tests {
		if got := Mask(tt.typ, tt.key); got != tt.want {
			t.Errorf("Mask(%s, %q) = %q, want %q", tt.typ, tt.key, got, tt.want)
		}
	}
}
