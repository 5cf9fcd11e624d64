package api

import (
	"encoding/csv"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/service"
)

// portalPage is what the portal's templates read.
type portalPage struct {
	// In: a holder is logged in (the pages show the menu).
	In     bool
	Holder service.PortalHolder
	Error  string
	// The login form.
	Email   string
	AskCode bool
	// The home page and the statement.
	Balance   subaccount.Balance
	CanCharge bool
	Nonce     string
	Records   []domain.Transaction
	Filter    portalFilter
	Record    domain.Transaction
	// A charge's page.
	Charge     domain.Transaction
	QR         template.URL
	ExpiresISO string
	// The second factor.
	Secret, OTPAuth string
	RecoveryCodes   []string
}

// portalFilter is the statement's filter and page, as the form sent them.
type portalFilter struct {
	DateFrom, DateTo string
	Page, Pages      int
	Prev, Next       string
}

// portalRecent is how many records the home page lists.
const portalRecent = 10

// portalHome shows the sub-account: name, status, lock mode, limits, its
// balance, its latest records and, when the account allows it, the form
// of a PIX charge into it.
func (s *Server) portalHome(c *gin.Context) {
	ctx, h := c.Request.Context(), holderOf(c)
	b, err := s.Portal.Balance(ctx, h)
	if err != nil {
		portalFail(c, err, nil)
		return
	}
	recs, _, err := s.Portal.Statement(ctx, h, service.ListFilter{Page: 1, PageSize: portalRecent})
	if err != nil {
		portalFail(c, err, nil)
		return
	}
	portalRender(c, http.StatusOK, "portal_home.html", "Minha subconta", portalPage{Balance: b, Records: recs,
		CanCharge: h.Account.Features.Enabled(domain.FeatureSubaccountPix), Nonce: newNonce()})
}

// portalStatement is one page of the statement, filtered by date (the
// API's dateFrom and dateTo), newest first.
func (s *Server) portalStatement(c *gin.Context) {
	f, err := listFilter(c, false)
	if err != nil {
		portalFail(c, err, map[string]string{"dateFrom": "Data inicial inválida.", "dateTo": "Data final inválida.",
			"page": "Página inválida.", "pageSize": "Tamanho de página inválido."})
		return
	}
	recs, total, err := s.Portal.Statement(c.Request.Context(), holderOf(c), f)
	if err != nil {
		portalFail(c, err, nil)
		return
	}
	pf := portalFilter{DateFrom: c.Query("dateFrom"), DateTo: c.Query("dateTo"), Page: f.Page,
		Pages: max(1, (total+f.PageSize-1)/f.PageSize)}
	link := func(page int) string {
		q := c.Request.URL.Query()
		q.Set("page", strconv.Itoa(page))
		return "/portal/statement?" + q.Encode()
	}
	if pf.Page > 1 {
		pf.Prev = link(pf.Page - 1)
	}
	if pf.Page < pf.Pages {
		pf.Next = link(pf.Page + 1)
	}
	portalRender(c, http.StatusOK, "portal_statement.html", "Extrato", portalPage{Records: recs, Filter: pf})
}

// portalRecord is one record of the statement in detail.
func (s *Server) portalRecord(c *gin.Context) {
	t, err := s.Portal.Record(c.Request.Context(), holderOf(c), c.Param("id"))
	if err != nil {
		portalFail(c, err, nil)
		return
	}
	portalRender(c, http.StatusOK, "portal_record.html", "Detalhe", portalPage{Record: t})
}

// csvHeader is the statement's CSV header (CONTRACTS.md, "Human pages").
var csvHeader = []string{"id", "createdAt", "type", "status", "amount", "feeAmount", "netAmount", "description"}

// csvPage is how many records the CSV export reads per query.
const csvPage = 100

// portalStatementCSV is the whole statement (or the dates asked) as CSV.
func (s *Server) portalStatementCSV(c *gin.Context) {
	ctx, h := c.Request.Context(), holderOf(c)
	statementCSV(c, func(f service.ListFilter) ([]domain.Transaction, int, error) { return s.Portal.Statement(ctx, h, f) },
		func(err error) {
			portalFail(c, err, map[string]string{"dateFrom": "Data inicial inválida.", "dateTo": "Data final inválida."})
		})
}

// statementCSV writes the records the query's filter selects as CSV
// (CONTRACTS.md's shape), newest first, read a page at a time and written
// as it is read; fail shows a refusal before the first byte.
func statementCSV(c *gin.Context, read func(service.ListFilter) ([]domain.Transaction, int, error), fail func(error)) {
	f, err := listFilter(c, false)
	if err != nil {
		fail(err)
		return
	}
	f.PageSize = csvPage
	w := csv.NewWriter(c.Writer)
	for f.Page = 1; ; f.Page++ {
		recs, total, err := read(f)
		if err != nil {
			if f.Page == 1 {
				fail(err)
			}
			return // a failure midway cuts the file: the client sees it short
		}
		if f.Page == 1 {
			c.Header("Content-Type", "text/csv; charset=utf-8")
			c.Header("Content-Disposition", `attachment; filename="extrato.csv"`)
			_ = w.Write(csvHeader)
		}
		for _, t := range recs {
			_ = w.Write([]string{t.ID, t.CreatedAt.ISO(), t.Type, t.Status, t.Amount.String(), t.FeeAmount.String(),
				t.NetAmount.String(), csvText(t.Description)})
		}
		w.Flush()
		if f.Page*csvPage >= total || len(recs) == 0 {
			return
		}
	}
}

// csvText keeps a text cell a text in a spreadsheet: one that starts like
// a formula (=, +, -, @, a tab or a carriage return) is prefixed with an
// apostrophe, so a description a payer typed cannot run as one.
func csvText(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
