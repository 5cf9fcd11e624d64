package domain_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
	"github.com/jangada/jangada/money"
)

// brCode builds a static BR Code to key for amount (0: the payer chooses),
// as a JSON string ready to paste in a body.
func brCode(t *testing.T, key string, amount money.Cents) string {
	t.Helper()
	code, err := brcode.Encode(brcode.Payload{Key: key, Amount: amount, MerchantName: "Loja Exemplo", MerchantCity: "SAO PAULO"})
	if err != nil {
		t.Fatalf("encode BR Code: %v", err)
	}
	return jsonString(code)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestTransferRequestInvalid(t *testing.T) {
	t.Parallel()
	dynamic, err := brcode.Encode(brcode.Payload{URL: "pix.example.com/qr/v2/cobv/abc", MerchantName: "Loja", MerchantCity: "SAO PAULO",
		TxID: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123"})
	if err != nil {
		t.Fatal(err)
	}
	good := strings.Trim(brCode(t, "ana@example.com", 1000), `"`)
	badCRC := good[:len(good)-1] + map[bool]string{true: "0", false: "1"}[good[len(good)-1] != '0']
	tests := []struct {
		name, body, field string
	}{
		{"pixRail sent", `{"amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "pixRail": "PADRAO"}`, "pixRail"},
		{"neither key nor code", `{"amount": 10}`, "pixKey"},
		{"pixKey without pixKeyType", `{"amount": 10, "pixKey": "52998224725"}`, "pixKeyType"},
		{"unknown pixKeyType", `{"amount": 10, "pixKey": "52998224725", "pixKeyType": "PIS"}`, "pixKeyType"},
		{"CPF key check digit", `{"amount": 10, "pixKey": "529.982.247-24", "pixKeyType": "CPF"}`, "pixKey"},
		{"CNPJ key check digit", `{"amount": 10, "pixKey": "11.222.333/0001-82", "pixKeyType": "CNPJ"}`, "pixKey"},
		{"CPF key as CNPJ", `{"amount": 10, "pixKey": "52998224725", "pixKeyType": "CNPJ"}`, "pixKey"},
		{"EMAIL key", `{"amount": 10, "pixKey": "ana@", "pixKeyType": "EMAIL"}`, "pixKey"},
		{"TELEFONE key", `{"amount": 10, "pixKey": "+1 202 555 0100", "pixKeyType": "TELEFONE"}`, "pixKey"},
		{"CHAVE_ALEATORIA key", `{"amount": 10, "pixKey": "not-a-uuid", "pixKeyType": "CHAVE_ALEATORIA"}`, "pixKey"},
		{"code is not a BR Code", `{"amount": 10, "pixCopyPaste": "hello"}`, "pixCopyPaste"},
		{"code with a wrong CRC", `{"amount": 10, "pixCopyPaste": ` + jsonString(badCRC) + `}`, "pixCopyPaste"},
		{"code without a key", `{"amount": 10, "pixCopyPaste": ` + jsonString(dynamic) + `}`, "pixCopyPaste"},
		{"code with an invalid key", `{"amount": 10, "pixCopyPaste": ` + brCode(t, "52998224724", 0) + `}`, "pixCopyPaste"},
		{"code's amount disagrees", `{"amount": 9.99, "pixCopyPaste": ` + brCode(t, "ana@example.com", 1000) + `}`, "amount"},
		{"code without amount, none sent", `{"pixCopyPaste": ` + brCode(t, "ana@example.com", 0) + `}`, "amount"},
		{"amount absent", `{"pixKey": "52998224725", "pixKeyType": "CPF"}`, "amount"},
		{"amount zero", `{"amount": 0, "pixKey": "52998224725", "pixKeyType": "CPF"}`, "amount"},
		{"amount negative", `{"amount": -1, "pixKey": "52998224725", "pixKeyType": "CPF"}`, "amount"},
		{"amount above R$ 1,000,000.00", `{"amount": 1000000.01, "pixKey": "52998224725", "pixKeyType": "CPF"}`, "amount"},
		{"description too long", `{"amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "description": "` + strings.Repeat("d", 141) + `"}`, "description"},
		{"externalReference empty", `{"amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "externalReference": " "}`, "externalReference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := domaintest.DecodeBody[domain.TransferRequest](t, tt.body).Validate()
			domaintest.WantFieldErr(t, err, domain.ErrInvalid, tt.field)
		})
	}
}

func TestTransferRequestRefusals(t *testing.T) {
	t.Parallel()
	// Both destinations: the message names both fields as a whole sentence.
	_, err := domaintest.DecodeBody[domain.TransferRequest](t, `{"amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "pixCopyPaste": `+
		brCode(t, "ana@example.com", 0)+`}`).Validate()
	domaintest.WantFieldErr(t, err, domain.ErrInvalid, "send either pixKey with pixKeyType or pixCopyPaste,")
	// The sub-account's feature is the use case's to check; an empty id is a bad field.
	_, err = domaintest.DecodeBody[domain.TransferRequest](t, `{"amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "subaccountId": " "}`).Validate()
	domaintest.WantFieldErr(t, err, domain.ErrInvalid, "subaccountId")
}

func TestTransferRequestValid(t *testing.T) {
	t.Parallel()
	cpf := domain.NewTransfer{Amount: 1050, PixKey: "52998224725", PixKeyType: "CPF", CoverFee: true}
	with := func(f func(*domain.NewTransfer)) domain.NewTransfer {
		n := cpf
		f(&n)
		return n
	}
	tests := []struct {
		name, body string
		want       domain.NewTransfer
	}{
		{"CPF key, coverFee defaults to true", `{"amount": 10.50, "pixKey": "529.982.247-25", "pixKeyType": "cpf"}`, cpf},
		{"coverFee false", `{"amount": 10.50, "pixKey": "52998224725", "pixKeyType": "CPF", "coverFee": false}`,
			with(func(n *domain.NewTransfer) { n.CoverFee = false })},
		{"coverFee null is the default", `{"amount": 10.50, "pixKey": "52998224725", "pixKeyType": "CPF", "coverFee": null}`, cpf},
		{"smallest amount", `{"amount": 0.01, "pixKey": "52998224725", "pixKeyType": "CPF"}`,
			with(func(n *domain.NewTransfer) { n.Amount = 1 })},
		{"largest amount", `{"amount": 1000000, "pixKey": "52998224725", "pixKeyType": "CPF"}`,
			with(func(n *domain.NewTransfer) { n.Amount = 100_000_000 })},
		{"CNPJ key", `{"amount": 10.50, "pixKey": "11.222.333/0001-81", "pixKeyType": "CNPJ"}`,
			with(func(n *domain.NewTransfer) { n.PixKey, n.PixKeyType = "11222333000181", "CNPJ" })},
		{"alphanumeric CNPJ key", `{"amount": 10.50, "pixKey": "12.abc.345/01de-35", "pixKeyType": "CNPJ"}`,
			with(func(n *domain.NewTransfer) { n.PixKey, n.PixKeyType = "12ABC34501DE35", "CNPJ" })},
		{"EMAIL key lower-cased", `{"amount": 10.50, "pixKey": " Ana@Example.com ", "pixKeyType": "email"}`,
			with(func(n *domain.NewTransfer) { n.PixKey, n.PixKeyType = "ana@example.com", "EMAIL" })},
		{"TELEFONE key in E.164", `{"amount": 10.50, "pixKey": "(11) 98765-4321", "pixKeyType": "TELEFONE"}`,
			with(func(n *domain.NewTransfer) { n.PixKey, n.PixKeyType = "+5511987654321", "TELEFONE" })},
		{"CHAVE_ALEATORIA hyphenated", `{"amount": 10.50, "pixKey": "123E4567E89B12D3A456426614174000", "pixKeyType": "CHAVE_ALEATORIA"}`,
			with(func(n *domain.NewTransfer) {
				n.PixKey, n.PixKeyType = "123e4567-e89b-12d3-a456-426614174000", "CHAVE_ALEATORIA"
			})},
		{"description and reference trimmed", `{"amount": 10.50, "pixKey": "52998224725", "pixKeyType": "CPF", "description": " Aluguel ", "externalReference": " r-9 "}`,
			with(func(n *domain.NewTransfer) { n.Description, n.ExternalReference = "Aluguel", strp("r-9") })},
		{"code's amount used when none sent", `{"pixCopyPaste": ` + brCode(t, "ana@example.com", 1000) + `}`,
			domain.NewTransfer{Amount: 1000, PixKey: "ana@example.com", PixKeyType: "EMAIL", CoverFee: true}},
		{"code's amount equal to amount", `{"amount": 10, "pixCopyPaste": ` + brCode(t, "ana@example.com", 1000) + `}`,
			domain.NewTransfer{Amount: 1000, PixKey: "ana@example.com", PixKeyType: "EMAIL", CoverFee: true}},
		{"code without amount takes amount", `{"amount": 7.25, "coverFee": false, "pixCopyPaste": ` + brCode(t, "+5511987654321", 0) + `}`,
			domain.NewTransfer{Amount: 725, PixKey: "+5511987654321", PixKeyType: "TELEFONE"}},
		{"code with a random key", `{"amount": 1, "pixCopyPaste": ` + brCode(t, "123e4567-e89b-12d3-a456-426614174000", 0) + `}`,
			domain.NewTransfer{Amount: 100, PixKey: "123e4567-e89b-12d3-a456-426614174000", PixKeyType: "CHAVE_ALEATORIA", CoverFee: true}},
		{"code with a CNPJ key", `{"amount": 1, "pixCopyPaste": ` + brCode(t, "11222333000181", 0) + `}`,
			domain.NewTransfer{Amount: 100, PixKey: "11222333000181", PixKeyType: "CNPJ", CoverFee: true}},
		{"code with a CPF key, padded", `{"amount": 1, "pixCopyPaste": " ` + strings.Trim(brCode(t, "52998224725", 0), `"`) + ` "}`,
			domain.NewTransfer{Amount: 100, PixKey: "52998224725", PixKeyType: "CPF", CoverFee: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := domaintest.DecodeBody[domain.TransferRequest](t, tt.body).Validate()
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Validate =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestReviewRequestAndThreshold(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	for _, c := range []struct {
		in   *string
		want string
	}{{s("approve"), "approve"}, {s("reject"), "reject"}, {s("APPROVE"), ""}, {s(""), ""}, {nil, ""}} {
		got, err := domain.ReviewRequest{Decision: c.in}.Validate()
		if got != c.want || (c.want == "") != (err != nil) {
			t.Errorf("decision %v: %q %v, want %q", c.in, got, err, c.want)
		}
	}
	neg, zero := money.Cents(-1), money.Cents(0)
	if domain.ValidThreshold(&neg) == nil || domain.ValidThreshold(&zero) != nil || domain.ValidThreshold(nil) != nil {
		t.Error("threshold: negative must be refused, zero and absent accepted")
	}
}
