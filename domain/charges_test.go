package domain_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
)

func TestChargeRequestInvalid(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name, body, field string
	}{
		{"pixRail sent", `{"amount": 10, "description": "Pedido", "pixRail": "PADRAO"}`, "pixRail"},
		{"amount absent", `{"description": "Pedido"}`, "amount"},
		{"amount below R$ 1.00", `{"amount": 0.99, "description": "Pedido"}`, "amount"},
		{"amount zero", `{"amount": 0, "description": "Pedido"}`, "amount"},
		{"amount negative", `{"amount": -5, "description": "Pedido"}`, "amount"},
		{"amount above R$ 1,000,000.00", `{"amount": 1000000.01, "description": "Pedido"}`, "amount"},
		{"description absent", `{"amount": 10}`, "description"},
		{"description too short", `{"amount": 10, "description": "ab"}`, "description"},
		{"description short once trimmed", `{"amount": 10, "description": "  ab  "}`, "description"},
		{"description too long", `{"amount": 10, "description": "` + long(181) + `"}`, "description"},
		{"expiration below 60 s", `{"amount": 10, "description": "Pedido", "expirationSeconds": 59}`, "expirationSeconds"},
		{"expiration above 7 days", `{"amount": 10, "description": "Pedido", "expirationSeconds": 604801}`, "expirationSeconds"},
		{"payer name empty", `{"amount": 10, "description": "Pedido", "payer": {"name": " "}}`, "payer.name"},
		{"payer name too long", `{"amount": 10, "description": "Pedido", "payer": {"name": "` + long(121) + `"}}`, "payer.name"},
		{"payer CPF check digit", `{"amount": 10, "description": "Pedido", "payer": {"name": "Ana", "document": "529.982.247-24"}}`, "payer.document"},
		{"payer CNPJ check digit", `{"amount": 10, "description": "Pedido", "payer": {"document": "11.222.333/0001-82"}}`, "payer.document"},
		{"payer alphanumeric CNPJ check digit", `{"amount": 10, "description": "Pedido", "payer": {"document": "12.ABC.345/01DE-36"}}`, "payer.document"},
		{"payer document too long", `{"amount": 10, "description": "Pedido", "payer": {"document": "112223330001810"}}`, "payer.document"},
		{"payer document wrong length", `{"amount": 10, "description": "Pedido", "payer": {"document": "1234567890"}}`, "payer.document"},
		{"flat payerDocument", `{"amount": 10, "description": "Pedido", "payerDocument": "111.111.111-11"}`, "payer.document"},
		{"flat payerName", `{"amount": 10, "description": "Pedido", "payerName": ""}`, "payer.name"},
		{"externalReference empty", `{"amount": 10, "description": "Pedido", "externalReference": ""}`, "externalReference"},
		{"externalReference too long", `{"amount": 10, "description": "Pedido", "externalReference": "` + long(121) + `"}`, "externalReference"},
		{"splitTax zero", `{"amount": 10, "description": "Pedido", "splitUser": "p@x.com", "splitTax": 0}`, "splitTax"},
		{"splitTax above 100", `{"amount": 10, "description": "Pedido", "splitUser": "p@x.com", "splitTax": 100.01}`, "splitTax"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := domaintest.DecodeBody[domain.ChargeRequest](t, tt.body).Validate()
			domaintest.WantFieldErr(t, err, domain.ErrInvalid, tt.field)
		})
	}
}

