package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/money"
)

const updateSchedulePath = "/v1/transfer-scheduled/update/sch_1"

func scheduleRecord(status string) schedule.Record {
	return schedule.Record{
		ID: "sch_1", Label: "aluguel", Amount: 2500, Method: "PIX", Destination: "f***@example.com",
		TriggerType: "recurring", ScheduleLabel: "Toda segunda às 09:30", NextRunAt: schedule.Dash, Status: status,
		CreatedAt: domain.NewTime(time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)),
	}
}

func TestHandlerScheduleUpdate(t *testing.T) {
	t.Parallel()
	long := `"` + strings.Repeat("x", 121) + `"`
	refusals := []struct {
		name, body, message string
	}{
		{"bad JSON", `{"status":`, "request body must be a JSON object"},
		{"non-object body", `["paused"]`, "request body must be a JSON object"},
		{"empty body", ``, "send at least one of status, scheduledAt, recurrenceRule, balanceThreshold, maxRuns, label"},
		{"only unknown fields", `{"foo":1}`, "send at least one of"},
		{"payload present", `{"payload":{"method":"interna","amount":5}}`, "payload cannot change: cancel the schedule and create a new one"},
		{"payload present beside valid fields", `{"label":"novo","payload":"x"}`, "payload cannot change"},
		{"triggerType present", `{"triggerType":"ONCE"}`, "triggerType cannot change: cancel the schedule and create a new one"},
		{"triggerType present as a number", `{"maxRuns":3,"triggerType":0}`, "triggerType cannot change"},
		{"unknown status", `{"status":"completed"}`, "status must be ACTIVE or PAUSED"},
		{"status as a boolean", `{"status":false}`, "status must be a string"},
		{"scheduledAt in the past", `{"scheduledAt":"2020-01-01T00:00:00-03:00"}`, "scheduledAt must be in the future"},
		{"scheduledAt not ISO 8601", `{"scheduledAt":"amanhã"}`, "scheduledAt must be an ISO 8601 date-time with a time zone"},
		{"recurrenceRule not an object", `{"recurrenceRule":"daily"}`, "recurrenceRule must be an object"},
		{"recurrenceRule without time", `{"recurrenceRule":{"interval":"daily"}}`, "recurrenceRule.time is required"},
		{"monthly rule with day 32", `{"recurrenceRule":{"interval":"monthly","time":"10:00","dayOfMonth":32}}`, "recurrenceRule.dayOfMonth is required with interval monthly: 1 to 31"},
		{"balanceThreshold as a string", `{"balanceThreshold":"100"}`, "balanceThreshold must be a number, not a string"},
		{"balanceThreshold with three decimals", `{"balanceThreshold":100.001}`, "balanceThreshold must be a number with at most two decimal places"},
		{"negative balanceThreshold", `{"balanceThreshold":-1}`, "balanceThreshold must be a positive amount in BRL"},
		{"maxRuns zero", `{"maxRuns":0}`, "maxRuns must be an integer from 1 to 9999"},
		{"maxRuns as a string", `{"maxRuns":"3"}`, "maxRuns must be an integer"},
		{"label too long", `{"label":` + long + `}`, "label must have at most 120 characters"},
	}
	for _, tc := range refusals {
		t.Run("PATCH /v1/transfer-scheduled/update/{id}: "+tc.name+" → 400", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("transfer-scheduled/update")
			expectFail(t, f.merchant("PATCH", updateSchedulePath, tc.body), http.StatusBadRequest, tc.message)
		})
	}

	t.Run("PATCH /v1/transfer-scheduled/update/{id}: status, maxRuns, threshold and label → 200", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("transfer-scheduled/update")
		paused, threshold, runs, label := schedule.StatusPaused, money.Cents(150_050), 12, "novo rótulo"
		want := schedule.Patch{Status: &paused, Threshold: &threshold, MaxRuns: &runs, Label: &label}
		f.schedules.EXPECT().Update(gomock.Any(), gomock.Any(), "sch_1", gomock.Any()).
			DoAndReturn(func(_ context.Context, acct domain.Account, _ string, p schedule.Patch) (schedule.Record, error) {
				if acct.ID != testAccountID {
					t.Errorf("Schedules.Update got account %q", acct.ID)
				}
				if !reflect.DeepEqual(p, want) {
					t.Errorf("Schedules.Update got %s, want %s", describePatch(p), describePatch(want))
				}
				return scheduleRecord(schedule.StatusPaused), nil
			})
		w := f.merchant("PATCH", updateSchedulePath, `{"status":" paused ","balanceThreshold":1500.5,"maxRuns":12,"label":" novo rótulo "}`)
		data := expectOK(t, w, "Scheduled transfer updated")
		expectFields(t, data, map[string]string{"id": `"sch_1"`, "status": `"paused"`, "amount": `25.00`, "nextRunAt": `"-"`})
	})

	t.Run("PATCH /v1/transfer-scheduled/update/{id}: scheduledAt and recurrenceRule → 200", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("transfer-scheduled/*")
		at := time.Now().Add(72 * time.Hour).Truncate(time.Second)
		f.schedules.EXPECT().Update(gomock.Any(), gomock.Any(), "sch_1", gomock.Any()).
			DoAndReturn(func(_ context.Context, _ domain.Account, _ string, p schedule.Patch) (schedule.Record, error) {
				if p.At == nil || !p.At.Equal(at) {
					t.Errorf("Schedules.Update got At %v, want %v", p.At, at)
				}
				wantRule := &schedule.Rule{Interval: schedule.CustomDays, Time: "23:59", Timezone: "America/Manaus", CustomDays: ptr(15)}
				if !reflect.DeepEqual(p.Rule, wantRule) {
					t.Errorf("Schedules.Update got rule %+v, want %+v", p.Rule, wantRule)
				}
				if p.Status != nil || p.MaxRuns != nil || p.Label != nil || p.Threshold != nil {
					t.Errorf("Schedules.Update got fields the body did not send: %s", describePatch(p))
				}
				return scheduleRecord(schedule.StatusActive), nil
			})
		body := fmt.Sprintf(`{"scheduledAt":%q,"recurrenceRule":{"interval":"CUSTOM_DAYS","time":"23:59","timezone":"America/Manaus","customDays":15}}`,
			at.Format(time.RFC3339))
		expectOK(t, f.merchant("PATCH", updateSchedulePath, body), "Scheduled transfer updated")
	})

	mapped := []struct {
		name    string
		err     error
		status  int
		message string
	}{
		{"schedule not found → 404", domain.NotFound("scheduled transfer"), http.StatusNotFound, "scheduled transfer not found"},
		{"closed schedule → 400", domain.Invalidf("a completed schedule cannot be updated"), http.StatusBadRequest, "a completed schedule cannot be updated"},
		{"unexpected error → 500", errors.New("pq: deadlock detected"), http.StatusInternalServerError, "internal error"},
	}
	for _, tc := range mapped {
		t.Run("PATCH /v1/transfer-scheduled/update/{id}: "+tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("transfer-scheduled/update")
			f.schedules.EXPECT().Update(gomock.Any(), gomock.Any(), "sch_1", gomock.Any()).Return(schedule.Record{}, tc.err)
			env := expectFail(t, f.merchant("PATCH", updateSchedulePath, `{"status":"active"}`), tc.status, tc.message)
			if got := deref(env.Message); got != tc.message {
				t.Errorf("message = %q, want exactly %q", got, tc.message)
			}
		})
	}
}

