package api

import (
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

type payerBody struct {
	Name     *string `json:"name"`
	Document *string `json:"document"`
}

type createChargeBody struct {
	Amount            *money.Cents   `json:"amount"`
	Description       *string        `json:"description"`
	CoverFee          *bool          `json:"coverFee"`
	EmitFiscalInvoice *bool          `json:"emitFiscalInvoice"`
	ExpirationSeconds *int64         `json:"expirationSeconds"`
	Payer             *payerBody     `json:"payer"`
	PayerName         *string        `json:"payerName"`
	PayerDocument     *string        `json:"payerDocument"`
	ExternalReference *string        `json:"externalReference"`
	SplitUser         *string        `json:"splitUser"`
	SplitTax          *money.Percent `json:"splitTax"`
	SubaccountID      *string        `json:"subaccountId"`
	PixRail           any            `json:"pixRail"`
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
	CreatedAt    domain.Time `json:"createdAt"`
}

const (
	minCharge = money.Cents(100)         // R$ 1.00
	maxCharge = money.Cents(100_000_000) // R$ 1,000,000.00
)

func (b createChargeBody) validate() (service.NewCharge, error) {
	var n service.NewCharge
	if b.PixRail != nil {
		return n, domain.Invalid("pixRail", "must not be sent: the rail comes from the API key")
	}
	var err error
	if n.Amount, err = amount("amount", b.Amount, minCharge, maxCharge); err != nil {
		return n, err
	}
	desc, err := text("description", b.Description, 3, 180, true)
	if err != nil {
		return n, err
	}
	n.Description = desc
	n.CoverFee = b.CoverFee != nil && *b.CoverFee
	n.EmitFiscalInvoice = b.EmitFiscalInvoice != nil && *b.EmitFiscalInvoice
	exp := int64(86400)
	if b.ExpirationSeconds != nil {
		exp = *b.ExpirationSeconds
	}
	if exp < 60 || exp > 604800 {
		return n, domain.Invalid("expirationSeconds", "must be an integer from 60 to 604800")
	}
	n.ExpiresIn = time.Duration(exp) * time.Second
	if n.Payer, err = payer(b); err != nil {
		return n, err
	}
	if b.ExternalReference != nil {
		ref, err := text("externalReference", b.ExternalReference, 1, 120, false)
		if err != nil {
			return n, err
		}
		n.ExternalReference = &ref
	}
	if b.SplitUser != nil {
		n.SplitUser = strings.TrimSpace(*b.SplitUser)
	}
	if b.SplitTax != nil {
		if *b.SplitTax < 1 || *b.SplitTax > money.OneHundredPercent {
			return n, domain.Invalid("splitTax", "must be between 0.01 and 100")
		}
		n.SplitTax = *b.SplitTax
	}
	if b.SubaccountID != nil {
		n.SubaccountID = strings.TrimSpace(*b.SubaccountID)
	}
	return n, nil
}

// payer accepts the payer as an object {name, document} or as the flat
// payerName and payerDocument fields.
func payer(b createChargeBody) (*domain.Party, error) {
	name, doc := b.PayerName, b.PayerDocument
	if b.Payer != nil {
		name, doc = b.Payer.Name, b.Payer.Document
	}
	if name == nil && doc == nil {
		return nil, nil
	}
	p := &domain.Party{}
	if name != nil {
		v, err := text("payer.name", name, 1, 120, false)
		if err != nil {
			return nil, err
		}
		p.Name = v
	}
	if doc != nil {
		d, kind, ok := document.Classify(*doc)
		if len(d) > 14 {
			return nil, domain.Invalid("payer.document", "must have at most 14 characters")
		}
		if !ok || (kind == document.KindCPF && !document.ValidCPF(d)) || (kind == document.KindCNPJ && !document.ValidCNPJ(d)) {
			return nil, domain.Invalid("payer.document", "must be a valid CPF or CNPJ")
		}
		p.Document = d
	}
	return p, nil
}

func (s *Server) createCharge(c *gin.Context) {
	create[service.NewCharge, createChargeBody](c, "PIX charge created", func(req service.NewCharge) (any, error) {
		created, err := s.Charges.Create(c.Request.Context(), accountOf(c), keyOf(c), req)
		if err != nil {
			return nil, err
		}
		t := created.Charge
		return chargeCreated{
			ID: t.ID, Status: t.Status, Amount: t.Amount, FeeAmount: t.FeeAmount, NetAmount: t.NetAmount,
			CopyPaste: *t.CopyPaste, QRCodeBase64: created.QRCodeBase64, QRCodeURL: domain.QRCodeURL(s.cfg.PublicURL, t.ID),
			ExpiresAt: *t.ExpiresAt, CreatedAt: t.CreatedAt,
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
	t, err := db.GetTransaction(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"), types...)
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
	rows, total, err := db.ListTransactions(c.Request.Context(), s.db, accountOf(c).ID, f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, message, pageOf(rows, f, total, func(t domain.Transaction) domain.PublicTransaction { return t.Public(s.cfg.PublicURL) }))
}
