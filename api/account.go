package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

type padraoBalance struct {
	Available    money.Cents  `json:"available"`
	Pending      money.Cents  `json:"pending"`
	Withdrawable money.Cents  `json:"withdrawable"`
	Locked24h    money.Cents  `json:"locked24h"`
	NextUnlockAt *domain.Time `json:"nextUnlockAt"`
}

type balanceView struct {
	Currency        string        `json:"currency"`
	AvailableAmount money.Cents   `json:"availableAmount"`
	PendingAmount   money.Cents   `json:"pendingAmount"`
	Padrao          padraoBalance `json:"padrao"`
}

func balanceOf(b service.Balance) balanceView {
	v := balanceView{Currency: "BRL", AvailableAmount: b.Available, PendingAmount: b.Pending, Padrao: padraoBalance{
		Available: b.Available, Pending: b.Pending, Withdrawable: b.Withdrawable, Locked24h: b.Locked24h,
	}}
	if b.NextUnlockAt != nil {
		v.Padrao.NextUnlockAt = domain.TimePtr(*b.NextUnlockAt)
	}
	return v
}

func (s *Server) balance(c *gin.Context) {
	b, err := s.Transactions.Balance(c.Request.Context(), accountOf(c))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Balance", balanceOf(b))
}

func (s *Server) transactions(c *gin.Context) {
	s.listTransactions(c, "Transactions", true)
}
