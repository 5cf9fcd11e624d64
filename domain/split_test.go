package domain_test

import (
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
	"github.com/jangada/jangada/money"
)

func TestSplitAsked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		user      string
		tax       money.Percent
		want      bool
		wantField string
	}{
		{name: "none", want: false},
		{name: "both", user: "p@example.com", tax: 1000, want: true},
		{name: "tax alone", tax: 1000, wantField: "splitUser"},
		{name: "user alone", user: "p@example.com", wantField: "splitTax"},
	}
	for _, tt := range tests {
		got, err := domain.SplitAsked(tt.user, tt.tax)
		if tt.wantField != "" {
			domaintest.WantFieldErr(t, err, domain.ErrInvalid, tt.wantField)
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: SplitAsked = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestSplitTo(t *testing.T) {
	t.Parallel()
	acct := domain.Account{ID: "acc_1"}
	partner := domain.Account{ID: "acc_2", Email: "p@example.com"}
	s, err := domain.SplitTo(acct, partner, 2550, 10_000) // 25.50 % of R$ 100.00
	if err != nil || *s != (domain.Split{AccountID: "acc_2", Email: "p@example.com", Percent: 2550, Amount: 2550}) {
		t.Fatalf("SplitTo = %+v, %v", s, err)
	}
	_, err = domain.SplitTo(acct, acct, 2550, 10_000)
	domaintest.WantFieldErr(t, err, domain.ErrInvalid, "splitUser")
}
