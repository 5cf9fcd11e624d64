package e2e

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/workflows"
)

const scheduledPath = "/v1/transfer-scheduled/"

func weeklyPix(amount float64) map[string]any {
	return map[string]any{
		"triggerType": "RECURRING", "label": "Fornecedor semanal",
		"recurrenceRule": map[string]any{"interval": "weekly", "time": "09:00", "dayOfWeek": 1},
		"payload":        map[string]any{"method": "pix_padrao", "amount": amount, "pixKey": "529.982.247-25", "pixKeyType": "CPF"},
	}
}

func (e *env) schedule(m merchant, body map[string]any) map[string]any {
	e.t.Helper()
	r := e.call(m.Key, "POST", scheduledPath+"create", body)
	if r.Status != 200 {
		e.t.Fatalf("create schedule: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)
}

// rearmedAfterRun reports whether the schedule's workflow, after its run-th
// run, read its account's available balance below the threshold: from
// then on it fires again when the balance reaches the threshold.
func (e *env) rearmedAfterRun(id string, run int, threshold money.Cents) bool {
	e.t.Helper()
	it := e.app.Temporal.GetWorkflowHistory(context.Background(), workflows.ScheduleWorkflowID(id), "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	activity := map[int64]string{} // scheduled event id -> activity type
	runs := 0
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			e.t.Fatalf("schedule history: %v", err)
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			activity[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		a := ev.GetActivityTaskCompletedEventAttributes()
		if a == nil {
			continue
		}
		var sa *activities.Schedules
		switch activity[a.GetScheduledEventId()] {
		case activityName(sa.RunSchedule):
			runs++
		case activityName(sa.ScheduleBalance):
			var bal money.Cents
			if err := dataConverter.FromPayloads(a.GetResult(), &bal); err != nil {
				e.t.Fatalf("balance read: %v", err)
			}
			if runs >= run && bal < threshold {
				return true
			}
		}
	}
	return false
}

func wantStatus(t *testing.T, r resp, status int, contains string) {
	t.Helper()
	if r.Status != status || !strings.Contains(r.Message, contains) {
		t.Fatalf("got %d %q, want %d with %q", r.Status, r.Message, status, contains)
	}
}

func TestScheduleCreateValidationListGet(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	s := e.schedule(m, weeklyPix(10))
	if s["method"] != "PIX" || s["destination"] != "***.982.247-**" || s["triggerType"] != "recurring" ||
		s["scheduleLabel"] != "Toda segunda-feira às 09:00" || s["status"] != "active" || s["runCount"] != 0.0 ||
		s["coverFee"] != true || s["amount"] != 10.0 || s["label"] != "Fornecedor semanal" || s["lastRunAt"] != nil {
		t.Fatalf("record %v", s)
	}
	next, err := time.Parse(time.RFC3339, s["nextRunAt"].(string))
	if err != nil || next.Weekday() != time.Monday || next.UTC().Hour() != 12 || !next.After(time.Now()) {
		t.Fatalf("nextRunAt %v (%v): Monday 09:00 in São Paulo is 12:00 UTC", s["nextRunAt"], err)
	}

	bad := []struct {
		body     map[string]any
		status   int
		contains string
	}{
		{map[string]any{"payload": weeklyPix(10)["payload"]}, 400, "triggerType"},
		{map[string]any{"triggerType": "ONCE", "scheduledAt": time.Now().Add(-time.Hour).Format(time.RFC3339), "payload": weeklyPix(10)["payload"]}, 400, "scheduledAt must be in the future"},
		{map[string]any{"triggerType": "RECURRING", "recurrenceRule": map[string]any{"interval": "monthly", "time": "09:00"}, "payload": weeklyPix(10)["payload"]}, 400, "recurrenceRule.dayOfMonth"},
		{map[string]any{"triggerType": "RECURRING", "recurrenceRule": map[string]any{"interval": "daily", "time": "09:00", "timezone": "Mars/Base"}, "payload": weeklyPix(10)["payload"]}, 400, "recurrenceRule.timezone"},
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "payload": weeklyPix(10)["payload"]}, 400, "balanceThreshold"},
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100, "maxRuns": 10000, "payload": weeklyPix(10)["payload"]}, 400, "maxRuns"},
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100, "maxRuns": 0, "payload": weeklyPix(10)["payload"]}, 400, "maxRuns"},
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100, "label": strings.Repeat("x", 121), "payload": weeklyPix(10)["payload"]}, 400, "label"},
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100, "payload": map[string]any{"method": "cripto", "amount": 10, "address": "bc1q", "payCurrency": "BTC"}}, 400, "payload.address"},
		// A valid cripto payload on an account without the crypto feature.
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100, "payload": map[string]any{"method": "cripto", "amount": 10, "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "payCurrency": "BTC"}}, 403, "crypto"},
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100, "payload": map[string]any{"method": "pix_padrao", "amount": 10, "pixKey": "123", "pixKeyType": "CPF"}}, 400, "payload.pixKey"},
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100, "payload": map[string]any{"method": "pix_padrao", "amount": 10.001, "pixKey": "52998224725", "pixKeyType": "CPF"}}, 400, "amount"},
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100, "payload": map[string]any{"method": "interna", "amount": 10, "recipientEmail": m.Email}}, 400, "yourself"},
		{map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 100, "payload": map[string]any{"method": "pix_padrao", "amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "subaccountId": "sub_1"}}, 403, "subaccountId"},
	}
	for _, b := range bad {
		wantStatus(t, e.call(m.Key, "POST", scheduledPath+"create", b.body), b.status, b.contains)
	}

	r := e.call(m.Key, "GET", scheduledPath+"list", nil)
	list := r.m(t)
	// {items} with the page counts, like every list.
	if r.Status != 200 || len(list["items"].([]any)) != 1 || list["total"] != 1.0 || list["pages"] != 1.0 || list["page"] != 1.0 || list["pageSize"] != 50.0 {
		t.Fatalf("list: %d %v", r.Status, list)
	}
	if got := e.call(m.Key, "GET", scheduledPath+"get/"+s["id"].(string), nil).m(t); got["id"] != s["id"] || got["status"] != "active" {
		t.Fatalf("get: %v", got)
	}
	other := e.merchant()
	for _, c := range []struct{ method, path string }{
		{"GET", "get/"}, {"PATCH", "update/"}, {"POST", "run-now/"}, {"POST", "cancel/"},
	} {
		wantStatus(t, e.call(other.Key, c.method, scheduledPath+c.path+s["id"].(string), map[string]any{"label": "x"}), 404, "not found")
	}
	if items := e.call(other.Key, "GET", scheduledPath+"list", nil).m(t)["items"].([]any); len(items) != 0 {
		t.Fatalf("another account lists %v", items)
	}
	limited := e.merchant("transfer-scheduled/get")
	wantStatus(t, e.call(limited.Key, "POST", scheduledPath+"cancel/"+s["id"].(string), nil), 403, "transfer-scheduled/cancel")
}