func describePatch(p schedule.Patch) string {
	return fmt.Sprintf("{Status:%v At:%v Rule:%+v Threshold:%v MaxRuns:%v Label:%v}",
		deref(p.Status), p.At, p.Rule, deref(p.Threshold), deref(p.MaxRuns), deref(p.Label))
}

func TestHandlerScheduleRunNowAndCancel(t *testing.T) {
	t.Parallel()
	type call func(f *fixture) *gomock.Call
	runNow := func(f *fixture) *gomock.Call {
		return f.schedules.EXPECT().RunNow(gomock.Any(), gomock.Any(), "sch_1")
	}
	cancel := func(f *fixture) *gomock.Call {
		return f.schedules.EXPECT().Cancel(gomock.Any(), gomock.Any(), "sch_1")
	}
	routes := []struct {
		path, permission, message string
		call                      call
		record                    schedule.Record
		fields                    map[string]string
	}{
		{
			path: "/v1/transfer-scheduled/run-now/sch_1", permission: "transfer-scheduled/run-now", message: "Scheduled transfer ran", call: runNow,
			record: func() schedule.Record {
				r := scheduleRecord(schedule.StatusActive)
				r.RunCount = 1
				r.Run = &schedule.RunResult{RunNumber: 1, TransactionID: "tx_out_7", Type: domain.TypePixOut, Status: domain.StatusProcessing, Amount: 2500}
				return r
			}(),
			fields: map[string]string{
				"id": `"sch_1"`, "runCount": `1`,
				"run": `{"runNumber":1,"transactionId":"tx_out_7","type":"PIX_OUT","status":"PROCESSING","amount":25.00}`,
			},
		},
		{
			path: "/v1/transfer-scheduled/cancel/sch_1", permission: "transfer-scheduled/cancel", message: "Scheduled transfer cancelled", call: cancel,
			record: scheduleRecord(schedule.StatusCompleted),
			fields: map[string]string{"id": `"sch_1"`, "status": `"completed"`, "nextRunAt": `"-"`},
		},
	}
	errorsCases := []struct {
		name    string
		err     error
		status  int
		message string
	}{
		{"not found → 404", domain.NotFound("scheduled transfer"), http.StatusNotFound, "scheduled transfer not found"},
		{"closed schedule → 400", domain.Invalidf("the schedule is completed"), http.StatusBadRequest, "the schedule is completed"},
		{"insufficient balance → 400", domain.Insufficient("available balance of 1.00 does not cover 25.50"), http.StatusBadRequest, "available balance of 1.00 does not cover 25.50"},
		{"forbidden → 403", domain.Forbidden("the schedule's API key was revoked"), http.StatusForbidden, "the schedule's API key was revoked"},
		{"Temporal unavailable → 503", fmt.Errorf("update workflow: %w", domain.ErrUnavailable), http.StatusServiceUnavailable, domain.ErrUnavailable.Error()},
		{"unexpected error → 500", errors.New("workflow execution already completed"), http.StatusInternalServerError, "internal error"},
	}
	hostile := []struct{ name, path, message string }{
		{"run-now with an id over 256 bytes → 400", "/v1/transfer-scheduled/run-now/" + strings.Repeat("s", 257), "id must have at most 256 bytes"},
		{"cancel with a NUL in the id → 400", "/v1/transfer-scheduled/cancel/sch%001", "id must not contain NUL characters"},
		{"cancel with invalid UTF-8 in the id → 400", "/v1/transfer-scheduled/cancel/sch%ff", "id must be valid UTF-8"},
	}
	for _, tc := range hostile {
		t.Run("POST /v1/transfer-scheduled/"+tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("*")
			expectFail(t, f.merchant("POST", tc.path, ""), http.StatusBadRequest, tc.message)
		})
	}
	for _, r := range routes {
		t.Run("POST "+r.path+" → 200", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized(r.permission)
			r.call(f).DoAndReturn(func(_ context.Context, acct domain.Account, _ string) (schedule.Record, error) {
				if acct.ID != testAccountID {
					t.Errorf("got account %q, want %q", acct.ID, testAccountID)
				}
				return r.record, nil
			})
			data := expectOK(t, f.merchant("POST", r.path, ""), r.message)
			expectFields(t, data, r.fields)
		})
		t.Run("POST "+r.path+": body is ignored → 200", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized(r.permission)
			r.call(f).Return(r.record, nil)
			expectOK(t, f.merchant("POST", r.path, `not json at all`), r.message)
		})
		for _, tc := range errorsCases {
			t.Run("POST "+r.path+": "+tc.name, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t).authorized(r.permission)
				r.call(f).Return(schedule.Record{}, tc.err)
				env := expectFail(t, f.merchant("POST", r.path, ""), tc.status, tc.message)
				if got := deref(env.Message); got != tc.message {
					t.Errorf("message = %q, want exactly %q", got, tc.message)
				}
			})
		}
	}
}

