package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/crypto.go -package=apimock . Crypto

// Crypto receives and sends crypto: deposits, quotes, withdrawals and
// quote-and-send (reads go through Transactions).
type Crypto interface {
	CreateDeposit(ctx context.Context, acct domain.Account, key domain.APIKey, in crypto.NewCryptoDeposit) (domain.Transaction, error)
	Quote(ctx context.Context, acct domain.Account, in crypto.NewCryptoQuote) (crypto.CryptoQuote, error)
	CreateWithdrawal(ctx context.Context, acct domain.Account, key domain.APIKey, in crypto.NewCryptoWithdrawal) (domain.Transaction, error)
	SendAuto(ctx context.Context, acct domain.Account, key domain.APIKey, in crypto.NewCryptoWithdrawal) (domain.Transaction, error)
}

// CryptoSandbox simulates a deposit paid and a withdrawal's outcome.
type CryptoSandbox interface {
	PayCrypto(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	SettleCrypto(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	FailCrypto(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
}

func (s *Server) createCryptoDeposit(c *gin.Context) {
	bindAndAct[crypto.NewCryptoDeposit, crypto.CryptoDepositRequest](c, "Crypto deposit created", func(req crypto.NewCryptoDeposit) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		t, err := s.Crypto.CreateDeposit(c.Request.Context(), accountOf(c), keyOf(c), req)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) getCryptoDeposit(c *gin.Context) {
	s.showTransaction(c, "Crypto deposit", false, domain.TypeCryptoIn)
}

func (s *Server) listCryptoDeposits(c *gin.Context) {
	s.listTransactions(c, "Crypto deposits", false, domain.TypeCryptoIn)
}

func (s *Server) quoteCrypto(c *gin.Context) {
	bindAndAct[crypto.NewCryptoQuote, crypto.CryptoQuoteRequest](c, "Crypto quote", func(req crypto.NewCryptoQuote) (any, error) {
		q, err := s.Crypto.Quote(c.Request.Context(), accountOf(c), req)
		return q.Public(), err
	})
}

func (s *Server) createCryptoWithdrawal(c *gin.Context) {
	bindAndAct[crypto.NewCryptoWithdrawal, crypto.CryptoWithdrawalRequest](c, "Crypto withdrawal created", func(req crypto.NewCryptoWithdrawal) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		t, err := s.Crypto.CreateWithdrawal(c.Request.Context(), accountOf(c), keyOf(c), req)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) sendCryptoAuto(c *gin.Context) {
	bindAndAct[crypto.NewCryptoWithdrawal, crypto.CryptoWithdrawalRequest](c, "Crypto withdrawal created", func(req crypto.NewCryptoWithdrawal) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		t, err := s.Crypto.SendAuto(c.Request.Context(), accountOf(c), keyOf(c), req)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) getCryptoWithdrawal(c *gin.Context) {
	s.showTransaction(c, "Crypto withdrawal", false, domain.TypeCryptoOut)
}

func (s *Server) listCryptoWithdrawals(c *gin.Context) {
	s.listTransactions(c, "Crypto withdrawals", false, domain.TypeCryptoOut)
}

func (s *Server) sandboxCryptoPay(c *gin.Context) {
	r, err := s.Sandbox.PayCrypto(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}

func (s *Server) sandboxCryptoSettle(c *gin.Context) {
	r, err := s.Sandbox.SettleCrypto(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}

func (s *Server) sandboxCryptoFail(c *gin.Context) {
	r, err := s.Sandbox.FailCrypto(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}
