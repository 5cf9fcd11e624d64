package api

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

type createInternalBody struct {
	Amount            *money.Cents `json:"amount"`
	RecipientEmail    *string      `json:"recipientEmail"`
	Description       *string      `json:"description"`
	ExternalReference *string      `json:"externalReference"`
}

// minInternal is the minimum internal transfer: R$ 0.01. The spec states
// both 1.00 and 0.01; internal transfers cost nothing and the ledger is exact
// to the centavo, so a higher floor would protect nothing (see README).
const minInternal = money.Cents(1)

func (b createInternalBody) validate() (service.NewInternal, error) {
	var n service.NewInternal
	var err error
	if n.Amount, err = amount("amount", b.Amount, minInternal, maxTransfer); err != nil {
		return n, err
	}
	email, err := text("recipientEmail", b.RecipientEmail, 3, 254, true)
	if err != nil {
		return n, err
	}
	if !emailPattern.MatchString(email) {
		return n, domain.Invalid("recipientEmail", "must be an e-mail address")
	}
	n.RecipientEmail = strings.ToLower(email)
	if n.Description, err = text("description", b.Description, 0, 140, false); err != nil {
		return n, err
	}
	if b.ExternalReference != nil {
		ref, err := text("externalReference", b.ExternalReference, 1, 120, false)
		if err != nil {
			return n, err
		}
		n.ExternalReference = &ref
	}
	return n, nil
}

func (s *Server) createInternal(c *gin.Context) {
	create[service.NewInternal, createInternalBody](c, "Internal transfer completed", func(req service.NewInternal) (any, error) {
		t, err := service.Internal(c.Request.Context(), s.db, s.cfg.PublicURL, accountOf(c), keyOf(c), req)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) getInternal(c *gin.Context) {
	s.showTransaction(c, "Internal transfer", false, domain.TypeInternalOut, domain.TypeInternalIn)
}

func (s *Server) listInternal(c *gin.Context) {
	s.listTransactions(c, "Internal transfers", false, domain.TypeInternalOut, domain.TypeInternalIn)
}
