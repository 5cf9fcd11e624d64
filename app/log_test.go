package app

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// TestTraceLogAddsTheTraceID: a line logged under a recorded span carries
// its trace and span ids; one without a span carries none.
func TestTraceLogAddsTheTraceID(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(TraceLog(slog.NewJSONHandler(&buf, nil))).With("component", "api")
	tp := sdktrace.NewTracerProvider()
	ctx, span := tp.Tracer("test").Start(context.Background(), "request")
	log.InfoContext(ctx, "http request", "requestId", "req_1")
	span.End()
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line["traceId"] != span.SpanContext().TraceID().String() || line["spanId"] != span.SpanContext().SpanID().String() || line["requestId"] != "req_1" {
		t.Errorf("line %v", line)
	}
	buf.Reset()
	log.InfoContext(context.Background(), "no span")
	if bytes.Contains(buf.Bytes(), []byte("traceId")) {
		t.Errorf("line without a span: %s", buf.Bytes())
	}
}
