package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/charges.go -package=apimock . Charges

// Charges creates PIX charges.
type Charges interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewCharge) (service.CreatedCharge, error)
}

// chargeCreated is the create response of the spec, plus fee and net.
type chargeCreated struct {
	ID           string      `json:"id"`
	Status       string      `json:"status"`
	Amount       money.Cents `json:"amount"`
	FeeAmount    money.Cents `json:"feeAmount"`
	NetAmount    money.Cents `json:"netAmount"`
	CopyPaste    string      `json:"copyPaste"`
	QRCodeBase64 string      `json:"qrCodeBase64"`
	QRCodeURL    string      `json:"qrcodeUrl"`
	ExpiresAt    domain.Time `json:"expiresAt"`
	SubaccountID *string     `json:"subaccountId,omitempty"`
	CreatedAt    domain.Time `json:"createdAt"`
}

func (s *Server) createCharge(c *gin.Context) {
	bindAndAct[domain.NewCharge, domain.ChargeRequest](c, "PIX charge created", func(req domain.NewCharge) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		created, err := s.Charges.Create(c.Request.Context(), accountOf(c), keyOf(c), req)
		if err != nil {
			return nil, err
		}
		t := created.Charge
		return chargeCreated{
			ID: t.ID, Status: t.Status, Amount: t.Amount, FeeAmount: t.FeeAmount, NetAmount: t.NetAmount,
			CopyPaste: *t.CopyPaste, QRCodeBase64: created.QRCodeBase64, QRCodeURL: domain.QRCodeURL(s.cfg.PublicURL, t.ID),
			ExpiresAt: *t.ExpiresAt, SubaccountID: t.SubaccountID, CreatedAt: t.CreatedAt,
		}, nil
	})
}

func (s *Server) getCharge(c *gin.Context) {
	s.showTransaction(c, "PIX charge", false, domain.TypePixIn)
}

func (s *Server) chargeStatus(c *gin.Context) {
	s.showTransaction(c, "PIX charge status", true, domain.TypePixIn)
}

// showTransaction is the one "get by id or externalReference" handler: the
// full public record, or the lean status payload. Another account's id is
// simply not found.
func (s *Server) showTransaction(c *gin.Context, message string, lean bool, types ...string) {
	t, err := s.Transactions.Get(c.Request.Context(), accountOf(c), c.Param("id"), types...)
	if err != nil {
		fail(c, err)
		return
	}
	if lean {
		ok(c, message, t.Lean())
		return
	}
	ok(c, message, t.Public(s.cfg.PublicURL))
}

func (s *Server) listCharges(c *gin.Context) {
	s.listTransactions(c, "PIX charges", true, domain.TypePixIn, domain.TypeSplitIn)
}

// listTransactions is the one list handler over the transactions table.
func (s *Server) listTransactions(c *gin.Context, message string, withSubaccount bool, types ...string) {
	f, err := listFilter(c, withSubaccount)
	if err != nil {
		fail(c, err)
		return
	}
	f.Types = types
	rows, total, err := s.Transactions.List(c.Request.Context(), accountOf(c), f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, message, pageOf(rows, f, total, func(t domain.Transaction) domain.PublicTransaction { return t.Public(s.cfg.PublicURL) }))
}
