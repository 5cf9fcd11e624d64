package api

import (
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

type createRefundBody struct {
	TransactionID *string      `json:"transactionId"`
	E2EID         *string      `json:"e2eId"`
	RefundID      *string      `json:"refundId"`
	Amount        *money.Cents `json:"amount"`
	Nature        *string      `json:"nature"`
	Description   *string      `json:"description"`
	SubaccountID  *string      `json:"subaccountId"`
}

func (b createRefundBody) validate() (service.NewRefund, error) {
	var n service.NewRefund
	switch {
	case b.TransactionID != nil && strings.TrimSpace(*b.TransactionID) != "":
		n.DepositRef = strings.TrimSpace(*b.TransactionID)
	case b.E2EID != nil && strings.TrimSpace(*b.E2EID) != "":
		n.DepositRef = strings.TrimSpace(*b.E2EID)
	default:
		return n, domain.Invalid("transactionId", "or e2eId is required")
	}
	if b.SubaccountID != nil {
		return n, domain.Forbidden("subaccountId needs sub-accounts, which are not enabled on this account")
	}
	if b.Amount == nil {
		return n, domain.Invalid("amount", "is required and must equal the deposit's gross amount")
	}
	n.Amount = *b.Amount
	if b.RefundID != nil {
		id, err := text("refundId", b.RefundID, 1, 35, false)
		if err != nil {
			return n, err
		}
		n.RefundID = id
	}
	n.Nature = "ORIGINAL"
	if b.Nature != nil {
		n.Nature = strings.ToUpper(strings.TrimSpace(*b.Nature))
		if !slices.Contains(service.RefundNatures, n.Nature) {
			return n, domain.Invalid("nature", "must be ORIGINAL or RETIRADA (the natures a requested PIX refund may have)")
		}
	}
	desc, err := text("description", b.Description, 0, 140, false)
	n.Description = desc
	return n, err
}

func (s *Server) createRefund(c *gin.Context) {
	create[service.NewRefund, createRefundBody](c, "Refund requested", func(req service.NewRefund) (any, error) {
		d, err := s.Refunds.Create(c.Request.Context(), accountOf(c), req)
		return d.Public(s.cfg.PublicURL), err
	})
}

// getRefund finds the deposit by transaction id, refundId or e2eId.
func (s *Server) getRefund(c *gin.Context) {
	d, err := db.FindDeposit(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"), false)
	if err == nil && d.Details.V.Refund == nil {
		err = domain.NotFound("refund")
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Refund", d.Public(s.cfg.PublicURL))
}

func (s *Server) listRefunds(c *gin.Context) {
	f, err := listFilter(c, false)
	if err != nil {
		fail(c, err)
		return
	}
	f.Types, f.RefundsOnly = []string{domain.TypePixIn}, true
	rows, total, err := db.ListTransactions(c.Request.Context(), s.db, accountOf(c).ID, f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Refunds", pageOf(rows, f, total, func(t domain.Transaction) domain.PublicTransaction { return t.Public(s.cfg.PublicURL) }))
}