func TestScheduleUpdatePauseResumeCancel(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	id := e.schedule(m, weeklyPix(10))["id"].(string)
	patch := func(body any) resp { return e.call(m.Key, "PATCH", scheduledPath+"update/"+id, body) }

	r := patch(map[string]any{"status": "PAUSED"})
	if p := r.m(t); r.Status != 200 || p["status"] != "paused" || p["nextRunAt"] != "-" {
		t.Fatalf("pause: %d %s %v", r.Status, r.Message, p)
	}
	wantStatus(t, patch(map[string]any{"payload": map[string]any{"amount": 20}}), 400, "payload cannot change")
	wantStatus(t, patch(map[string]any{"triggerType": "ONCE"}), 400, "triggerType cannot change")
	wantStatus(t, patch(map[string]any{}), 400, "at least one")
	wantStatus(t, patch(map[string]any{"status": "DONE"}), 400, "status")
	wantStatus(t, patch(map[string]any{"balanceThreshold": 10}), 400, "balanceThreshold applies only")

	r = patch(map[string]any{"status": "ACTIVE", "label": "Novo rótulo",
		"recurrenceRule": map[string]any{"interval": "monthly", "time": "10:00", "dayOfMonth": 31}, "maxRuns": 12})
	p := r.m(t)
	if r.Status != 200 || p["status"] != "active" || p["label"] != "Novo rótulo" || p["nextRunAt"] == "-" ||
		!strings.HasPrefix(p["scheduleLabel"].(string), "Todo dia 31 de cada mês às 10:00") || p["maxRuns"] != 12.0 {
		t.Fatalf("resume: %d %s %v", r.Status, r.Message, p)
	}
	if got := e.call(m.Key, "GET", scheduledPath+"get/"+id, nil).m(t); got["label"] != "Novo rótulo" || got["status"] != "active" {
		t.Fatalf("get after update: %v", got)
	}

	r = e.call(m.Key, "POST", scheduledPath+"cancel/"+id, nil)
	if c := r.m(t); r.Status != 200 || c["status"] != "completed" || c["nextRunAt"] != "-" {
		t.Fatalf("cancel: %d %s %v", r.Status, r.Message, c)
	}
	wantStatus(t, patch(map[string]any{"status": "ACTIVE"}), 400, "completed")
	wantStatus(t, e.call(m.Key, "POST", scheduledPath+"run-now/"+id, nil), 400, "completed")
	wantStatus(t, e.call(m.Key, "POST", scheduledPath+"cancel/"+id, nil), 400, "completed")
}

