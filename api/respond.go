package api

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

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
func statusOf(err error) int {
	switch {
	case errors.Is(err, domain.ErrInvalid), errors.Is(err, domain.ErrInsufficientBalance), errors.Is(err, domain.ErrConflict):
		return http.StatusBadRequest
	case errors.Is(err, domain.ErrUnauthorized):
		return http.StatusUnauthorized
	case errors.Is(err, domain.ErrForbidden):
		return http.StatusForbidden
	case errors.Is(err, domain.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, errRateLimited):
		return http.StatusTooManyRequests
	case errors.Is(err, domain.ErrUnavailable):
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
	}
	c.AbortWithStatusJSON(status, envelope{Success: false, Message: msg, RequestID: requestID(c)})
}
