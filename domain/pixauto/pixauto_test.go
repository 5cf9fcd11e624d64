package pixauto

import (
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/money"
)

func ptr[T any](v T) *T { return &v }

// now is 2026-11-25 10:00 in São Paulo (13:00 UTC).
var now = time.Date(2026, 11, 25, 13, 0, 0, 0, time.UTC)

func TestAuthorizationRequestValidate(t *testing.T) {
	t.Parallel()
	ok := func() AuthorizationRequest {
		return AuthorizationRequest{CustomerID: ptr("cus_1"), Description: ptr("Academia"), Frequency: ptr("monthly"),
			FixedAmount: ptr(money.Cents(4990)), StartDate: ptr("2026-12-01")}
	}
	cases := []struct {
		name  string
		edit  func(*AuthorizationRequest)
		field string // "" = valid
	}{
		{"valid fixed", func(*AuthorizationRequest) {}, ""},
		{"valid max with end and first payment", func(b *AuthorizationRequest) {
			b.FixedAmount, b.MaxAmount, b.EndDate, b.FirstPaymentAmount = nil, ptr(money.Cents(10000)), ptr("2027-12-01"), ptr(money.Cents(100))
		}, ""},
		{"start today in São Paulo", func(b *AuthorizationRequest) { b.StartDate = ptr("2026-11-25") }, ""},
		{"no customer", func(b *AuthorizationRequest) { b.CustomerID = nil }, "customerId"},
		{"no description", func(b *AuthorizationRequest) { b.Description = ptr(" ") }, "description"},
		{"no frequency", func(b *AuthorizationRequest) { b.Frequency = nil }, "frequency"},
		{"bad frequency", func(b *AuthorizationRequest) { b.Frequency = ptr("DAILY") }, "frequency"},
		{"both amounts", func(b *AuthorizationRequest) { b.MaxAmount = ptr(money.Cents(1)) }, "fixedAmount"},
		{"no amount", func(b *AuthorizationRequest) { b.FixedAmount = nil }, "fixedAmount"},
		{"zero fixed", func(b *AuthorizationRequest) { b.FixedAmount = ptr(money.Cents(0)) }, "fixedAmount"},
		{"negative max", func(b *AuthorizationRequest) { b.FixedAmount, b.MaxAmount = nil, ptr(money.Cents(-1)) }, "maxAmount"},
		{"no start", func(b *AuthorizationRequest) { b.StartDate = nil }, "startDate"},
		{"bad start", func(b *AuthorizationRequest) { b.StartDate = ptr("2026-02-30") }, "startDate"},
		{"start yesterday", func(b *AuthorizationRequest) { b.StartDate = ptr("2026-11-24") }, "startDate"},
		{"end before start", func(b *AuthorizationRequest) { b.EndDate = ptr("2026-11-30") }, "endDate"},
		{"bad end", func(b *AuthorizationRequest) { b.EndDate = ptr("01/12/2027") }, "endDate"},
		{"zero first payment", func(b *AuthorizationRequest) { b.FirstPaymentAmount = ptr(money.Cents(0)) }, "firstPaymentAmount"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := ok()
			c.edit(&b)
			n, err := b.ValidateAt(now)
			if c.field == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				if n.Frequency != strings.ToUpper(*b.Frequency) {
					t.Errorf("frequency = %q", n.Frequency)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), c.field+" ") {
				t.Fatalf("err = %v, want one naming %s", err, c.field)
			}
		})
	}
}

func TestInstructionRequestValidate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		b     InstructionRequest
		field string
	}{
		{InstructionRequest{ptr("pa_1"), ptr(money.Cents(10)), ptr("2026-11-28")}, ""},
		{InstructionRequest{nil, ptr(money.Cents(10)), ptr("2026-11-28")}, "authorizationId"},
		{InstructionRequest{ptr("pa_1"), nil, ptr("2026-11-28")}, "amount"},
		{InstructionRequest{ptr("pa_1"), ptr(money.Cents(0)), ptr("2026-11-28")}, "amount"},
		{InstructionRequest{ptr("pa_1"), ptr(money.Cents(10)), nil}, "dueDate"},
		{InstructionRequest{ptr("pa_1"), ptr(money.Cents(10)), ptr("28/11/2026")}, "dueDate"},
	} {
		_, err := c.b.Validate()
		if (c.field == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), c.field+" ")) {
			t.Errorf("Validate(%+v) = %v, want field %q", c.b, err, c.field)
		}
	}
}

