package bureau

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

func TestDunningEligibility(t *testing.T) {
	verified := domain.Account{Verified: true}
	cases := []struct {
		name     string
		acct     domain.Account
		status   string
		existing *Dunning
		want     string // prefix of the reason; "" eligible
	}{
		{"overdue", verified, billing.BillingOverdue, nil, ""},
		{"denied before: may ask again", verified, billing.BillingOverdue, &Dunning{ID: "d1", Status: DunningDenied}, ""},
		{"not verified", domain.Account{}, billing.BillingOverdue, nil, "the account is not verified"},
		{"pending", verified, billing.BillingPending, nil, "the billing is PENDING"},
		{"paid", verified, billing.BillingReceived, nil, "the billing is RECEIVED"},
		{"canceled", verified, billing.BillingCanceled, nil, "the billing is CANCELED"},
		{"standing dunning", verified, billing.BillingOverdue, &Dunning{ID: "d1", Status: DunningAwaitingApproval}, "the billing already has dunning d1"},
		{"processed dunning", verified, billing.BillingOverdue, &Dunning{ID: "d1", Status: DunningProcessed}, "the billing already has dunning d1"},
	}
	for _, c := range cases {
		got := DunningEligibility(c.acct, c.status, c.existing)
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDunningRequestValidate(t *testing.T) {
	s := func(v string) *string { return &v }
	valid := func() DunningRequest {
		return DunningRequest{Payment: s("bil_1"), Type: s("credit_bureau"), CustomerName: s("Maria"), CustomerCpfCnpj: s("11.222.333/0001-81"),
			CustomerPostalCode: s("01310-100"), CustomerAddress: s("Av. Paulista"), CustomerAddressNumber: s("1000"),
			CustomerProvince: s("Bela Vista"), CustomerCity: s("São Paulo"), CustomerState: s("sp"),
			Document: []byte("\x89PNG\r\n\x1a\n0000"), DocumentName: "nota.png"}
	}
	n, err := valid().Validate()
	if err != nil {
		t.Fatal(err)
	}
	if n.DocumentType != "image/png" || n.Debtor.CpfCnpj != "11222333000181" || n.Debtor.PostalCode != "01310100" || n.Debtor.State != "SP" {
		t.Fatalf("%+v", n)
	}
	// The JSON form: documents in base64.
	j := valid()
	j.Document = nil
	j.Documents = &FileRequest{Name: s("nota.pdf"), ContentBase64: s(base64.StdEncoding.EncodeToString([]byte("%PDF-1.7\n")))}
	if n, err := j.Validate(); err != nil || n.DocumentType != "application/pdf" || n.DocumentName != "nota.pdf" {
		t.Fatalf("JSON form: %+v, %v", n, err)
	}
	bad := map[string]func(*DunningRequest){
		"payment":               func(r *DunningRequest) { r.Payment = nil },
		"type":                  func(r *DunningRequest) { r.Type = s("PROTEST") },
		"customerCpfCnpj":       func(r *DunningRequest) { r.CustomerCpfCnpj = s("11.222.333/0001-80") },
		"customerPostalCode":    func(r *DunningRequest) { r.CustomerPostalCode = s("1310-100") },
		"customerAddressNumber": func(r *DunningRequest) { r.CustomerAddressNumber = s("  ") },
		"customerState":         func(r *DunningRequest) { r.CustomerState = s("São Paulo") },
		"documents":             func(r *DunningRequest) { r.Document = []byte("GIF89a......") },
		"customerEmail":         func(r *DunningRequest) { r.CustomerEmail = s("x@") },
	}
	for field, edit := range bad {
		r := valid()
		edit(&r)
		_, err := r.Validate()
		if !errors.Is(err, domain.ErrInvalid) || !strings.HasPrefix(err.Error(), field+" ") {
			t.Errorf("%s: %v", field, err)
		}
	}
}
