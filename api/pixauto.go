package api

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/pixauto.go -package=apimock . PixAutomatic

// PixAutomatic manages PIX automatic authorizations and their payment
// instructions.
type PixAutomatic interface {
	CreateAuthorization(ctx context.Context, acct domain.Account, key domain.APIKey, in pixauto.NewAuthorization) (pixauto.View, error)
	GetAuthorization(ctx context.Context, acct domain.Account, id string) (pixauto.View, error)
	ListAuthorizations(ctx context.Context, acct domain.Account, status string, page, pageSize int) ([]pixauto.View, int, error)
	CancelAuthorization(ctx context.Context, acct domain.Account, id string) (pixauto.View, error)
	CreateInstruction(ctx context.Context, acct domain.Account, in pixauto.NewInstruction) (pixauto.Instruction, error)
	GetInstruction(ctx context.Context, acct domain.Account, id string) (pixauto.Instruction, error)
	ListInstructions(ctx context.Context, acct domain.Account, authorizationID, status string, page, pageSize int) ([]pixauto.Instruction, int, error)
	CancelInstruction(ctx context.Context, acct domain.Account, id string) (pixauto.Instruction, error)
}

// PIX automatic: authorizations (the payer's consent) and payment
// instructions, under the account feature pixAutomatic (Route.Feature).

// PixAutomaticSandbox simulates the payer answering a consent.
type PixAutomaticSandbox interface {
	ApproveAuthorization(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	RejectAuthorization(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
}

func (s *Server) createAuthorization(c *gin.Context) {
	bindAndAct[pixauto.NewAuthorization, pixauto.AuthorizationRequest](c, "PIX automatic authorization created", func(req pixauto.NewAuthorization) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		return s.PixAutomatic.CreateAuthorization(c.Request.Context(), accountOf(c), keyOf(c), req)
	})
}

func (s *Server) listAuthorizations(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.PixAutomatic.ListAuthorizations(c.Request.Context(), accountOf(c), strings.ToUpper(c.Query("status")), f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "PIX automatic authorizations", pageOf(rows, f, total, func(v pixauto.View) pixauto.View { return v }))
}

func (s *Server) getAuthorization(c *gin.Context) {
	v, err := s.PixAutomatic.GetAuthorization(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "PIX automatic authorization", v)
}

func (s *Server) cancelAuthorization(c *gin.Context) {
	v, err := s.PixAutomatic.CancelAuthorization(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "PIX automatic authorization canceled", v)
}

func (s *Server) createInstruction(c *gin.Context) {
	bindAndAct[pixauto.NewInstruction, pixauto.InstructionRequest](c, "Payment instruction scheduled", func(req pixauto.NewInstruction) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		return s.PixAutomatic.CreateInstruction(c.Request.Context(), accountOf(c), req)
	})
}

func (s *Server) listInstructions(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.PixAutomatic.ListInstructions(c.Request.Context(), accountOf(c), c.Query("authorizationId"),
		strings.ToUpper(c.Query("status")), f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Payment instructions", pageOf(rows, f, total, func(v pixauto.Instruction) pixauto.Instruction { return v }))
}

func (s *Server) getInstruction(c *gin.Context) {
	v, err := s.PixAutomatic.GetInstruction(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Payment instruction", v)
}

func (s *Server) cancelInstruction(c *gin.Context) {
	v, err := s.PixAutomatic.CancelInstruction(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Payment instruction canceled", v)
}

func (s *Server) sandboxApproveAuthorization(c *gin.Context) {
	r, err := s.Sandbox.ApproveAuthorization(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}

func (s *Server) sandboxRejectAuthorization(c *gin.Context) {
	r, err := s.Sandbox.RejectAuthorization(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}
