package billing

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
)

func date(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestCycleDue(t *testing.T) {
	cases := []struct {
		cycle, anchor string
		want          []string // cycles 1, 2, …
	}{
		{CycleWeekly, "2026-12-28", []string{"2026-12-28", "2027-01-04", "2027-01-11"}},
		{CycleBiweekly, "2028-02-20", []string{"2028-02-20", "2028-03-05", "2028-03-19"}},
		// Month end: the last day of shorter months, then the 31st again.
		{CycleMonthly, "2026-01-31", []string{"2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30"}},
		// A leap year's February.
		{CycleMonthly, "2028-01-31", []string{"2028-01-31", "2028-02-29", "2028-03-31"}},
		{CycleMonthly, "2026-01-30", []string{"2026-01-30", "2026-02-28", "2026-03-30"}},
		{CycleMonthly, "2026-11-15", []string{"2026-11-15", "2026-12-15", "2027-01-15"}},
		{CycleBimonthly, "2026-12-31", []string{"2026-12-31", "2027-02-28", "2027-04-30", "2027-06-30", "2027-08-31"}},
		{CycleQuarterly, "2026-11-30", []string{"2026-11-30", "2027-02-28", "2027-05-30", "2027-08-30"}},
		{CycleSemiannually, "2027-08-31", []string{"2027-08-31", "2028-02-29", "2028-08-31", "2029-02-28"}},
		// 29 February: the 28th in common years, the 29th in leap years.
		{CycleYearly, "2028-02-29", []string{"2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29"}},
		{CycleYearly, "2026-12-31", []string{"2026-12-31", "2027-12-31"}},
	}
	for _, c := range cases {
		for i, want := range c.want {
			if got := CycleDue(c.cycle, date(c.anchor), i+1).Format(time.DateOnly); got != want {
				t.Errorf("%s from %s, cycle %d: %s, want %s", c.cycle, c.anchor, i+1, got, want)
			}
		}
	}
	// Far cycles stay on the anchor's day: cycle 121 of a monthly on the 31st.
	if got := CycleDue(CycleMonthly, date("2026-01-31"), 121).Format(time.DateOnly); got != "2036-01-31" {
		t.Errorf("cycle 121: %s", got)
	}
}

func TestSubscriptionAdvanced(t *testing.T) {
	s := Subscription{Cycle: CycleMonthly, Anchor: "2026-01-31", NextCycle: 1, NextDueDate: "2026-01-31"}
	s = s.Advanced(1, "b1", "")
	if s.NextCycle != 2 || s.NextDueDate != "2026-02-28" || s.LastBillingID != "b1" {
		t.Fatalf("after cycle 1: %+v", s)
	}
	if again := s.Advanced(1, "b1", ""); again != s {
		t.Fatalf("a retried cycle 1 changed the subscription: %+v", again)
	}
	s = s.Advanced(2, "", "refused")
	if s.NextCycle != 3 || s.NextDueDate != "2026-03-31" || s.LastBillingID != "b1" || s.LastError != "refused" {
		t.Fatalf("after cycle 2: %+v", s)
	}
}

func TestDueInstantIsSaoPauloMidnight(t *testing.T) {
	got := DueInstant(date("2026-03-10")).UTC()
	if want := time.Date(2026, 3, 10, 3, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Fatalf("%s, want %s", got, want)
	}
	// 01:00 UTC on the 11th is still the 10th in São Paulo.
	if got := domain.Today(time.Date(2026, 3, 11, 1, 0, 0, 0, time.UTC)).Format(time.DateOnly); got != "2026-03-10" {
		t.Fatalf("today %s", got)
	}
}

func TestSubscriptionRequestValidate(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	valid := `{"method":"PIX","amount":49.90,"cycle":"MONTHLY","nextDueDate":"2026-03-31","description":"Plano",
		"customer":{"name":"Maria","taxId":"529.982.247-25","email":"maria@example.com"}}`
	bad := []struct{ name, body, field string }{
		{"no method", `{"amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"}}`, "method"},
		{"card debit", `{"method":"CARD_DEBIT","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"}}`, "method"},
		{"no amount", `{"method":"PIX","cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"}}`, "amount"},
		{"zero amount", `{"method":"PIX","amount":0,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"}}`, "amount"},
		{"daily", `{"method":"PIX","amount":1,"cycle":"DAILY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"}}`, "cycle"},
		{"no cycle", `{"method":"PIX","amount":1,"nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"}}`, "cycle"},
		{"no date", `{"method":"PIX","amount":1,"cycle":"MONTHLY","customer":{"name":"M","taxId":"52998224725"}}`, "nextDueDate"},
		{"bad date", `{"method":"PIX","amount":1,"cycle":"MONTHLY","nextDueDate":"31/03/2026","customer":{"name":"M","taxId":"52998224725"}}`, "nextDueDate"},
		{"Feb 30", `{"method":"PIX","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-02-30","customer":{"name":"M","taxId":"52998224725"}}`, "nextDueDate"},
		{"past date", `{"method":"PIX","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-09","customer":{"name":"M","taxId":"52998224725"}}`, "nextDueDate"},
		{"no customer", `{"method":"PIX","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31"}`, "customer"},
		{"no name", `{"method":"PIX","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"taxId":"52998224725"}}`, "customer.name"},
		{"bad cpf", `{"method":"PIX","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224724"}}`, "customer.taxId"},
		{"bad email", `{"method":"PIX","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725","email":"x"}}`, "customer.email"},
		{"card without card", `{"method":"CARD_CREDIT","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"}}`, "creditCard"},
		{"token on pix", `{"method":"PIX","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","cardToken":"tok","customer":{"name":"M","taxId":"52998224725"}}`, "cardToken"},
		{"bad luhn", `{"method":"CARD_CREDIT","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"},` +
			`"creditCard":{"holderName":"M","number":"4111111111111112","expiryMonth":"12","expiryYear":"2030","ccv":"123"}}`, "creditCard.number"},
		{"expired card", `{"method":"CARD_CREDIT","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"},` +
			`"creditCard":{"holderName":"M","number":"4111111111111111","expiryMonth":"01","expiryYear":"2026","ccv":"123"}}`, "creditCard.expiryYear"},
		{"bad ip", `{"method":"CARD_CREDIT","amount":1,"cycle":"MONTHLY","nextDueDate":"2026-03-31","customer":{"name":"M","taxId":"52998224725"},"cardToken":"t","remoteIp":"x"}`, "remoteIp"},
	}
	for _, c := range bad {
		var b SubscriptionRequest
		if err := json.Unmarshal([]byte(c.body), &b); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, err := b.ValidateAt(now)
		if !errors.Is(err, domain.ErrInvalid) || !strings.HasPrefix(err.Error(), c.field+" ") {
			t.Errorf("%s: error %v, want one naming %s", c.name, err, c.field)
		}
	}
	var b SubscriptionRequest
	if err := json.Unmarshal([]byte(valid), &b); err != nil {
		t.Fatal(err)
	}
	n, err := b.ValidateAt(now)
	if err != nil {
		t.Fatal(err)
	}
	if n.Billing.Method != "PIX" || n.Billing.Amount != 4990 || n.Cycle != CycleMonthly || n.Billing.DueDate.Format(time.DateOnly) != "2026-03-31" ||
		n.Billing.Customer.TaxID != "52998224725" || n.Billing.Customer.Name != "Maria" || *n.Billing.Customer.Email != "maria@example.com" {
		t.Fatalf("validated %+v", n)
	}
	// Today (in São Paulo) is a valid first due date, even past midnight UTC.
	late := time.Date(2026, 3, 11, 2, 0, 0, 0, time.UTC)
	b.NextDueDate = ptrTo("2026-03-10")
	if _, err := b.ValidateAt(late); err != nil {
		t.Fatalf("today refused: %v", err)
	}
}

func ptrTo[T any](v T) *T { return &v }
