package api

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// RetryAfterUnavailable is the Retry-After (seconds) of a 503: about what a
// PostgreSQL restart or a Temporal frontend failover takes.
const RetryAfterUnavailable = "3"

// envelope is the one response shape of the merchant and admin APIs.
type envelope struct {
	Success   bool   `json:"success"`
	Message   string `json:"message"`
	Data      any    `json:"data,omitempty"`
	RequestID string `json:"requestId"`
}

// ok writes a success envelope.
func ok(c *gin.Context, message string, data any) {
	c.JSON(http.StatusOK, envelope{Success: true, Message: message, Data: data, RequestID: requestID(c)})
}

// statusOf maps business errors to HTTP statuses: the only place that does.
// A database that cannot be reached (service.Unavailable: refused, reset, shut
// down) is a 503 like domain.ErrUnavailable, on every route, whatever layer
// the error passed through.
func statusOf(err error) int {
	switch {
	case errors.Is(err, domain.ErrInvalid), errors.Is(err, domain.ErrInsufficientBalance):
		return http.StatusBadRequest
	case errors.Is(err, domain.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, domain.ErrKeyReused):
		return http.StatusUnprocessableEntity
	case errors.Is(err, domain.ErrUnauthorized):
		return http.StatusUnauthorized
	case errors.Is(err, domain.ErrForbidden):
		return http.StatusForbidden
	case errors.Is(err, domain.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, errRateLimited):
		return http.StatusTooManyRequests
	case errors.Is(err, domain.ErrUnavailable), service.Unavailable(err):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// fail writes the error envelope for err and stops the chain. Unexpected
// errors are logged and answered without their details.
func fail(c *gin.Context, err error) {
	status := statusOf(err)
	msg := err.Error()
	var de *domain.Error
	switch {
	case errors.As(err, &de):
		msg = de.Message
	case status == http.StatusInternalServerError:
		slog.ErrorContext(c.Request.Context(), "request failed", "error", err, "requestId", requestID(c), "route", c.FullPath())
		msg = "internal error"
	case status == http.StatusServiceUnavailable:
		slog.WarnContext(c.Request.Context(), "dependency unavailable", "error", err, "requestId", requestID(c))
		msg = domain.ErrUnavailable.Error()
		// The request may succeed once the dependency is back: say when to
		// try again (a client that treats 5xx as final has the hint too).
		if c.Writer.Header().Get("Retry-After") == "" {
			c.Header("Retry-After", RetryAfterUnavailable)
		}
	}
	c.AbortWithStatusJSON(status, envelope{Success: false, Message: msg, RequestID: requestID(c)})
}
