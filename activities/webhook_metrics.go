package activities

import "github.com/prometheus/client_golang/prometheus"

// WebhookAttempts counts webhook delivery attempts by outcome: delivered
// (2xx), failed (another answer or none; retried on the schedule), busy
// (the endpoint's in-flight cap; retried), skipped (already delivered,
// endpoint deleted or disabled). On /metrics as jangada_webhook_attempts_total.
var WebhookAttempts = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "jangada_webhook_attempts_total",
	Help: "Webhook delivery attempts by outcome (delivered, failed, busy, skipped).",
}, []string{"outcome"})

func init() {
	prometheus.MustRegister(WebhookAttempts)
	for _, o := range []string{"delivered", "failed", "busy", "skipped"} {
		WebhookAttempts.WithLabelValues(o) // on /metrics from the start, at 0
	}
}

// outcomeLabel is o's label of WebhookAttempts.
func outcomeLabel(o WebhookOutcome) string {
	switch {
	case o.Skip != "":
		return "skipped"
	case o.Delivered:
		return "delivered"
	case o.StatusCode == 0 && o.Error == endpointBusy:
		return "busy"
	}
	return "failed"
}
