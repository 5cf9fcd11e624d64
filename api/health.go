package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

func (s *Server) livez(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyz answers 200 only when PostgreSQL and Temporal answer and a worker
// polls the task queue.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 3*time.Second)
	defer cancel()
	checks := map[string]string{}
	if err := s.DB.PingContext(ctx); err != nil {
		checks["postgres"] = err.Error()
	}
	if _, err := s.Temporal.CheckHealth(ctx, nil); err != nil {
		checks["temporal"] = err.Error()
	}
	if s.WorkerReady != nil {
		if err := s.WorkerReady(ctx); err != nil {
			checks["worker"] = err.Error()
		}
	}
	if len(checks) > 0 {
		c.JSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable", "checks": checks})
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}
