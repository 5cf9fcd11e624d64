package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

type reviewBody struct {
	Decision *string `json:"decision"`
}

// adminReview releases or rejects a PIX out held for security review by
// signalling its workflow (the same signal ops can send from the Temporal UI).
func (s *Server) adminReview(c *gin.Context) {
	var b reviewBody
	if err := bind(c, &b); err != nil {
		fail(c, err)
		return
	}
	if b.Decision == nil || (*b.Decision != workflows.DecisionApprove && *b.Decision != workflows.DecisionReject) {
		fail(c, domain.Invalid("decision", "must be approve or reject"))
		return
	}
	t, err := s.Transfers.Get(c.Request.Context(), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	if r := t.Details.V.SecurityReview; r == nil || !r.Pending {
		fail(c, domain.Invalidf("transfer %s is not held for security review", t.ID))
		return
	}
	if err := s.Transfers.Signal(c.Request.Context(), t, workflows.ReviewSignal, *b.Decision); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Decision accepted", gin.H{"id": t.ID, "decision": *b.Decision})
}
