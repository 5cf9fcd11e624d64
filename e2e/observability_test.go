package e2e

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/codec"
)

// TestObservabilityTraceAndMetrics: with tracing on, one PIX out request is
// one trace from the HTTP span through the workflow's start and run into
// its activities and their SQL statements (a charge's too, whose deferred
// start runs beside the answer); the operators' /metrics carries
// the Temporal SDK's metrics, the business counters and the ledger gauge.
func TestObservabilityTraceAndMetrics(t *testing.T) {
	t.Parallel()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	cfg := testConfig(t)
	// The app dials Temporal itself, so that its client carries the
	// tracing interceptor and the SDK metrics handler.
	cfg.TemporalAddress, cfg.PayloadKey = server.GetFrontendHostPort(), codec.NewKey()
	a, err := app.New(context.Background(), cfg, app.Options{API: true, Worker: true, TracerProvider: tp})
	if err != nil {
		t.Fatal(err)
	}
	limitIdle(a)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shutdown(a) })
	e := envOf(t, a)
	m := e.merchant()
	if r := e.admin("POST", "/accounts/"+m.ID+"/adjustments", map[string]any{"amount": 50, "description": "funding"}); r.Status != 200 {
		t.Fatalf("adjust: %d %s", r.Status, r.Message)
	}
	r := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 10, "pixKey": "obs@example.com", "pixKeyType": "EMAIL", "description": "Saque traced"})
	if r.Status != 200 {
		t.Fatalf("transfer: %d %s", r.Status, r.Message)
	}
	// Settled, the workflow ends, and so does (and is exported) its run span.
	id := r.m(t)["id"].(string)
	eventually(t, "the PIX out to be settled", func() bool {
		return e.call(m.Key, "POST", "/v1/sandbox/transfer-pix/"+id+"/settle", nil).Status == 200
	})

	// The request's trace: HTTP → StartWorkflow → RunWorkflow → RunActivity
	// → SQL, each span the child of one before it in the same trace.
	find := func(all []tracetest.SpanStub, pred func(tracetest.SpanStub) bool) *tracetest.SpanStub {
		for i := range all {
			if pred(all[i]) {
				return &all[i]
			}
		}
		return nil
	}
	var why string
	t.Cleanup(func() {
		if t.Failed() {
			t.Log("why: " + why)
			for _, s := range spans.GetSpans() {
				t.Logf("span %s trace=%s id=%s parent=%s scope=%s", s.Name, s.SpanContext.TraceID(), s.SpanContext.SpanID(), s.Parent.SpanID(), s.InstrumentationScope.Name)
			}
		}
	})
	eventually(t, "the PIX out's trace from HTTP to an activity's SQL", func() bool {
		all := spans.GetSpans()
		req := find(all, func(s tracetest.SpanStub) bool { return s.Name == "POST /v1/transfer-pix/create" })
		if req == nil {
			why = "no HTTP span"
			return false
		}
		tid := req.SpanContext.TraceID()
		in := func(s tracetest.SpanStub) bool { return s.SpanContext.TraceID() == tid }
		start := find(all, func(s tracetest.SpanStub) bool {
			return in(s) && strings.HasPrefix(s.Name, "StartWorkflow:TransferWorkflow")
		})
		run := find(all, func(s tracetest.SpanStub) bool {
			return in(s) && strings.HasPrefix(s.Name, "RunWorkflow:TransferWorkflow")
		})
		act := find(all, func(s tracetest.SpanStub) bool {
			return in(s) && strings.HasPrefix(s.Name, "RunActivity:SubmitTransfer")
		})
		if start == nil || run == nil || act == nil {
			why = "workflow spans missing in the request's trace"
			return false
		}
		startAct := find(all, func(s tracetest.SpanStub) bool { return s.SpanContext.SpanID() == act.Parent.SpanID() })
		if run.Parent.SpanID() != start.SpanContext.SpanID() || startAct == nil || startAct.Parent.SpanID() != run.SpanContext.SpanID() {
			why = "the chain StartWorkflow → RunWorkflow → StartActivity → RunActivity is broken"
			return false
		}
		sqlUnder := func(parent *tracetest.SpanStub) bool {
			return find(all, func(s tracetest.SpanStub) bool {
				return in(s) && s.InstrumentationScope.Name == "github.com/XSAM/otelsql" && s.Parent.SpanID() == parent.SpanContext.SpanID()
			}) != nil
		}
		if !sqlUnder(act) {
			why = "no SQL span under RunActivity:SubmitTransfer"
			return false
		}
		if !sqlUnder(req) {
			why = "no SQL span under the HTTP span (the use case's transaction)"
			return false
		}
		if start.Parent.SpanID() != req.SpanContext.SpanID() {
			why = "StartWorkflow is not the HTTP span's child"
			return false
		}
		return true
	})

	chargeTraceContinues(t, e, m, spans)

	res, err := http.Get("http://" + a.AdminAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, name := range []string{
		"temporal_worker_task_slots_available", "temporal_workflow_task_schedule_to_start_latency_seconds_bucket",
		"temporal_activity_execution_latency_seconds_bucket", "# TYPE temporal_request_total counter",
		`jangada_events_total{event="transfer.created"}`, `jangada_events_total{event="payment.paid"}`,
		`jangada_webhook_attempts_total{outcome="delivered"}`, "jangada_ws_connections", "jangada_ledger_problems",
		"jangada_ledger_last_check_timestamp_seconds",
	} {
		if !strings.Contains(string(body), name) {
			t.Errorf("/metrics has no %s", name)
		}
	}
	checkDashboard(t, string(body))
	if t.Failed() {
		for _, l := range strings.Split(string(body), "\n") {
			if strings.HasPrefix(l, "# TYPE temporal_") {
				t.Log(l)
			}
		}
	}
}

