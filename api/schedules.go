package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
)

//go:generate go tool mockgen -destination=apimock/schedules.go -package=apimock . Schedules

// Schedules manages scheduled transfers.
type Schedules interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in schedule.NewSchedule) (schedule.Record, error)
	Get(ctx context.Context, acct domain.Account, id string) (schedule.Record, error)
	List(ctx context.Context, acct domain.Account, page, pageSize int) ([]schedule.Schedule, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p schedule.Patch) (schedule.Record, error)
	RunNow(ctx context.Context, acct domain.Account, id string) (schedule.Record, error)
	Cancel(ctx context.Context, acct domain.Account, id string) (schedule.Record, error)
}

func (s *Server) createSchedule(c *gin.Context) {
	bindAndAct[schedule.NewSchedule, schedule.CreateRequest](c, "Scheduled transfer created", func(req schedule.NewSchedule) (any, error) {
		req.CreatedFrom, req.IdempotencyKey = c.ClientIP(), idempotencyKey(c)
		return s.Schedules.Create(c.Request.Context(), accountOf(c), keyOf(c), req)
	})
}

func (s *Server) listSchedules(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Schedules.List(c.Request.Context(), accountOf(c), f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	// The spec names this route's data {items}: the list envelope holds it,
	// with the page counts every list answers.
	ok(c, "Scheduled transfers", pageOf(rows, f, total, schedule.Schedule.Public))
}

func (s *Server) getSchedule(c *gin.Context) {
	rec, err := s.Schedules.Get(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Scheduled transfer", rec)
}

func (s *Server) updateSchedule(c *gin.Context) {
	var body schedule.UpdateRequest
	if err := bind(c, &body); err != nil {
		fail(c, err)
		return
	}
	p, err := body.Validate()
	if err != nil {
		fail(c, err)
		return
	}
	rec, err := s.Schedules.Update(c.Request.Context(), accountOf(c), c.Param("id"), p)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Scheduled transfer updated", rec)
}

func (s *Server) runScheduleNow(c *gin.Context) {
	rec, err := s.Schedules.RunNow(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Scheduled transfer ran", rec)
}

func (s *Server) cancelSchedule(c *gin.Context) {
	rec, err := s.Schedules.Cancel(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Scheduled transfer cancelled", rec)
}
