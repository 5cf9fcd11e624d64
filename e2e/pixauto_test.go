package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/api"
	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/workflows"
)

// pixMerchant is a merchant with PIX automatic on, and one customer.
func (e *env) pixMerchant() (merchant, string) {
	e.t.Helper()
	m := e.merchant()
	e.enable(m, domain.FeaturePixAutomatic)
	c, err := db.InsertCustomer(context.Background(), e.app.DB, store.Customer{ID: domain.NewID("cus_"), AccountID: m.ID,
		Name: "Maria Pagadora", Email: ptrTo("maria@example.com"), Document: "52998224725"})
	if err != nil {
		e.t.Fatal(err)
	}
	return m, c.ID
}

func ptrTo[T any](v T) *T { return &v }

// pixRoutes are the PIX automatic rows of the route table.
func pixRoutes() []api.Route {
	var out []api.Route
	for _, r := range api.Routes() {
		if strings.Contains(r.Path, "/pix-automatic/") {
			out = append(out, r)
		}
	}
	return out
}

func pixPath(r api.Route, id string) string {
	return "/v1" + strings.ReplaceAll(r.Path, ":id", id)
}

// pixWant fails unless r has the status and, for errors, a message
// starting with prefix.
func pixWant(t *testing.T, what string, r resp, status int, prefix string) {
	t.Helper()
	if r.Status != status || (prefix != "" && !strings.HasPrefix(r.Message, prefix)) {
		t.Fatalf("%s: %d %q, want %d %q…", what, r.Status, r.Message, status, prefix)
	}
}

// PIX automatic: with the feature off every route (sandbox ones
// included) answers 403; another account's authorization and instructions
// are 404 on every route that names one.
func TestPixAutomaticGatedAndScoped(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	off := e.merchant()
	owner, customer := e.pixMerchant()
	other, _ := e.pixMerchant()
	routes := pixRoutes()
	if len(routes) != 10 {
		t.Fatalf("%d PIX automatic routes, want 10", len(routes))
	}
	start := string(pixauto.Today(time.Now()))
	auth := e.call(owner.Key, "POST", "/v1/pix-automatic/authorizations/create", map[string]any{"customerId": customer,
		"description": "Plano mensal", "frequency": "MONTHLY", "maxAmount": 100, "startDate": start})
	pixWant(t, "create", auth, 200, "")
	id := auth.m(t)["id"].(string)
	pixWant(t, "approve", e.call(owner.Key, "POST", "/v1/sandbox/pix-automatic/authorizations/"+id+"/approve", nil), 200, "")
	eventually(t, "the authorization ACTIVE", func() bool {
		return e.call(owner.Key, "GET", "/v1/pix-automatic/authorizations/get/"+id, nil).m(t)["status"] == pixauto.StatusActive
	})
	in := e.call(owner.Key, "POST", "/v1/pix-automatic/payment-instructions/create", map[string]any{"authorizationId": id,
		"amount": 10, "dueDate": string(pixauto.Today(time.Now()).AddDays(3))})
	pixWant(t, "instruction", in, 200, "")
	instrID := in.m(t)["id"].(string)
	for _, r := range routes {
		id := id
		if strings.Contains(r.Path, "payment-instructions/") && strings.Contains(r.Path, ":id") {
			id = instrID // the instruction routes name an instruction
		}
		if r.Feature != domain.FeaturePixAutomatic {
			t.Errorf("%s %s is not gated by pixAutomatic", r.Method, r.Path)
		}
		body := map[string]any{"authorizationId": id, "amount": 10, "dueDate": string(pixauto.Today(time.Now()).AddDays(3)),
			"customerId": customer, "description": "x", "frequency": "MONTHLY", "fixedAmount": 1, "startDate": start}
		if got := e.call(off.Key, r.Method, pixPath(r, id), body); got.Status != http.StatusForbidden {
			t.Errorf("%s %s with the feature off: %d %s", r.Method, r.Path, got.Status, got.Message)
		}
		if !strings.Contains(r.Path, ":id") && !strings.HasSuffix(r.Path, "payment-instructions/create") {
			continue
		}
		if got := e.call(other.Key, r.Method, pixPath(r, id), body); got.Status != http.StatusNotFound {
			t.Errorf("%s %s on another account's authorization: %d %s", r.Method, r.Path, got.Status, got.Message)
		}
	}
	// The owner still sees both, untouched by the other account's calls.
	if got := e.call(owner.Key, "GET", "/v1/pix-automatic/payment-instructions/get/"+instrID, nil); got.Status != 200 ||
		got.m(t)["status"] != pixauto.InstructionScheduled {
		t.Fatalf("the owner's instruction: %d %s", got.Status, got.Message)
	}
	// The other account's customer is no payer of this one's.
	_, foreign := e.pixMerchant()
	pixWant(t, "foreign customer", e.call(owner.Key, "POST", "/v1/pix-automatic/authorizations/create", map[string]any{
		"customerId": foreign, "description": "x", "frequency": "WEEKLY", "fixedAmount": 1, "startDate": start}), 400, "customerId")
	e.verifyLedger()
}

