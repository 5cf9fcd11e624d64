package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/qr"
)

// qrImage serves a pending charge's QR as PNG at its public qrcodeUrl. The
// id is an unguessable UUID and the image carries only what the payer sees.
func (s *Server) qrImage(c *gin.Context) {
	id := strings.TrimSuffix(c.Param("file"), ".png")
	code, err := s.Transactions.PendingCopyPaste(c.Request.Context(), id)
	if err != nil {
		fail(c, err) // "charge not found", or why it is no longer payable
		return
	}
	png, err := qr.PNG(code)
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.Data(http.StatusOK, "image/png", png)
}