func TestChargeRequestValid(t *testing.T) {
	t.Parallel()
	base := domain.NewCharge{Amount: 1050, Description: "Pedido 42", ExpiresIn: 24 * time.Hour}
	with := func(f func(*domain.NewCharge)) domain.NewCharge {
		n := base
		f(&n)
		return n
	}
	tests := []struct {
		name, body string
		want       domain.NewCharge
	}{
		{"defaults", `{"amount": 10.50, "description": "  Pedido 42  "}`, base},
		{"coverFee defaults to false", `{"amount": 10.5, "description": "Pedido 42", "coverFee": null}`, base},
		{"coverFee true", `{"amount": 10.5, "description": "Pedido 42", "coverFee": true}`,
			with(func(n *domain.NewCharge) { n.CoverFee = true })},
		{"lowest amount", `{"amount": 1.00, "description": "Pedido 42"}`,
			with(func(n *domain.NewCharge) { n.Amount = 100 })},
		{"highest amount", `{"amount": 1000000, "description": "Pedido 42"}`,
			with(func(n *domain.NewCharge) { n.Amount = 100_000_000 })},
		{"shortest expiration", `{"amount": 10.5, "description": "Pedido 42", "expirationSeconds": 60}`,
			with(func(n *domain.NewCharge) { n.ExpiresIn = time.Minute })},
		{"longest expiration", `{"amount": 10.5, "description": "Pedido 42", "expirationSeconds": 604800}`,
			with(func(n *domain.NewCharge) { n.ExpiresIn = 7 * 24 * time.Hour })},
		{"fiscal invoice", `{"amount": 10.5, "description": "Pedido 42", "emitFiscalInvoice": true}`,
			with(func(n *domain.NewCharge) { n.EmitFiscalInvoice = true })},
		{"payer object with CPF", `{"amount": 10.5, "description": "Pedido 42", "payer": {"name": " Ana ", "document": "529.982.247-25"}}`,
			with(func(n *domain.NewCharge) { n.Payer = &domain.Party{Name: "Ana", Document: "52998224725"} })},
		{"flat payer with CNPJ", `{"amount": 10.5, "description": "Pedido 42", "payerName": "Loja", "payerDocument": "11.222.333/0001-81"}`,
			with(func(n *domain.NewCharge) { n.Payer = &domain.Party{Name: "Loja", Document: "11222333000181"} })},
		{"payer with alphanumeric CNPJ", `{"amount": 10.5, "description": "Pedido 42", "payer": {"document": "12.abc.345/01de-35"}}`,
			with(func(n *domain.NewCharge) { n.Payer = &domain.Party{Document: "12ABC34501DE35"} })},
		{"payer object wins over flat fields", `{"amount": 10.5, "description": "Pedido 42", "payer": {"name": "Ana"}, "payerName": "Outro", "payerDocument": "bad"}`,
			with(func(n *domain.NewCharge) { n.Payer = &domain.Party{Name: "Ana"} })},
		{"externalReference trimmed", `{"amount": 10.5, "description": "Pedido 42", "externalReference": " ref-1 "}`,
			with(func(n *domain.NewCharge) { n.ExternalReference = strp("ref-1") })},
		{"split", `{"amount": 10.5, "description": "Pedido 42", "splitUser": " parceiro@example.com ", "splitTax": 12.5}`,
			with(func(n *domain.NewCharge) { n.SplitUser, n.SplitTax = "parceiro@example.com", 1250 })},
		{"split of 100%", `{"amount": 10.5, "description": "Pedido 42", "splitUser": "p@x.com", "splitTax": 100}`,
			with(func(n *domain.NewCharge) { n.SplitUser, n.SplitTax = "p@x.com", 10000 })},
		{"subaccountId trimmed", `{"amount": 10.5, "description": "Pedido 42", "subaccountId": " sub_1 "}`,
			with(func(n *domain.NewCharge) { n.SubaccountID = "sub_1" })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := domaintest.DecodeBody[domain.ChargeRequest](t, tt.body).Validate()
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Validate =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestPayerOf(t *testing.T) {
	t.Parallel()
	if p, err := domain.PayerOf(nil, nil); p != nil || err != nil {
		t.Fatalf("no payer: %+v, %v", p, err)
	}
	p, err := domain.PayerOf(nil, strp("111.444.777-35"))
	if err != nil || !reflect.DeepEqual(p, &domain.Party{Document: "11144477735"}) {
		t.Fatalf("document only: %+v, %v", p, err)
	}
	_, err = domain.PayerOf(strp("Ana"), strp("111.444.777-36"))
	domaintest.WantFieldErr(t, err, domain.ErrInvalid, "payer.document")
}
