package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

//go:generate go tool mockgen -destination=apimock/subaccounts.go -package=apimock . Subaccounts

// Subaccounts manages sub-accounts, their moves, locks, limits, pricing and portal.
type Subaccounts interface {
	Create(ctx context.Context, acct domain.Account, in subaccount.NewSubaccount) (subaccount.View, error)
	Get(ctx context.Context, acct domain.Account, idOrRef string) (subaccount.Subaccount, subaccount.Balance, error)
	List(ctx context.Context, acct domain.Account, status string, page, pageSize int) ([]subaccount.View, int, error)
	Update(ctx context.Context, acct domain.Account, u subaccount.Update) (subaccount.View, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
	AddBalance(ctx context.Context, acct domain.Account, key domain.APIKey, m subaccount.Move) (domain.Transaction, error)
	RemoveBalance(ctx context.Context, acct domain.Account, key domain.APIKey, m subaccount.Move) (domain.Transaction, error)
	Transfer(ctx context.Context, acct domain.Account, key domain.APIKey, m subaccount.Move) (domain.Transaction, error)
	Lock(ctx context.Context, acct domain.Account, l subaccount.Lock) (subaccount.View, error)
	Unlock(ctx context.Context, acct domain.Account, id string) (subaccount.View, error)
	SetLimits(ctx context.Context, acct domain.Account, l subaccount.SetLimits) (subaccount.View, error)
	SetPricing(ctx context.Context, acct domain.Account, p subaccount.SetPricing) (subaccount.View, error)
	Pricing(ctx context.Context, acct domain.Account, idOrRef string) (subaccount.Preview, error)
	PortalSetup(ctx context.Context, acct domain.Account, p subaccount.PortalSetup) error
	PortalStatus(ctx context.Context, acct domain.Account, ref string) (subaccount.PortalItem, error)
	ListPortals(ctx context.Context, acct domain.Account, page, pageSize int) ([]subaccount.PortalItem, int, error)
	PortalUpdateEmail(ctx context.Context, acct domain.Account, p subaccount.PortalEmail) (subaccount.PortalItem, error)
	PortalRevoke(ctx context.Context, acct domain.Account, ref string) (subaccount.PortalItem, error)
	PortalReset2FA(ctx context.Context, acct domain.Account, ref string) (subaccount.PortalItem, error)
}

// The sub-account routes (spec "Sub-accounts"; body names from CONTRACTS.md).

func (s *Server) createSubaccount(c *gin.Context) {
	read := func(c *gin.Context) (subaccount.CreateRequest, error) {
		var b subaccount.CreateRequest
		return b, bind(c, &b)
	}
	if strings.HasPrefix(c.ContentType(), "multipart/") {
		read = multipartCreate
	}
	readAndAct[subaccount.NewSubaccount, subaccount.CreateRequest](c, "Sub-account created", read, func(in subaccount.NewSubaccount) (any, error) {
		in.IdempotencyKey = idempotencyKey(c)
		return s.Subaccounts.Create(c.Request.Context(), accountOf(c), in)
	})
}

// multipartCreate reads a PJ create (multipart/form-data): the same field
// names as the JSON body, and the proof document as the file "document".
func multipartCreate(c *gin.Context) (subaccount.CreateRequest, error) {
	b := subaccount.CreateRequest{Multipart: true}
	form, err := readForm(c, domain.Invalidf("request body is larger than 1 MiB"))
	if err != nil {
		return b, err
	}
	if err := form.texts(1024, map[string]**string{
		"personType": &b.PersonType, "fullName": &b.FullName, "cpf": &b.CPF, "birthDate": &b.BirthDate,
		"postalCode": &b.PostalCode, "externalReference": &b.ExternalReference, "portalEmail": &b.PortalEmail,
		"portalPassword": &b.PortalPassword, "cnpj": &b.CNPJ, "companyName": &b.CompanyName, "site": &b.Site,
	}); err != nil {
		return b, err
	}
	files, err := form.files("document", subaccount.MaxDocument)
	if err != nil || len(files) == 0 {
		return b, err
	}
	raw, name := files[0].Bytes, files[0].Name
	if len(name) > 200 || cleanValue("document", name, 200) != nil {
		name = "document"
	}
	b.Document = &subaccount.File{Bytes: raw, Info: subaccount.FileInfo{
		Name: name, Size: int64(len(raw)), ContentType: strings.Split(http.DetectContentType(raw), ";")[0],
	}}
	return b, nil
}

func (s *Server) getSubaccount(c *gin.Context) {
	sa, b, err := s.Subaccounts.Get(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Sub-account", sa.View(b))
}

func (s *Server) getSubaccountByRef(c *gin.Context) {
	sa, b, err := s.Subaccounts.Get(c.Request.Context(), accountOf(c), c.Param("externalReference"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Sub-account", sa.Lean(b))
}

func (s *Server) listSubaccounts(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	status, err := subaccount.StatusFilter(c.Query("status"))
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Subaccounts.List(c.Request.Context(), accountOf(c), status, f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Sub-accounts", pageOf(rows, f, total, func(v subaccount.View) subaccount.View { return v }))
}

// queryRef is the id or externalReference query parameter of the balance,
// pricing and portal status routes.
func queryRef(c *gin.Context) (string, error) {
	return subaccount.Ref{ID: queryPtr(c, "id"), ExternalReference: queryPtr(c, "externalReference")}.Validate()
}

func queryPtr(c *gin.Context, name string) *string {
	if v, present := c.GetQuery(name); present {
		return &v
	}
	return nil
}

// subaccountBalanceView is a sub-account's balance with its ids.
type subaccountBalanceView struct {
	ID                string `json:"id"`
	ExternalReference string `json:"externalReference"`
	Currency          string `json:"currency"`
	subaccount.Balance
}

// idOnly answers a delete: the id deleted.
type idOnly struct {
	ID string `json:"id"`
}

// unlocked answers an unlock.
type unlocked struct {
	ID       string `json:"id"`
	LockMode string `json:"lockMode"`
	Status   string `json:"status"`
}

func (s *Server) subaccountBalance(c *gin.Context) {
	ref, err := queryRef(c)
	if err != nil {
		fail(c, err)
		return
	}
	sa, b, err := s.Subaccounts.Get(c.Request.Context(), accountOf(c), ref)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Sub-account balance", subaccountBalanceView{sa.ID, sa.ExternalReference, "BRL", b})
}

func (s *Server) subaccountPricing(c *gin.Context) {
	ref, err := queryRef(c)
	if err != nil {
		fail(c, err)
		return
	}
	p, err := s.Subaccounts.Pricing(c.Request.Context(), accountOf(c), ref)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Sub-account pricing", p)
}

func (s *Server) updateSubaccount(c *gin.Context) {
	bindAndAct[subaccount.Update, subaccount.UpdateRequest](c, "Sub-account updated", func(u subaccount.Update) (any, error) {
		return s.Subaccounts.Update(c.Request.Context(), accountOf(c), u)
	})
}

func (s *Server) deleteSubaccount(c *gin.Context) {
	bindAndAct[string, subaccount.IDRequest](c, "Sub-account deleted", func(id string) (any, error) {
		return idOnly{ID: id}, s.Subaccounts.Delete(c.Request.Context(), accountOf(c), id)
	})
}

func (s *Server) addSubaccountBalance(c *gin.Context) {
	bindAndAct[subaccount.Move, subaccount.MoveRequest](c, "Balance added to the sub-account", func(m subaccount.Move) (any, error) {
		t, err := s.Subaccounts.AddBalance(c.Request.Context(), accountOf(c), keyOf(c), m)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) removeSubaccountBalance(c *gin.Context) {
	bindAndAct[subaccount.Move, subaccount.MoveRequest](c, "Balance removed from the sub-account", func(m subaccount.Move) (any, error) {
		t, err := s.Subaccounts.RemoveBalance(c.Request.Context(), accountOf(c), keyOf(c), m)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) transferSubaccount(c *gin.Context) {
	bindAndAct[subaccount.Move, subaccount.TransferRequest](c, "Sub-account transfer completed", func(m subaccount.Move) (any, error) {
		t, err := s.Subaccounts.Transfer(c.Request.Context(), accountOf(c), keyOf(c), m)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) lockSubaccount(c *gin.Context) {
	bindAndAct[subaccount.Lock, subaccount.LockRequest](c, "Sub-account locked", func(l subaccount.Lock) (any, error) {
		return s.Subaccounts.Lock(c.Request.Context(), accountOf(c), l)
	})
}

func (s *Server) unlockSubaccount(c *gin.Context) {
	bindAndAct[string, subaccount.IDRequest](c, "Sub-account unlocked", func(id string) (any, error) {
		v, err := s.Subaccounts.Unlock(c.Request.Context(), accountOf(c), id)
		return unlocked{ID: v.ID, LockMode: v.LockMode, Status: v.Status}, err
	})
}

func (s *Server) setSubaccountLimits(c *gin.Context) {
	bindAndAct[subaccount.SetLimits, subaccount.LimitsRequest](c, "Sub-account limits set", func(l subaccount.SetLimits) (any, error) {
		return s.Subaccounts.SetLimits(c.Request.Context(), accountOf(c), l)
	})
}

func (s *Server) setSubaccountPricing(c *gin.Context) {
	bindAndAct[subaccount.SetPricing, subaccount.PricingRequest](c, "Sub-account pricing set", func(p subaccount.SetPricing) (any, error) {
		return s.Subaccounts.SetPricing(c.Request.Context(), accountOf(c), p)
	})
}