func TestScheduleRunNowMovesMoney(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, to := e.merchant(), e.merchant()
	e.fund(m, 100)

	pix := e.schedule(m, weeklyPix(10))["id"].(string)
	r := e.call(m.Key, "POST", scheduledPath+"run-now/"+pix, nil)
	if r.Status != 200 {
		t.Fatalf("run-now: %d %s", r.Status, r.Message)
	}
	rec := r.m(t)
	run := rec["run"].(map[string]any)
	if rec["runCount"] != 1.0 || rec["lastRunAt"] == nil || rec["status"] != "active" || run["type"] != "PIX_OUT" {
		t.Fatalf("run-now record %v", rec)
	}
	tr := e.call(m.Key, "GET", "/v1/transfer-pix/get/"+run["transactionId"].(string), nil).m(t)
	if tr["externalReference"] != "sched-"+pix+"-1" || tr["amount"] != 10.0 {
		t.Fatalf("transfer %v", tr)
	}
	wantBalance(t, e, m, 89.5, 10.5, 89.5) // R$ 10 + R$ 0.50 fee reserved

	internal := e.schedule(m, map[string]any{"triggerType": "RECURRING",
		"recurrenceRule": map[string]any{"interval": "daily", "time": "23:59"},
		"payload":        map[string]any{"method": "interna", "amount": 5, "recipientEmail": to.Email}})
	if internal["method"] != "Transferência interna" || !strings.Contains(internal["destination"].(string), "***@example.com") {
		t.Fatalf("internal record %v", internal)
	}
	if r := e.call(m.Key, "POST", scheduledPath+"run-now/"+internal["id"].(string), nil); r.Status != 200 {
		t.Fatalf("internal run-now: %d %s", r.Status, r.Message)
	}
	wantBalance(t, e, m, 84.5, 10.5, 84.5)
	wantBalance(t, e, to, 5, 0, 5)

	big := e.schedule(m, weeklyPix(1000))["id"].(string)
	wantStatus(t, e.call(m.Key, "POST", scheduledPath+"run-now/"+big, nil), 400, "insufficient balance")
	if got := e.call(m.Key, "GET", scheduledPath+"get/"+big, nil).m(t); got["runCount"] != 0.0 || got["status"] != "active" {
		t.Fatalf("a refused run-now changed the schedule: %v", got)
	}
	wantBalance(t, e, m, 84.5, 10.5, 84.5)

	// A one-off runs by itself at its time (a durable timer) and completes.
	once := e.schedule(m, map[string]any{"triggerType": "ONCE", "scheduledAt": time.Now().Add(2 * time.Second).Format(time.RFC3339Nano),
		"payload": map[string]any{"method": "interna", "amount": 1.5, "recipientEmail": to.Email}})
	if !strings.HasPrefix(once["scheduleLabel"].(string), "Uma vez, em ") {
		t.Fatalf("once label %v", once["scheduleLabel"])
	}
	eventually(t, "the one-off to run", func() bool {
		got := e.call(m.Key, "GET", scheduledPath+"get/"+once["id"].(string), nil).m(t)
		return got["status"] == "completed" && got["runCount"] == 1.0
	})
	wantBalance(t, e, to, 6.5, 0, 6.5)
	e.verifyLedger()
}

