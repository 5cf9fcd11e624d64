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
	id := c.Param("id")
	if err := s.Transfers.Review(c.Request.Context(), id, *b.Decision); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Decision accepted", gin.H{"id": id, "decision": *b.Decision})
}
