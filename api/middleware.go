package api

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/jangada/jangada/domain"
)

const requestIDKey = "requestId"

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{8,64}$`)

// withRequestID gives every request an id (the caller's X-Request-Id when it
// is sane), echoed in the header and in the envelope.
func withRequestID(c *gin.Context) {
	id := c.GetHeader("X-Request-Id")
	if !validRequestID.MatchString(id) {
		b := make([]byte, 12)
		rand.Read(b)
		id = "req_" + hex.EncodeToString(b)
	}
	c.Set(requestIDKey, id)
	c.Header("X-Request-Id", id)
	c.Next()
}

func requestID(c *gin.Context) string { return c.GetString(requestIDKey) }

// Bounds of path and query values: no id or filter comes near them.
const (
	maxPathValue  = 256
	maxQueryValue = 1024
)

// cleanInput refuses path and query values that PostgreSQL would reject or
// that no resource could match: NUL characters, invalid UTF-8, and values
// beyond the bounds above. Each refusal is a 400 naming the parameter, so
// hostile input never reaches the database.
func cleanInput(c *gin.Context) {
	for _, p := range c.Params {
		if err := cleanValue(p.Key, p.Value, maxPathValue); err != nil {
			fail(c, err)
			return
		}
	}
	for k, vs := range c.Request.URL.Query() {
		if err := cleanValue("query parameter", k, maxQueryValue); err != nil {
			fail(c, err)
			return
		}
		for _, v := range vs {
			if err := cleanValue(k, v, maxQueryValue); err != nil {
				fail(c, err)
				return
			}
		}
	}
	c.Next()
}

// cleanValue checks one text value named field.
func cleanValue(field, v string, maxLen int) error {
	switch {
	case !utf8.ValidString(v):
		return domain.Invalid(field, "must be valid UTF-8")
	case strings.ContainsRune(v, 0):
		return domain.Invalid(field, "must not contain NUL characters")
	case len(v) > maxLen:
		return domain.Invalid(field, "must have at most %d bytes", maxLen)
	}
	return nil
}

// recoverer turns a panic into a logged 500 with the error envelope.
func recoverer(c *gin.Context) {
	defer func() {
		if r := recover(); r != nil {
			fail(c, fmt.Errorf("panic: %v", r))
		}
	}()
	c.Next()
}

var requestDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
	Name:    "jangada_http_request_duration_seconds",
	Help:    "HTTP request duration by route template, method and status.",
	Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
}, []string{"route", "method", "status"})

func init() { prometheus.MustRegister(requestDuration) }

// observe records metrics and one structured log line per request.
func observe(c *gin.Context) {
	start := time.Now()
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	d := time.Since(start)
	status := c.Writer.Status()
	// The tracing span (app: otelhttp, when tracing is on) is named after
	// the route template, as the duration metric is.
	if sp := trace.SpanFromContext(c.Request.Context()); sp.IsRecording() {
		sp.SetName(c.Request.Method + " " + route)
		sp.SetAttributes(attribute.String("http.route", route))
	}
	requestDuration.WithLabelValues(route, c.Request.Method, strconv.Itoa(status)).Observe(d.Seconds())
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelWarn
	}
	slog.Log(c.Request.Context(), level, "http request", "requestId", requestID(c), "method", c.Request.Method,
		"route", route, "status", status, "durationMs", float64(d.Microseconds())/1000, "keyId", c.GetString(keyIDKey))
}

// notFound answers unknown routes with the envelope.
func notFound(c *gin.Context) {
	c.AbortWithStatusJSON(http.StatusNotFound, envelope{Success: false, Message: "route not found", RequestID: requestID(c)})
}