func TestScheduleBalanceThresholdFiresOnCrossing(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, to := e.merchant(), e.merchant()
	s := e.schedule(m, map[string]any{"triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 50,
		"payload": map[string]any{"method": "interna", "amount": 30, "recipientEmail": to.Email}})
	id := s["id"].(string)
	if s["scheduleLabel"] != "Quando o saldo disponível atingir R$ 50,00" || s["nextRunAt"] != "-" || s["triggerType"] != "balance_threshold" {
		t.Fatalf("record %v", s)
	}
	wantStatus(t, e.call(m.Key, "POST", scheduledPath+"run-now/"+id, nil), 400, "has not reached the threshold")

	e.fund(m, 40) // below: nothing
	e.fund(m, 20) // 60 reaches 50: one run, 30 leaves
	eventually(t, "the threshold run", func() bool {
		return e.call(m.Key, "GET", scheduledPath+"get/"+id, nil).m(t)["runCount"] == 1.0
	})
	wantBalance(t, e, to, 30, 0, 30)
	e.fund(m, 10) // 40: below again
	// The schedule samples the balance when told it changed: it must see
	// it below the threshold (after its run took 30) before it reaches the
	// threshold again, or there is no crossing to see.
	eventually(t, "the schedule to see its balance below the threshold again", func() bool {
		return e.rearmedAfterRun(id, 1, 5000)
	})
	e.fund(m, 15) // 55: reached again, a second run
	eventually(t, "the second threshold run", func() bool {
		return e.call(m.Key, "GET", scheduledPath+"get/"+id, nil).m(t)["runCount"] == 2.0
	})
	// Positive signal that the crossing is behind it: after its second run
	// the workflow has read the balance back below the threshold (R$ 25),
	// so nothing more fires without a new crossing.
	eventually(t, "the schedule to see its balance below the threshold after the second run", func() bool {
		return e.rearmedAfterRun(id, 2, 5000)
	})
	if got := e.call(m.Key, "GET", scheduledPath+"get/"+id, nil).m(t); got["runCount"] != 2.0 {
		t.Fatalf("fired more than once per crossing: %v", got)
	}
	wantBalance(t, e, m, 25, 0, 25)
	wantBalance(t, e, to, 60, 0, 60)
	e.verifyLedger()
}

func TestScheduleLimitOfTwentyActive(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ids []string
	refused := 0
	for range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.call(m.Key, "POST", scheduledPath+"create", weeklyPix(1))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case r.Status == 200:
				ids = append(ids, r.m(t)["id"].(string))
			case r.Status == 400 && strings.Contains(r.Message, "active scheduled transfers"):
				refused++
			default:
				t.Errorf("create: %d %s", r.Status, r.Message)
			}
		}()
	}
	wg.Wait()
	if len(ids) != 20 || refused != 4 {
		t.Fatalf("%d created, %d refused; want 20 and 4", len(ids), refused)
	}
	if r := e.call(m.Key, "PATCH", scheduledPath+"update/"+ids[0], map[string]any{"status": "PAUSED"}); r.Status != 200 {
		t.Fatalf("pause: %d %s", r.Status, r.Message)
	}
	e.schedule(m, weeklyPix(1)) // a paused schedule frees its place
	wantStatus(t, e.call(m.Key, "PATCH", scheduledPath+"update/"+ids[0], map[string]any{"status": "ACTIVE"}), 400, "active scheduled transfers")
	if r := e.call(m.Key, "POST", scheduledPath+"cancel/"+ids[1], nil); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "PATCH", scheduledPath+"update/"+ids[0], map[string]any{"status": "ACTIVE"}); r.Status != 200 {
		t.Fatalf("resume after cancel: %d %s", r.Status, r.Message)
	}
}