// chargeTraceContinues: a charge's workflow starts after the answer, from
// the LaunchPool, deferred until a notice; its start and, once paid, its
// run are still in the create request's trace.
func chargeTraceContinues(t *testing.T, e *env, m merchant, spans *tracetest.InMemoryExporter) {
	t.Helper()
	c := e.call(m.Key, "POST", "/v1/payment-pix/create", map[string]any{"amount": 12.5, "description": "Cobrança traced"})
	if c.Status != 200 {
		t.Fatalf("charge: %d %s", c.Status, c.Message)
	}
	id := c.m(t)["id"].(string)
	var req, start *tracetest.SpanStub
	find := func(pred func(tracetest.SpanStub) bool) *tracetest.SpanStub {
		all := spans.GetSpans()
		for i := range all {
			if pred(all[i]) {
				return &all[i]
			}
		}
		return nil
	}
	// The start first (before the pay, whose Signal-With-Start would
	// otherwise start the workflow in the pay request's trace).
	eventually(t, "the charge's deferred start in the create request's trace", func() bool {
		req = find(func(s tracetest.SpanStub) bool { return s.Name == "POST /v1/payment-pix/create" })
		if req == nil {
			return false
		}
		start = find(func(s tracetest.SpanStub) bool {
			return strings.HasPrefix(s.Name, "StartWorkflow:ChargeWorkflow") && s.SpanContext.TraceID() == req.SpanContext.TraceID()
		})
		return start != nil
	})
	if start.Parent.SpanID() != req.SpanContext.SpanID() {
		t.Fatalf("the charge's StartWorkflow is not the create request's child: parent %s, request %s", start.Parent.SpanID(), req.SpanContext.SpanID())
	}
	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil); p.Status != 200 {
		t.Fatalf("pay: %d %s", p.Status, p.Message)
	}
	eventually(t, "the charge's run in the create request's trace", func() bool {
		return find(func(s tracetest.SpanStub) bool {
			return strings.HasPrefix(s.Name, "RunWorkflow:ChargeWorkflow") && s.SpanContext.TraceID() == req.SpanContext.TraceID() &&
				s.Parent.SpanID() == start.SpanContext.SpanID()
		}) != nil
	})
}
