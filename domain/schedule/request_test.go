package schedule_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/money"
)

// reqNow is the instant the requests are validated at.
var reqNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

func decodeReq[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return v
}

func wantReqErr(t *testing.T, err error, kind error, prefix string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one starting with %q", prefix)
	}
	var de *domain.Error
	if !errors.Is(err, kind) || !errors.As(err, &de) {
		t.Fatalf("error %q is not a %v *domain.Error", err, kind)
	}
	if !strings.HasPrefix(err.Error(), prefix+" ") {
		t.Fatalf("error %q does not start with %q", err, prefix+" ")
	}
}

// btcAddress is a valid Bitcoin (bech32) address.
const btcAddress = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

// pixPayload is a valid pix_padrao payload to wrap in bodies.
const pixPayload = `"payload": {"method": "pix_padrao", "amount": 25.50, "pixKey": "529.982.247-25", "pixKeyType": "CPF"}`

func TestCreateRequestInvalid(t *testing.T) {
	t.Parallel()
	once := `"triggerType": "ONCE", "scheduledAt": "2026-03-15T09:00:00-03:00", `
	rule := func(r string) string {
		return `{"triggerType": "RECURRING", "recurrenceRule": ` + r + `, ` + pixPayload + `}`
	}
	payload := func(p string) string { return `{` + once + `"payload": ` + p + `}` }
	tests := []struct {
		name, body, field string
	}{
		{"triggerType absent", `{` + pixPayload + `}`, "triggerType"},
		{"triggerType unknown", `{"triggerType": "DAILY", ` + pixPayload + `}`, "triggerType"},
		{"scheduledAt absent", `{"triggerType": "ONCE", ` + pixPayload + `}`, "scheduledAt"},
		{"scheduledAt without zone", `{"triggerType": "ONCE", "scheduledAt": "2026-03-15T09:00:00", ` + pixPayload + `}`, "scheduledAt"},
		{"scheduledAt not a date", `{"triggerType": "ONCE", "scheduledAt": "tomorrow", ` + pixPayload + `}`, "scheduledAt"},
		{"scheduledAt in the past", `{"triggerType": "ONCE", "scheduledAt": "2026-03-10T08:59:59-03:00", ` + pixPayload + `}`, "scheduledAt"},
		{"scheduledAt now", `{"triggerType": "ONCE", "scheduledAt": "2026-03-10T12:00:00Z", ` + pixPayload + `}`, "scheduledAt"},
		{"recurrenceRule absent", `{"triggerType": "RECURRING", ` + pixPayload + `}`, "recurrenceRule"},
		{"interval absent", rule(`{"time": "09:00"}`), "recurrenceRule.interval"},
		{"interval unknown", rule(`{"interval": "yearly", "time": "09:00"}`), "recurrenceRule.interval"},
		{"time absent", rule(`{"interval": "daily"}`), "recurrenceRule.time"},
		{"time one-digit hour", rule(`{"interval": "daily", "time": "9:00"}`), "recurrenceRule.time"},
		{"time 24:00", rule(`{"interval": "daily", "time": "24:00"}`), "recurrenceRule.time"},
		{"time with seconds", rule(`{"interval": "daily", "time": "09:00:00"}`), "recurrenceRule.time"},
		{"timezone unknown", rule(`{"interval": "daily", "time": "09:00", "timezone": "America/Atlantis"}`), "recurrenceRule.timezone"},
		{"weekly without day", rule(`{"interval": "weekly", "time": "09:00"}`), "recurrenceRule.dayOfWeek"},
		{"weekly day 7", rule(`{"interval": "weekly", "time": "09:00", "dayOfWeek": 7}`), "recurrenceRule.dayOfWeek"},
		{"weekly day -1", rule(`{"interval": "weekly", "time": "09:00", "dayOfWeek": -1}`), "recurrenceRule.dayOfWeek"},
		{"monthly day 0", rule(`{"interval": "monthly", "time": "09:00", "dayOfMonth": 0}`), "recurrenceRule.dayOfMonth"},
		{"monthly day 32", rule(`{"interval": "monthly", "time": "09:00", "dayOfMonth": 32}`), "recurrenceRule.dayOfMonth"},
		{"custom_days absent", rule(`{"interval": "custom_days", "time": "09:00"}`), "recurrenceRule.customDays"},
		{"custom_days 3661", rule(`{"interval": "custom_days", "time": "09:00", "customDays": 3661}`), "recurrenceRule.customDays"},
		{"balanceThreshold absent", `{"triggerType": "BALANCE_THRESHOLD", ` + pixPayload + `}`, "balanceThreshold"},
		{"balanceThreshold zero", `{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 0, ` + pixPayload + `}`, "balanceThreshold"},
		{"balanceThreshold too large", `{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 1000000000.01, ` + pixPayload + `}`, "balanceThreshold"},
		{"maxRuns zero", `{` + once + `"maxRuns": 0, ` + pixPayload + `}`, "maxRuns"},
		{"maxRuns 10000", `{` + once + `"maxRuns": 10000, ` + pixPayload + `}`, "maxRuns"},
		{"label too long", `{` + once + `"label": "` + strings.Repeat("l", 121) + `", ` + pixPayload + `}`, "label"},
		{"payload absent", `{` + once[:len(once)-2] + `}`, "payload"},
		{"method absent", payload(`{"amount": 10}`), "payload.method"},
		{"method unknown", payload(`{"method": "ted", "amount": 10}`), "payload.method"},
		{"crypto address absent", payload(`{"method": "cripto", "amount": 10, "payCurrency": "BTC"}`), "payload.address"},
		{"crypto currency absent", payload(`{"method": "cripto", "amount": 10, "address": "` + btcAddress + `"}`), "payload.payCurrency"},
		{"crypto currency unknown", payload(`{"method": "cripto", "amount": 10, "payCurrency": "DOGE", "address": "` + btcAddress + `"}`), "payload.payCurrency"},
		{"crypto address of another network", payload(`{"method": "cripto", "amount": 10, "payCurrency": "BTC", "address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}`), "payload.address"},
		{"crypto amount absent", payload(`{"method": "cripto", "payCurrency": "BTC", "address": "` + btcAddress + `"}`), "payload.amount"},
		{"crypto XRP without tag", payload(`{"method": "cripto", "amount": 10, "payCurrency": "XRP", "address": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"}`), "payload.extraId"},
		{"crypto from a sub-account", payload(`{"method": "cripto", "amount": 10, "payCurrency": "BTC", "address": "` + btcAddress + `", "subaccountId": "sub_1"}`), "payload.subaccountId"},
		{"pix amount absent", payload(`{"method": "pix_padrao", "pixKey": "52998224725", "pixKeyType": "CPF"}`), "payload.amount"},
		{"pix amount too large", payload(`{"method": "pix_padrao", "amount": 1000000.01, "pixKey": "52998224725", "pixKeyType": "CPF"}`), "payload.amount"},
		{"pix key absent", payload(`{"method": "pix_padrao", "amount": 10}`), "payload.pixKey"},
		{"pix key type absent", payload(`{"method": "pix_padrao", "amount": 10, "pixKey": "52998224725"}`), "payload.pixKeyType"},
		{"pix key type unknown", payload(`{"method": "pix_padrao", "amount": 10, "pixKey": "52998224725", "pixKeyType": "RG"}`), "payload.pixKeyType"},
		{"pix key check digit", payload(`{"method": "pix_padrao", "amount": 10, "pixKey": "52998224724", "pixKeyType": "CPF"}`), "payload.pixKey"},
		{"pix description too long", payload(`{"method": "pix_padrao", "amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "description": "` +
			strings.Repeat("d", 141) + `"}`), "payload.description"},
		{"pixRail sent", payload(`{"method": "pix_padrao", "amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "pixRail": "X"}`), "payload.pixRail"},
		{"internal amount zero", payload(`{"method": "interna", "amount": 0, "recipientEmail": "b@example.com"}`), "payload.amount"},
		{"internal recipient absent", payload(`{"method": "interna", "amount": 10}`), "payload.recipientEmail"},
		{"internal recipient invalid", payload(`{"method": "interna", "amount": 10, "recipientEmail": "bob"}`), "payload.recipientEmail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := decodeReq[schedule.CreateRequest](t, tt.body).ValidateAt(reqNow)
			wantReqErr(t, err, domain.ErrInvalid, tt.field)
		})
	}
}