func TestAdmit(t *testing.T) {
	t.Parallel()
	fixed := Authorization{Status: StatusActive, Frequency: Monthly, FixedAmount: ptr(money.Cents(4990)), StartDate: "2026-11-20", EndDate: ptr(Date("2027-01-31"))}
	max := Authorization{Status: StatusActive, Frequency: Weekly, MaxAmount: ptr(money.Cents(10000)), StartDate: "2026-11-20"}
	for _, c := range []struct {
		name   string
		a      Authorization
		amount money.Cents
		due    Date
		at     time.Time
		field  string
		cycle  int
	}{
		{"fixed equal, 2 days ahead", fixed, 4990, "2026-11-27", now, "", 0},
		{"fixed next cycle, 10 days ahead", fixed, 4990, "2026-12-05", now, "", 0},
		{"fixed in cycle 1", fixed, 4990, "2026-12-20", now.AddDate(0, 0, 15), "", 1},
		{"fixed other amount", fixed, 4991, "2026-11-27", now, "amount", 0},
		{"max below", max, 9999, "2026-11-28", now, "", 1},
		{"max equal", max, 10000, "2026-11-28", now, "", 1},
		{"max over", max, 10001, "2026-11-28", now, "amount", 0},
		{"1 day ahead", fixed, 4990, "2026-11-26", now, "dueDate", 0},
		{"11 days ahead", fixed, 4990, "2026-12-06", now, "dueDate", 0},
		// 2026-11-25 23:30 in São Paulo is already the 26th in UTC: days count in São Paulo.
		{"late evening in São Paulo", fixed, 4990, "2026-11-27", time.Date(2026, 11, 26, 2, 30, 0, 0, time.UTC), "", 0},
		{"after endDate", Authorization{Status: StatusActive, Frequency: Monthly, FixedAmount: ptr(money.Cents(1)), StartDate: "2026-11-20",
			EndDate: ptr(Date("2026-11-28"))}, 1, "2026-11-29", now, "dueDate", 0},
		{"before startDate", Authorization{Status: StatusActive, Frequency: Monthly, FixedAmount: ptr(money.Cents(1)), StartDate: "2026-12-01"},
			1, "2026-11-30", now, "dueDate", 0},
		{"pending", Authorization{Status: StatusPending, Frequency: Monthly, FixedAmount: ptr(money.Cents(1)), StartDate: "2026-11-20"}, 1, "2026-11-28", now, "authorizationId", 0},
		{"canceled", Authorization{Status: StatusCanceled, Frequency: Monthly, FixedAmount: ptr(money.Cents(1)), StartDate: "2026-11-20"}, 1, "2026-11-28", now, "authorizationId", 0},
		{"expired", Authorization{Status: StatusExpired, Frequency: Monthly, FixedAmount: ptr(money.Cents(1)), StartDate: "2026-11-20"}, 1, "2026-11-28", now, "authorizationId", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			cycle, err := c.a.Admit(c.amount, c.due, c.at)
			if c.field == "" {
				if err != nil || cycle != c.cycle {
					t.Fatalf("Admit = %d, %v; want cycle %d", cycle, err, c.cycle)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), c.field+" ") {
				t.Fatalf("err = %v, want one naming %s", err, c.field)
			}
		})
	}
}

func TestCalendar(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		start Date
		freq  string
		n     int
		due   Date
	}{
		{"2026-01-31", Monthly, 1, "2026-02-28"},
		{"2026-01-31", Monthly, 2, "2026-03-31"},
		{"2028-01-31", Monthly, 1, "2028-02-29"},
		{"2026-11-25", Weekly, 2, "2026-12-09"},
		{"2026-11-30", Quarterly, 1, "2027-02-28"},
		{"2026-08-31", Semiannually, 1, "2027-02-28"},
		{"2026-02-28", Yearly, 2, "2028-02-28"},
		{"2026-12-15", Monthly, 13, "2028-01-15"},
	} {
		if got := DueOf(c.start, c.freq, c.n); got != c.due {
			t.Errorf("DueOf(%s, %s, %d) = %s, want %s", c.start, c.freq, c.n, got, c.due)
		}
		if got := CycleOf(c.start, c.freq, c.due); got != c.n {
			t.Errorf("CycleOf(%s, %s, %s) = %d, want %d", c.start, c.freq, c.due, got, c.n)
		}
		if got := CycleOf(c.start, c.freq, c.due.AddDays(-1)); got != c.n-1 {
			t.Errorf("CycleOf(day before %s) = %d, want %d", c.due, got, c.n-1)
		}
	}
	if got := CycleOf("2026-12-01", Monthly, "2026-11-30"); got != -1 {
		t.Errorf("CycleOf before start = %d, want -1", got)
	}
	if got, want := Date("2026-11-27").Start(), time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("Start = %v, want %v (midnight in São Paulo)", got, want)
	}
	if got := DaysAhead(time.Date(2026, 11, 26, 2, 59, 0, 0, time.UTC), "2026-11-27"); got != 2 {
		t.Errorf("DaysAhead at 23:59 in São Paulo = %d, want 2", got)
	}
}

func TestPublicShowsQROnlyWhilePending(t *testing.T) {
	t.Parallel()
	a := Authorization{ID: "pa_1", Status: StatusPending, CopyPaste: "000201", ConsentExpiresAt: now}
	if v := a.Public("data:x"); v.CopyPaste != "000201" || v.QRCodeBase64 != "data:x" || v.ConsentExpiresAt == nil {
		t.Errorf("pending view %+v lacks the QR", v)
	}
	a.Status = StatusActive
	if v := a.Public("data:x"); v.CopyPaste != "" || v.QRCodeBase64 != "" || v.ConsentExpiresAt != nil {
		t.Errorf("active view %+v shows the QR", v)
	}
}
