package schedule

import (
	"testing"
	"time"

	"github.com/jangada/jangada/money"
)

func ptr(v int) *int { return &v }

var sp, _ = time.LoadLocation("America/Sao_Paulo")

func TestNextDailyWeeklyInZone(t *testing.T) {
	daily := Rule{Interval: Daily, Time: "09:00", Timezone: "America/Sao_Paulo"}
	after := time.Date(2026, 3, 10, 11, 0, 0, 0, time.UTC) // 08:00 in São Paulo
	if got := daily.Next(after, after); !got.Equal(time.Date(2026, 3, 10, 9, 0, 0, 0, sp)) {
		t.Fatalf("daily: %v", got)
	}
	if got := daily.Next(time.Date(2026, 3, 10, 9, 0, 0, 0, sp), after); !got.Equal(time.Date(2026, 3, 11, 9, 0, 0, 0, sp)) {
		t.Fatalf("daily strictly after: %v", got)
	}
	monday := Rule{Interval: Weekly, Time: "09:00", Timezone: "America/Sao_Paulo", DayOfWeek: ptr(1)}
	got := monday.Next(after, after) // Tuesday 2026-03-10
	if !got.Equal(time.Date(2026, 3, 16, 9, 0, 0, 0, sp)) || got.In(sp).Weekday() != time.Monday {
		t.Fatalf("weekly: %v", got)
	}
}

func TestNextMonthlyDay31UsesLastDay(t *testing.T) {
	r := Rule{Interval: Monthly, Time: "10:30", Timezone: "America/Sao_Paulo", DayOfMonth: ptr(31)}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, sp)
	want := []string{"2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"}
	for _, w := range want {
		at = r.Next(at, at)
		if got := at.In(sp).Format("2006-01-02 15:04"); got != w+" 10:30" {
			t.Fatalf("got %s, want %s", got, w)
		}
	}
	leap := r.Next(time.Date(2028, 2, 1, 0, 0, 0, 0, sp), at)
	if leap.In(sp).Day() != 29 {
		t.Fatalf("leap February: %v", leap)
	}
}

func TestNextCustomDaysFromAnchor(t *testing.T) {
	r := Rule{Interval: CustomDays, Time: "08:00", Timezone: "America/Sao_Paulo", CustomDays: ptr(3)}
	anchor := time.Date(2026, 5, 1, 12, 0, 0, 0, sp) // after 08:00: the cycle starts the next day
	first := r.Next(anchor, anchor)
	if !first.Equal(time.Date(2026, 5, 2, 8, 0, 0, 0, sp)) {
		t.Fatalf("first: %v", first)
	}
	second := r.Next(first, anchor)
	if !second.Equal(time.Date(2026, 5, 5, 8, 0, 0, 0, sp)) {
		t.Fatalf("second: %v", second)
	}
	// Resuming long after keeps the cycle's phase.
	later := r.Next(time.Date(2026, 6, 1, 9, 0, 0, 0, sp), anchor)
	if !later.Equal(time.Date(2026, 6, 4, 8, 0, 0, 0, sp)) {
		t.Fatalf("later: %v", later)
	}
}

func TestValidate(t *testing.T) {
	bad := []Rule{
		{Interval: "hourly", Time: "09:00"},
		{Interval: Daily, Time: "9:00"},
		{Interval: Daily, Time: "24:00"},
		{Interval: Daily, Time: "09:00", Timezone: "Mars/Olympus"},
		{Interval: Weekly, Time: "09:00", DayOfWeek: ptr(7)},
		{Interval: Monthly, Time: "09:00"},
		{Interval: CustomDays, Time: "09:00", CustomDays: ptr(0)},
	}
	for _, r := range bad {
		if err := r.Validate("recurrenceRule."); err == nil {
			t.Errorf("%+v accepted", r)
		}
	}
	r := Rule{Interval: Daily, Time: "09:00"}
	if err := r.Validate(""); err != nil || r.Timezone != DefaultTimezone {
		t.Fatalf("default zone: %v %q", err, r.Timezone)
	}
}

func TestLabels(t *testing.T) {
	cases := map[string]Rule{
		"Toda segunda-feira às 09:00":             {Interval: Weekly, Time: "09:00", Timezone: DefaultTimezone, DayOfWeek: ptr(1)},
		"Todo sábado às 18:30":                    {Interval: Weekly, Time: "18:30", Timezone: DefaultTimezone, DayOfWeek: ptr(6)},
		"Todos os dias às 07:00":                  {Interval: Daily, Time: "07:00", Timezone: DefaultTimezone},
		"A cada 15 dias às 12:00":                 {Interval: CustomDays, Time: "12:00", Timezone: DefaultTimezone, CustomDays: ptr(15)},
		"Todo dia 5 de cada mês às 08:00":         {Interval: Monthly, Time: "08:00", Timezone: DefaultTimezone, DayOfMonth: ptr(5)},
		"Todos os dias às 07:00 (America/Manaus)": {Interval: Daily, Time: "07:00", Timezone: "America/Manaus"},
	}
	for want, r := range cases {
		if got := r.Label(); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	s := Schedule{Trigger: BalanceThreshold, Threshold: money.Cents(123456)}
	if got := s.ScheduleLabel(); got != "Quando o saldo disponível atingir R$ 1.234,56" {
		t.Errorf("threshold label %q", got)
	}
	at := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	s = Schedule{Trigger: Once, At: &at}
	if got := s.ScheduleLabel(); got != "Uma vez, em 15/03/2026 às 09:00" {
		t.Errorf("once label %q", got)
	}
}

func TestPublicMasksAndDashes(t *testing.T) {
	s := Schedule{ID: "s1", Trigger: Recurring, Status: StatusCompleted, Rule: &Rule{Interval: Daily, Time: "09:00"},
		Payload: Payload{Method: MethodPix, Amount: 1000, PixKey: "52998224725", PixKeyType: "CPF", CoverFee: true}}
	now := time.Now()
	s.NextRunAt = &now
	r := s.Public()
	if r.Destination != "***.982.247-**" || r.Method != "PIX" || r.TriggerType != "recurring" || r.NextRunAt != Dash || r.LastRunAt != nil {
		t.Fatalf("%+v", r)
	}
	s.Payload = Payload{Method: MethodInternal, RecipientEmail: "financeiro@loja.com.br"}
	if r := s.Public(); r.Destination != "fi***@loja.com.br" || r.Method != "Transferência interna" {
		t.Fatalf("%+v", r)
	}
	s.Payload = Payload{Method: MethodCrypto, PayCurrency: "BTC", Address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"}
	if r := s.Public(); r.Destination != "BTC bc1qar…5mdq" || r.Method != "Cripto" {
		t.Fatalf("%+v", r)
	}
}