func TestCreateRequestPayloadSubaccount(t *testing.T) {
	t.Parallel()
	// A PIX payload may debit a sub-account: the use case checks it exists
	// and the account has sub-account PIX; each run checks its locks.
	n, err := decodeReq[schedule.CreateRequest](t, `{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100,
		"payload": {"method": "pix_padrao", "amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "subaccountId": " sub_1 "}}`).ValidateAt(reqNow)
	if err != nil || n.Payload.SubaccountID != "sub_1" {
		t.Fatalf("payload %+v, %v; want subaccountId sub_1", n.Payload, err)
	}
}

func TestCreateRequestValid(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	pix := schedule.Payload{Method: schedule.MethodPix, Amount: 2550, PixKey: "52998224725", PixKeyType: "CPF", CoverFee: true}
	one, two := 1, 2
	tests := []struct {
		name, body string
		want       schedule.NewSchedule
	}{
		{"ONCE in UTC, pix coverFee defaults to true", `{"triggerType": " once ", "scheduledAt": "2026-03-15T09:00:00-03:00", ` + pixPayload + `}`,
			schedule.NewSchedule{Trigger: schedule.Once, At: &at, Payload: pix}},
		{"label trimmed, maxRuns", `{"triggerType": "ONCE", "scheduledAt": "2026-03-15T12:00:00Z", "label": " Aluguel ", "maxRuns": 9999, ` + pixPayload + `}`,
			schedule.NewSchedule{Trigger: schedule.Once, At: &at, Label: "Aluguel", MaxRuns: 9999, Payload: pix}},
		{"RECURRING weekly, default time zone", `{"triggerType": "RECURRING", "recurrenceRule": {"interval": " WEEKLY ", "time": " 09:00 ", "dayOfWeek": 1}, ` + pixPayload + `}`,
			schedule.NewSchedule{Trigger: schedule.Recurring, Payload: pix,
				Rule: &schedule.Rule{Interval: schedule.Weekly, Time: "09:00", Timezone: schedule.DefaultTimezone, DayOfWeek: &one}}},
		{"RECURRING custom_days in a zone", `{"triggerType": "RECURRING", "recurrenceRule": {"interval": "custom_days", "time": "23:59", "timezone": "America/Manaus", "customDays": 2}, ` + pixPayload + `}`,
			schedule.NewSchedule{Trigger: schedule.Recurring, Payload: pix,
				Rule: &schedule.Rule{Interval: schedule.CustomDays, Time: "23:59", Timezone: "America/Manaus", CustomDays: &two}}},
		{"BALANCE_THRESHOLD internal, coverFee defaults to false", `{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 500.00,
			"payload": {"method": "INTERNA", "amount": 0.01, "recipientEmail": " Bob@Example.com ", "description": " Repasse "}}`,
			schedule.NewSchedule{Trigger: schedule.BalanceThreshold, Threshold: 50000,
				Payload: schedule.Payload{Method: schedule.MethodInternal, Amount: 1, RecipientEmail: "bob@example.com", Description: "Repasse"}}},
		{"cripto: the spec's word, a BTC withdrawal", `{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100,
			"payload": {"method": " Cripto ", "amount": 25, "payCurrency": "btc", "address": " ` + btcAddress + ` ", "description": "Reserva"}}`,
			schedule.NewSchedule{Trigger: schedule.BalanceThreshold, Threshold: 10000,
				Payload: schedule.Payload{Method: schedule.MethodCrypto, Amount: 2500, PayCurrency: "BTC", Address: btcAddress, Description: "Reserva"}}},
		{"pix coverFee false, e-mail key", `{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 1,
			"payload": {"method": "pix_padrao", "amount": 10, "coverFee": false, "pixKey": "Ana@Example.com", "pixKeyType": "email"}}`,
			schedule.NewSchedule{Trigger: schedule.BalanceThreshold, Threshold: 100,
				Payload: schedule.Payload{Method: schedule.MethodPix, Amount: 1000, PixKey: "ana@example.com", PixKeyType: "EMAIL"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := decodeReq[schedule.CreateRequest](t, tt.body).ValidateAt(reqNow)
			if err != nil {
				t.Fatalf("ValidateAt: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ValidateAt =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestUpdateRequestInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, field string
	}{
		{"payload sent", `{"payload": {}, "label": "x"}`, "payload"},
		{"triggerType sent", `{"triggerType": "ONCE", "label": "x"}`, "triggerType"},
		{"nothing to change", `{}`, "send at least one of"},
		{"status unknown", `{"status": "CANCELED"}`, "status"},
		{"scheduledAt in the past", `{"scheduledAt": "2026-03-01T00:00:00Z"}`, "scheduledAt"},
		{"scheduledAt without zone", `{"scheduledAt": "2026-04-01 10:00"}`, "scheduledAt"},
		{"recurrenceRule invalid", `{"recurrenceRule": {"interval": "daily", "time": "7h"}}`, "recurrenceRule.time"},
		{"recurrenceRule without interval", `{"recurrenceRule": {"time": "07:00"}}`, "recurrenceRule.interval"},
		{"balanceThreshold zero", `{"balanceThreshold": 0}`, "balanceThreshold"},
		{"balanceThreshold negative", `{"balanceThreshold": -1}`, "balanceThreshold"},
		{"maxRuns zero", `{"maxRuns": 0}`, "maxRuns"},
		{"label too long", `{"label": "` + strings.Repeat("l", 121) + `"}`, "label"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := decodeReq[schedule.UpdateRequest](t, tt.body).ValidateAt(reqNow)
			wantReqErr(t, err, domain.ErrInvalid, tt.field)
		})
	}
}

func TestUpdateRequestValid(t *testing.T) {
	t.Parallel()
	active, paused, empty := schedule.StatusActive, schedule.StatusPaused, ""
	at := time.Date(2026, 4, 1, 13, 0, 0, 0, time.UTC)
	th, runs, day := money.Cents(123456), 12, 31
	tests := []struct {
		name, body string
		want       schedule.Patch
	}{
		{"pause", `{"status": " paused "}`, schedule.Patch{Status: &paused}},
		{"resume", `{"status": "ACTIVE"}`, schedule.Patch{Status: &active}},
		{"scheduledAt in UTC", `{"scheduledAt": "2026-04-01T10:00:00-03:00"}`, schedule.Patch{At: &at}},
		{"rule", `{"recurrenceRule": {"interval": "monthly", "time": "10:30", "dayOfMonth": 31}}`,
			schedule.Patch{Rule: &schedule.Rule{Interval: schedule.Monthly, Time: "10:30", Timezone: schedule.DefaultTimezone, DayOfMonth: &day}}},
		{"threshold, maxRuns", `{"balanceThreshold": 1234.56, "maxRuns": 12}`, schedule.Patch{Threshold: &th, MaxRuns: &runs}},
		{"label cleared", `{"label": "  "}`, schedule.Patch{Label: &empty}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := decodeReq[schedule.UpdateRequest](t, tt.body).ValidateAt(reqNow)
			if err != nil {
				t.Fatalf("ValidateAt: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ValidateAt =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}