// PIX automatic end to end: the consent QR (a BR Code with the
// recurrence in field 80 and the first payment), the sandbox approval that
// pays the first payment (credited exactly), instructions refused outside
// the authorization's rule, one scheduled (a notice for it refused before any
// debit of it is out), one canceled, the authorization
// canceled; the ledger checked after each step.
func TestPixAutomaticLifecycle(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, customer := e.pixMerchant()
	today := pixauto.Today(time.Now())
	create := e.call(m.Key, "POST", "/v1/pix-automatic/authorizations/create", map[string]any{"customerId": customer,
		"description": "Academia Jangada", "frequency": "MONTHLY", "fixedAmount": 49.90, "startDate": string(today),
		"firstPaymentAmount": 10})
	pixWant(t, "create", create, 200, "")
	a := create.m(t)
	id := a["id"].(string)
	if a["status"] != pixauto.StatusPending || !strings.HasPrefix(a["qrCodeBase64"].(string), "data:image/png;base64,") {
		t.Fatalf("created %v", a)
	}
	code, err := brcode.Parse(a["copyPaste"].(string))
	if err != nil || code.RecurrenceURL != sandbox.RecurrenceHost+a["recurrenceId"].(string) || code.Amount != 1000 {
		t.Fatalf("consent QR %+v, %v", code, err)
	}
	pixWant(t, "unknown customer", e.call(m.Key, "POST", "/v1/pix-automatic/authorizations/create", map[string]any{
		"customerId": "cus_nope", "description": "x", "frequency": "MONTHLY", "fixedAmount": 1, "startDate": string(today)}), 400, "customerId")
	instruction := func(amount float64, due pixauto.Date) resp {
		return e.call(m.Key, "POST", "/v1/pix-automatic/payment-instructions/create",
			map[string]any{"authorizationId": id, "amount": amount, "dueDate": string(due)})
	}
	pixWant(t, "instruction while PENDING", instruction(49.90, today.AddDays(5)), 400, "authorizationId")

	// The payer consents and pays the first payment with the QR.
	pixWant(t, "approve", e.call(m.Key, "POST", "/v1/sandbox/pix-automatic/authorizations/"+id+"/approve", nil), 200, "")
	var firstID string
	eventually(t, "the authorization ACTIVE", func() bool {
		got := e.call(m.Key, "GET", "/v1/pix-automatic/authorizations/get/"+id, nil).m(t)
		firstID, _ = got["firstPaymentId"].(string)
		return got["status"] == pixauto.StatusActive && got["copyPaste"] == nil
	})
	first := e.call(m.Key, "GET", "/v1/pix-automatic/payment-instructions/get/"+firstID, nil).m(t)
	if first["status"] != pixauto.InstructionPaid || first["amount"] != 10.0 || first["netAmount"] != 9.5 || first["firstPayment"] != true {
		t.Fatalf("first payment %v", first)
	}
	if b := e.balance(m); b["available"] != 9.5 || b["locked24h"] != 9.5 {
		t.Fatalf("balance after the first payment %v, want 9.50 available, all locked", b)
	}
	e.verifyLedger()
	// Ops find the authorization's workflow by merchant, resource and status.
	q := fmt.Sprintf(`JangadaAccountId = %q AND JangadaResourceId = %q AND JangadaResourceType = %q AND JangadaStatus = "ACTIVE"`,
		m.ID, id, workflows.ResourcePixAutomatic)
	eventually(t, "Temporal visibility to answer "+q, func() bool {
		res, err := e.app.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: server.GetDefaultNamespace(), Query: q})
		return err == nil && len(res.GetExecutions()) == 1
	})

	// Instructions outside the authorization's rule are refused naming the field.
	pixWant(t, "not the fixed amount", instruction(50, today.AddDays(5)), 400, "amount")
	pixWant(t, "due tomorrow", instruction(49.90, today.AddDays(1)), 400, "dueDate")
	pixWant(t, "due in 11 days", instruction(49.90, today.AddDays(11)), 400, "dueDate")
	sched := instruction(49.90, today.AddDays(5))
	pixWant(t, "schedule", sched, 200, "")
	in := sched.m(t)
	inID := in["id"].(string)
	if in["status"] != pixauto.InstructionScheduled || in["authorizationId"] != id || in["feeAmount"] != 0.5 || inID != activities.InstructionID(id, 0) {
		t.Fatalf("scheduled %v", in)
	}
	again := instruction(49.90, today.AddDays(5))
	if again.Status != 200 || again.m(t)["id"] != inID {
		t.Fatalf("the same instruction again: %d %s", again.Status, again.Message)
	}
	pixWant(t, "another one in the same cycle", instruction(49.90, today.AddDays(6)), 400, "dueDate")
	list := e.call(m.Key, "GET", "/v1/pix-automatic/payment-instructions/list?authorizationId="+id, nil).m(t)
	if list["total"] != 2.0 {
		t.Fatalf("instructions %v, want the first payment and the scheduled one", list)
	}

	// Before its due date no debit of it is out: a notice of its outcome is
	// refused (the debit, its retry and the credit are proven through the
	// sandbox in TestPixAutomaticDebitRetriedThenPaid).
	inbox := &service.Inbox{DB: e.app.DB, Temporal: temporalClient, TaskQueue: e.app.Cfg.TaskQueue}
	if err := (&sandbox.Sandbox{Inbox: inbox}).SettleDebit(context.Background(), inID, 1, ""); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("a notice for an instruction never sent: %v, want it refused", err)
	}
	if got := e.call(m.Key, "GET", "/v1/pix-automatic/payment-instructions/get/"+inID, nil).m(t); got["status"] != pixauto.InstructionScheduled {
		t.Fatalf("after the refused notice %v", got)
	}
	e.verifyLedger()

	// A variable authorization's instruction is canceled before its due date.
	create = e.call(m.Key, "POST", "/v1/pix-automatic/authorizations/create", map[string]any{"customerId": customer,
		"description": "Conta de luz", "frequency": "WEEKLY", "maxAmount": 300, "startDate": string(today)})
	id2 := create.m(t)["id"].(string)
	e.call(m.Key, "POST", "/v1/sandbox/pix-automatic/authorizations/"+id2+"/approve", nil)
	eventually(t, "the second authorization ACTIVE", func() bool {
		return e.call(m.Key, "GET", "/v1/pix-automatic/authorizations/get/"+id2, nil).m(t)["status"] == pixauto.StatusActive
	})
	pixWant(t, "over maxAmount", e.call(m.Key, "POST", "/v1/pix-automatic/payment-instructions/create",
		map[string]any{"authorizationId": id2, "amount": 300.01, "dueDate": string(today.AddDays(3))}), 400, "amount")
	var2 := e.call(m.Key, "POST", "/v1/pix-automatic/payment-instructions/create",
		map[string]any{"authorizationId": id2, "amount": 123.45, "dueDate": string(today.AddDays(3))})
	pixWant(t, "variable instruction", var2, 200, "")
	v2 := var2.m(t)["id"].(string)
	canceled := e.call(m.Key, "DELETE", "/v1/pix-automatic/payment-instructions/cancel/"+v2, nil)
	if canceled.Status != 200 || canceled.m(t)["status"] != pixauto.InstructionCanceled {
		t.Fatalf("cancel: %d %s", canceled.Status, canceled.Message)
	}
	pixWant(t, "cancel twice", e.call(m.Key, "DELETE", "/v1/pix-automatic/payment-instructions/cancel/"+v2, nil), 400, "")

	// Canceling the authorization closes it for good.
	c := e.call(m.Key, "DELETE", "/v1/pix-automatic/authorizations/cancel/"+id2, nil)
	if c.Status != 200 || c.m(t)["status"] != pixauto.StatusCanceled {
		t.Fatalf("cancel authorization: %d %s", c.Status, c.Message)
	}
	pixWant(t, "cancel it again", e.call(m.Key, "DELETE", "/v1/pix-automatic/authorizations/cancel/"+id2, nil), 400, "")
	pixWant(t, "instruction after cancel", e.call(m.Key, "POST", "/v1/pix-automatic/payment-instructions/create",
		map[string]any{"authorizationId": id2, "amount": 10, "dueDate": string(today.AddDays(4))}), 400, "authorizationId")
	list = e.call(m.Key, "GET", "/v1/pix-automatic/authorizations/list?status=canceled", nil).m(t)
	if list["total"] != 1.0 {
		t.Fatalf("canceled authorizations %v", list)
	}
	if b := e.balance(m); b["available"] != 9.5 {
		t.Fatalf("balance after the cancels %v, want 9.50", b)
	}
	e.verifyLedger()

	// A consent the payer refuses.
	create = e.call(m.Key, "POST", "/v1/pix-automatic/authorizations/create", map[string]any{"customerId": customer,
		"description": "Seguro", "frequency": "YEARLY", "fixedAmount": 500, "startDate": string(today.AddDays(30))})
	id3 := create.m(t)["id"].(string)
	pixWant(t, "reject", e.call(m.Key, "POST", "/v1/sandbox/pix-automatic/authorizations/"+id3+"/reject", nil), 200, "")
	eventually(t, "the third authorization REJECTED", func() bool {
		return e.call(m.Key, "GET", "/v1/pix-automatic/authorizations/get/"+id3, nil).m(t)["status"] == pixauto.StatusRejected
	})
	pixWant(t, "approve after reject", e.call(m.Key, "POST", "/v1/sandbox/pix-automatic/authorizations/"+id3+"/approve", nil), 400, "")
	e.verifyLedger()
}

