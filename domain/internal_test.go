package domain_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
)

func TestInternalRequestInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, field string
	}{
		{"amount absent", `{"recipientEmail": "b@example.com"}`, "amount"},
		{"amount zero", `{"amount": 0, "recipientEmail": "b@example.com"}`, "amount"},
		{"amount negative", `{"amount": -0.01, "recipientEmail": "b@example.com"}`, "amount"},
		{"amount above R$ 1,000,000.00", `{"amount": 1000000.01, "recipientEmail": "b@example.com"}`, "amount"},
		{"recipientEmail absent", `{"amount": 10}`, "recipientEmail"},
		{"recipientEmail too short", `{"amount": 10, "recipientEmail": "b@"}`, "recipientEmail"},
		{"recipientEmail not an address", `{"amount": 10, "recipientEmail": "bob.example.com"}`, "recipientEmail"},
		{"recipientEmail without a dot", `{"amount": 10, "recipientEmail": "bob@example"}`, "recipientEmail"},
		{"description too long", `{"amount": 10, "recipientEmail": "b@example.com", "description": "` + strings.Repeat("d", 141) + `"}`, "description"},
		{"externalReference empty", `{"amount": 10, "recipientEmail": "b@example.com", "externalReference": ""}`, "externalReference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := domaintest.DecodeBody[domain.InternalRequest](t, tt.body).Validate()
			domaintest.WantFieldErr(t, err, domain.ErrInvalid, tt.field)
		})
	}
}

func TestInternalRequestValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		want       domain.NewInternal
	}{
		{"smallest amount, e-mail lower-cased", `{"amount": 0.01, "recipientEmail": " Bob@Example.COM "}`,
			domain.NewInternal{Amount: 1, RecipientEmail: "bob@example.com"}},
		{"largest amount", `{"amount": 1000000, "recipientEmail": "bob@example.com"}`,
			domain.NewInternal{Amount: 100_000_000, RecipientEmail: "bob@example.com"}},
		{"description and reference trimmed", `{"amount": 12.34, "recipientEmail": "bob@example.com", "description": " Repasse ", "externalReference": " int-1 "}`,
			domain.NewInternal{Amount: 1234, RecipientEmail: "bob@example.com", Description: "Repasse", ExternalReference: strp("int-1")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := domaintest.DecodeBody[domain.InternalRequest](t, tt.body).Validate()
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Validate = %+v, want %+v", got, tt.want)
			}
		})
	}
}