func TestHandlerScheduleList(t *testing.T) {
	t.Parallel()
	refusals := []struct{ name, query, message string }{
		{"page zero", "?page=0", "page must be an integer from 1 to 2147483647"},
		{"page not a number", "?page=two", "page must be an integer from 1 to 2147483647"},
		{"pageSize above 100", "?pageSize=101", "pageSize must be an integer from 1 to 100"},
		{"page with invalid UTF-8", "?page=%ff", "page must be valid UTF-8"},
		{"search with a NUL", "?search=a%00b", "search must not contain NUL characters"},
	}
	for _, tc := range refusals {
		t.Run("GET /v1/transfer-scheduled/list: "+tc.name+" → 400", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("transfer-scheduled/list")
			expectFail(t, f.merchant("GET", "/v1/transfer-scheduled/list"+tc.query, ""), http.StatusBadRequest, tc.message)
		})
	}
	t.Run("GET /v1/transfer-scheduled/list: page 2 → 200 with {items} and the page counts", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("transfer-scheduled/list")
		next := time.Date(2099, 1, 5, 12, 30, 0, 0, time.UTC)
		f.schedules.EXPECT().List(gomock.Any(), gomock.Any(), 2, 10).Return([]schedule.Schedule{{
			ID: "sch_1", AccountID: testAccountID, APIKeyID: testKeyID, Label: "aluguel", Trigger: schedule.BalanceThreshold,
			Threshold: 100_000, Status: schedule.StatusActive, NextRunAt: &next,
			Payload: schedule.Payload{Method: schedule.MethodInternal, Amount: 500, RecipientEmail: "bob@example.com"},
		}}, 21, nil)
		data := expectOK(t, f.merchant("GET", "/v1/transfer-scheduled/list?page=2&pageSize=10", ""), "Scheduled transfers")
		// The list envelope of every list: {items} and the page counts.
		expectFields(t, data, map[string]string{"page": `2`, "pageSize": `10`, "total": `21`, "pages": `3`})
		items := string(data["items"])
		for _, want := range []string{`"id":"sch_1"`, `"amount":5.00`, `"triggerType":"balance_threshold"`, `"method":"Transferência interna"`} {
			if !strings.Contains(items, want) {
				t.Errorf("items %s lack %s", items, want)
			}
		}
		for _, leak := range []string{testAccountID, testKeyID, "bob@example.com"} {
			if strings.Contains(items, leak) {
				t.Errorf("items %s leak %q", items, leak)
			}
		}
	})
	t.Run("GET /v1/transfer-scheduled/list: use case unavailable → 503", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("transfer-scheduled/list")
		f.schedules.EXPECT().List(gomock.Any(), gomock.Any(), 1, 50).Return(nil, 0, fmt.Errorf("db: %w", domain.ErrUnavailable))
		expectFail(t, f.merchant("GET", "/v1/transfer-scheduled/list", ""), http.StatusServiceUnavailable, domain.ErrUnavailable.Error())
	})
}