// Hostile path ids, query strings and bodies on every PIX automatic route
// of an account with the feature on: a success or a 4xx envelope, never a
// 5xx.
func TestPixAutomaticHostileInput(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, _ := e.pixMerchant()
	ids := []string{"%00", "a%00b", "%ff%fe", strings.Repeat("x", 300), "..%2F..%2Fetc", "%27%3B%20DROP%20TABLE%20accounts%3B--", "-1"}
	queries := []string{"", "page=%00", "pageSize=100000", "status=%ff", "authorizationId=%00", "status=%00", "authorizationId=%ff"}
	bodies := []string{"", "{", "[]", "null", `{"amount": "%00"}`, `{"amount": 1e999, "description": "\u0000"}`,
		`{"customerId": "\u0000", "description": "x", "frequency": "WEEKLY", "fixedAmount": 1, "startDate": "2099-01-01"}`,
		`{"customerId": "\xff\xfe", "description": "x", "frequency": "WEEKLY", "fixedAmount": 1, "startDate": "2099-01-01"}`,
		`{"authorizationId": "\u0000", "amount": 1, "dueDate": "2099-01-01"}`, `{"authorizationId": "%ff", "amount": 1, "dueDate": "2099-01-01"}`,
		`{"customerId": "c", "description": "x", "frequency": "WEEKLY", "fixedAmount": 1, "startDate": "9999-12-31", "endDate": "9999-12-31"}`}
	for _, r := range pixRoutes() {
		paths := []string{"/v1" + r.Path}
		if strings.Contains(r.Path, ":id") {
			paths = paths[:0]
			for _, id := range ids {
				paths = append(paths, "/v1"+strings.Replace(r.Path, ":id", id, 1))
			}
		}
		for _, path := range paths {
			for _, q := range queries {
				if res := e.call(m.Key, r.Method, path+"?"+q, ""); res.Status >= 500 {
					t.Errorf("%s %s?%s: %d %q", r.Method, path, q, res.Status, res.Message)
				}
			}
			if r.Method == http.MethodGet {
				continue
			}
			for _, body := range bodies {
				if res := e.call(m.Key, r.Method, path, body); res.Status >= 500 || (res.Status >= 400 && res.Message == "") {
					t.Errorf("%s %s body %.60q: %d %q", r.Method, path, body, res.Status, res.Message)
				}
			}
		}
	}
}
