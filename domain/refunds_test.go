package domain_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
)

func TestRefundRequestInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, field string
		kind              error
	}{
		{"no deposit named", `{"amount": 10}`, "transactionId", domain.ErrInvalid},
		{"blank ids", `{"transactionId": " ", "e2eId": "", "amount": 10}`, "transactionId", domain.ErrInvalid},
		{"subaccountId empty", `{"transactionId": "tx1", "amount": 10, "subaccountId": " "}`, "subaccountId", domain.ErrInvalid},
		{"amount absent", `{"transactionId": "tx1"}`, "amount", domain.ErrInvalid},
		{"refundId empty", `{"transactionId": "tx1", "amount": 10, "refundId": " "}`, "refundId", domain.ErrInvalid},
		{"refundId too long", `{"transactionId": "tx1", "amount": 10, "refundId": "` + strings.Repeat("r", 36) + `"}`, "refundId", domain.ErrInvalid},
		{"nature unknown", `{"transactionId": "tx1", "amount": 10, "nature": "PARCIAL"}`, "nature", domain.ErrInvalid},
		{"nature empty", `{"transactionId": "tx1", "amount": 10, "nature": ""}`, "nature", domain.ErrInvalid},
		{"description too long", `{"transactionId": "tx1", "amount": 10, "description": "` + strings.Repeat("d", 141) + `"}`, "description", domain.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := domaintest.DecodeBody[domain.RefundRequest](t, tt.body).Validate()
			domaintest.WantFieldErr(t, err, tt.kind, tt.field)
		})
	}
}

func TestRefundRequestValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		want       domain.NewRefund
	}{
		{"transactionId, nature defaults to ORIGINAL", `{"transactionId": " tx1 ", "amount": 10.50}`,
			domain.NewRefund{DepositRef: "tx1", Amount: 1050, Nature: "ORIGINAL"}},
		{"transactionId wins over e2eId", `{"transactionId": "tx1", "e2eId": "E123", "amount": 10.50}`,
			domain.NewRefund{DepositRef: "tx1", Amount: 1050, Nature: "ORIGINAL"}},
		{"e2eId when transactionId is blank", `{"transactionId": "", "e2eId": " E9999990820260101 ", "amount": 1}`,
			domain.NewRefund{DepositRef: "E9999990820260101", Amount: 100, Nature: "ORIGINAL"}},
		{"nature upper-cased", `{"transactionId": "tx1", "amount": 1, "nature": " retirada "}`,
			domain.NewRefund{DepositRef: "tx1", Amount: 100, Nature: "RETIRADA"}},
		{"refundId and description trimmed", `{"transactionId": "tx1", "amount": 1, "refundId": " dev-1 ", "description": " Produto devolvido "}`,
			domain.NewRefund{DepositRef: "tx1", RefundID: "dev-1", Amount: 100, Nature: "ORIGINAL", Description: "Produto devolvido"}},
		{"refundId of 35 characters", `{"transactionId": "tx1", "amount": 1, "refundId": "` + strings.Repeat("r", 35) + `"}`,
			domain.NewRefund{DepositRef: "tx1", RefundID: strings.Repeat("r", 35), Amount: 100, Nature: "ORIGINAL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := domaintest.DecodeBody[domain.RefundRequest](t, tt.body).Validate()
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Validate = %+v, want %+v", got, tt.want)
			}
		})
	}
}
