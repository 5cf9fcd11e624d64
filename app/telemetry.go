package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	noopmetric "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// Tracing sets up OpenTelemetry tracing from the standard variables:
// OTEL_TRACES_EXPORTER ("none" or unset: off; "console" or "stdout": span
// JSON on stdout, for dev; "otlp": OTLP over HTTP to
// OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the resource),
// OTEL_TRACES_SAMPLER(_ARG) (the SDK reads them). It returns the provider
// to hand to Options.TracerProvider (nil when off) and what flushes it at
// shutdown; the provider is also made global, with the W3C trace-context
// propagator.
func Tracing(ctx context.Context) (trace.TracerProvider, func(context.Context) error, error) {
	off := func(context.Context) error { return nil }
	var exp sdktrace.SpanExporter
	var err error
	switch kind := strings.ToLower(strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER"))); kind {
	case "", "none":
		return nil, off, nil
	case "console", "stdout":
		exp, err = stdouttrace.New()
	case "otlp":
		exp, err = otlptracehttp.New(ctx)
	default:
		return nil, off, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: use none, console (stdout) or otlp", kind)
	}
	if err != nil {
		return nil, off, fmt.Errorf("tracing exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.Environment())
	if err != nil {
		res = resource.Default()
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return tp, tp.Shutdown, nil
}

// temporalInterceptors are the Temporal client's interceptors: with a
// tracer provider, the SDK's OpenTelemetry interceptor, which carries the
// caller's span into the workflow and its activities through the
// workflow's headers (a client interceptor that is also a worker
// interceptor applies to the workers built on that client).
func temporalInterceptors(tp trace.TracerProvider) []interceptor.ClientInterceptor {
	if tp == nil {
		return nil
	}
	ti, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{Tracer: tp.Tracer("jangada/temporal")})
	if err != nil {
		slog.Error("temporal tracing interceptor", "error", err)
		return nil
	}
	return []interceptor.ClientInterceptor{ti}
}

// sdkMetrics is the Temporal SDK's metrics handler, exported on the
// process's Prometheus registry (the /metrics of the operators' listener):
// worker task slots, schedule-to-start latencies, activity and workflow
// failures… One per process: every app of the process (tests start
// several) shares the one exporter registered with Prometheus.
var sdkMetrics = sync.OnceValue(func() client.MetricsHandler {
	exp, err := otelprom.New(otelprom.WithoutScopeInfo(), otelprom.WithoutTargetInfo())
	if err != nil {
		slog.Error("temporal sdk metrics not exported", "error", err)
		return client.MetricsNopHandler
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp))
	return temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{
		Meter: mp.Meter("temporal-sdk-go"),
		// Counters as Prometheus counters (_total), which rate() reads.
		UseMonotonicCounters: true,
		OnError:              func(err error) { slog.Warn("temporal sdk metric", "error", err) },
	})
})

// traced wraps the HTTP API in a server span per request (otelhttp: the
// W3C traceparent of the caller is continued); the API's request log names
// the span after its route and logs the trace id (TraceLog).
func (a *App) traced(h http.Handler) http.Handler {
	if a.opts.TracerProvider == nil {
		return h
	}
	return otelhttp.NewHandler(h, "http", otelhttp.WithTracerProvider(a.opts.TracerProvider),
		otelhttp.WithPropagators(propagation.TraceContext{}), otelhttp.WithMeterProvider(noopmetric.NewMeterProvider()))
}
