package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

// reviewed answers a review decision.
type reviewed struct {
	ID       string `json:"id"`
	Decision string `json:"decision"`
}

// adminReview releases or rejects a withdrawal (a PIX out or a crypto
// withdrawal) held for security review by
// signalling its workflow (the same signal ops can send from the Temporal UI).
func (s *Server) adminReview(c *gin.Context) {
	bindAndAct[string, domain.ReviewRequest](c, "Decision accepted", func(decision string) (any, error) {
		id := c.Param("id")
		if err := s.Transfers.Review(c.Request.Context(), id, decision); err != nil {
			return nil, err
		}
		return reviewed{ID: id, Decision: decision}, nil
	})
}
