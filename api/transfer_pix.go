package api

import (
	"errors"
	"regexp"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/pixkey"
	"github.com/jangada/jangada/service"
)

type createTransferBody struct {
	Amount            *money.Cents `json:"amount"`
	Description       *string      `json:"description"`
	PixKey            *string      `json:"pixKey"`
	PixKeyType        *string      `json:"pixKeyType"`
	PixCopyPaste      *string      `json:"pixCopyPaste"`
	CoverFee          *bool        `json:"coverFee"`
	SubaccountID      *string      `json:"subaccountId"`
	ExternalReference *string      `json:"externalReference"`
	PixRail           any          `json:"pixRail"`
}

const maxTransfer = money.Cents(100_000_000) // R$ 1,000,000.00 per PIX out

func (b createTransferBody) validate() (service.NewTransfer, error) {
	var n service.NewTransfer
	if b.PixRail != nil {
		return n, domain.Invalid("pixRail", "must not be sent: the rail comes from the API key")
	}
	if b.SubaccountID != nil {
		return n, domain.Forbidden("subaccountId needs sub-accounts, which are not enabled on this account")
	}
	switch {
	case b.PixCopyPaste != nil && b.PixKey != nil:
		return n, domain.Invalidf("send either pixKey with pixKeyType or pixCopyPaste, not both")
	case b.PixCopyPaste != nil:
		p, err := brcode.Parse(strings.TrimSpace(*b.PixCopyPaste))
		if err != nil {
			return n, domain.Invalid("pixCopyPaste", "is not a valid BR Code: %v", err)
		}
		if p.Key == "" {
			return n, domain.Invalid("pixCopyPaste", "carries no PIX key (location-URL codes are not supported)")
		}
		if p.Amount > 0 {
			if b.Amount != nil && *b.Amount != p.Amount {
				return n, domain.Invalid("amount", "must equal the BR Code's amount of %s", p.Amount)
			}
			b.Amount = &p.Amount
		}
		typ := inferKeyType(p.Key)
		key, err := pixkey.Normalize(typ, p.Key)
		if err != nil {
			return n, domain.Invalid("pixCopyPaste", "carries an invalid PIX key: %v", err)
		}
		n.PixKey, n.PixKeyType = key, string(typ)
	case b.PixKey != nil:
		if b.PixKeyType == nil {
			return n, domain.Invalid("pixKeyType", "is required with pixKey (CPF, CNPJ, EMAIL, TELEFONE or CHAVE_ALEATORIA)")
		}
		key, err := pixkey.Normalize(pixkey.Type(strings.ToUpper(*b.PixKeyType)), *b.PixKey)
		if errors.Is(err, pixkey.ErrUnknownType) {
			return n, domain.Invalid("pixKeyType", "must be one of CPF, CNPJ, EMAIL, TELEFONE, CHAVE_ALEATORIA")
		}
		if err != nil {
			return n, domain.Invalid("pixKey", "is not a valid %s key", strings.ToUpper(*b.PixKeyType))
		}
		n.PixKey, n.PixKeyType = key, strings.ToUpper(*b.PixKeyType)
	default:
		return n, domain.Invalid("pixKey", "or pixCopyPaste is required")
	}
	var err error
	if n.Amount, err = amount("amount", b.Amount, 1, maxTransfer); err != nil {
		return n, err
	}
	desc, err := text("description", b.Description, 0, 140, false)
	if err != nil {
		return n, err
	}
	n.Description = desc
	n.CoverFee = b.CoverFee == nil || *b.CoverFee
	if b.ExternalReference != nil {
		ref, err := text("externalReference", b.ExternalReference, 1, 120, false)
		if err != nil {
			return n, err
		}
		n.ExternalReference = &ref
	}
	return n, nil
}

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$`)

// inferKeyType recognises the type of a key found in a BR Code.
func inferKeyType(key string) pixkey.Type {
	switch {
	case strings.Contains(key, "@"):
		return pixkey.EMAIL
	case strings.HasPrefix(key, "+"):
		return pixkey.TELEFONE
	case uuidPattern.MatchString(key):
		return pixkey.CHAVE_ALEATORIA
	case len(document.Digits(key)) == 14:
		return pixkey.CNPJ
	}
	return pixkey.CPF
}

func (s *Server) createTransfer(c *gin.Context) {
	create[service.NewTransfer, createTransferBody](c, "PIX transfer created", func(req service.NewTransfer) (any, error) {
		t, err := s.Transfers.Create(c.Request.Context(), accountOf(c), keyOf(c), req)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) getTransfer(c *gin.Context) {
	s.showTransaction(c, "PIX transfer", false, domain.TypePixOut)
}

func (s *Server) transferStatus(c *gin.Context) {
	s.showTransaction(c, "PIX transfer status", true, domain.TypePixOut)
}

func (s *Server) listTransfers(c *gin.Context) {
	s.listTransactions(c, "PIX transfers", true, domain.TypePixOut)
}
