package api

import (
	"context"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/service"
)

// dashPage is what the dashboard's templates read.
type dashPage struct {
	// In: a user is logged in (the pages show the menu); Can is what the
	// user's role may do (dashboard.Can), for the menu and the forms.
	In             bool
	User           service.DashboardUser
	Can            map[string]bool
	Error, Detail  string
	Notice         string
	SignupOpen     bool
	Email, Name    string
	Document       string
	AskCode        bool
	Token          string
	Balance        service.Balance
	Records        []domain.Transaction
	Filter         dashFilter
	Types          []string
	Statuses       []string
	Timeline       service.Timeline
	Live           bool
	Keys           []service.ListedKey
	Groups         []string
	Key            domain.APIKey
	Secret         string
	Endpoints      []service.WebhookEndpoint
	Endpoint       service.WebhookEndpoint
	Deliveries     []service.Delivery
	EventTypes     []string
	Users          []dashboard.User
	Roles          []string
	InviteURL      string
	Audit          []service.AuditEntry
	Subaccounts    []service.SubaccountRow
	Billings       []billing.Billing
	Methods        []string
	Checkouts      []checkout.CheckoutSession
	OTPAuth        string
	QR             template.URL
	RecoveryCodes  []string
	NextAuditPage  string
	ResentDelivery string
}

// dashFilter is the statement's filter and page, as the form sent them.
type dashFilter struct {
	Type, Status, Search, DateFrom, DateTo string
	Page, Pages                            int
	Prev, Next, CSV                        string
}

// dashRecent is how many records the home page lists.
const dashRecent = 10

// dashHome shows the balance with its next unlock and the latest
// records, kept live by the account's event stream.
func (s *Server) dashHome(c *gin.Context) {
	ctx, u := c.Request.Context(), userOf(c)
	b, err := s.Dashboard.Balance(ctx, u)
	if err != nil {
		dashFail(c, err)
		return
	}
	recs, _, err := s.Dashboard.Statement(ctx, u, service.ListFilter{Page: 1, PageSize: dashRecent})
	if err != nil {
		dashFail(c, err)
		return
	}
	dashRender(c, http.StatusOK, "dashboard_home.html", "Painel", dashPage{Balance: b, Records: recs, Live: true})
}

// liveRecord is a record as the live pages' script shows it.
type liveRecord struct {
	ID     string `json:"id"`
	When   string `json:"when"`
	Type   string `json:"type"`
	Amount string `json:"amount"`
	Status string `json:"status"`
}

// dashHomeEvents streams the latest records ("status" events) each time
// the account has an event: the home page turns a new charge or a payment
// into its list as it happens.
func (s *Server) dashHomeEvents(c *gin.Context) {
	u := userOf(c)
	s.statusStream(c, []string{accountWatch(u.Account.ID)}, time.Now().Add(24*time.Hour), func(ctx context.Context) (streamState, error) {
		// A user removed (or whose session ended) while the page is open
		// hears no more: the stream ends at its next read.
		if _, err := s.Dashboard.User(ctx, u.User.ID, u.Epoch, u.Address); err != nil {
			return streamState{}, err
		}
		recs, _, err := s.Dashboard.Statement(ctx, u, service.ListFilter{Page: 1, PageSize: dashRecent})
		if err != nil {
			return streamState{}, err
		}
		var digest strings.Builder
		rows := make([]liveRecord, len(recs))
		for i, t := range recs {
			digest.WriteString(t.ID + ":" + t.Status + ";")
			rows[i] = liveRecord{ID: t.ID, When: localTime(t.CreatedAt), Type: typeName(t.Type), Amount: brl(t.Amount), Status: txStatusName(t.Status)}
		}
		return streamState{Status: digest.String(), Open: true, Data: rows}, nil
	})
}

// accountWatch is the id the event tail wakes an account's watchers by
// (dispatch.AccountWatch).
func accountWatch(accountID string) string { return "account:" + accountID }

// dashTransactions is one page of the account's records, filtered as the
// API's statement is (type, status, dates, search), newest first.
func (s *Server) dashTransactions(c *gin.Context) {
	f, err := listFilter(c, false)
	if err != nil {
		dashFail(c, err)
		return
	}
	if t := c.Query("type"); t != "" {
		if _, ok := typeNames[t]; !ok {
			dashFail(c, domain.Invalid("type", "is not a record type"))
			return
		}
		f.Types = []string{t}
	}
	recs, total, err := s.Dashboard.Statement(c.Request.Context(), userOf(c), f)
	if err != nil {
		dashFail(c, err)
		return
	}
	df := dashFilter{Type: c.Query("type"), Status: c.Query("status"), Search: c.Query("search"), DateFrom: c.Query("dateFrom"),
		DateTo: c.Query("dateTo"), Page: f.Page, Pages: max(1, (total+f.PageSize-1)/f.PageSize)}
	link := func(path string, page int) string {
		q := c.Request.URL.Query()
		q.Del("page")
		if page > 0 {
			q.Set("page", strconv.Itoa(page))
		}
		return path + "?" + q.Encode()
	}
	if df.Page > 1 {
		df.Prev = link("/dashboard/transactions", df.Page-1)
	}
	if df.Page < df.Pages {
		df.Next = link("/dashboard/transactions", df.Page+1)
	}
	df.CSV = link("/dashboard/transactions.csv", 0)
	types := make([]string, 0, len(typeNames))
	for t := range typeNames {
		types = append(types, t)
	}
	slices.Sort(types)
	dashRender(c, http.StatusOK, "dashboard_transactions.html", "Extrato", dashPage{Records: recs, Filter: df,
		Types: types, Statuses: domain.Statuses})
}

// dashTransactionsCSV is the account's statement (or what the filter
// selects) as CSV, in the portal's shape.
func (s *Server) dashTransactionsCSV(c *gin.Context) {
	ctx, u := c.Request.Context(), userOf(c)
	statementCSV(c, func(f service.ListFilter) ([]domain.Transaction, int, error) {
		if t := c.Query("type"); t != "" {
			f.Types = []string{t}
		}
		return s.Dashboard.Statement(ctx, u, f)
	}, func(err error) { dashFail(c, err) })
}

// dashPayment is one payment's whole life: its record and its timeline.
func (s *Server) dashPayment(c *gin.Context) {
	tl, err := s.Dashboard.Payment(c.Request.Context(), userOf(c), c.Param("id"))
	if err != nil {
		dashFail(c, err)
		return
	}
	dashRender(c, http.StatusOK, "dashboard_payment.html", "Pagamento", dashPage{Timeline: tl,
		Live: tl.Record.Status == domain.StatusPending || tl.Record.Status == domain.StatusProcessing})
}

// dashPaymentEvents streams a pending payment's status until it is final.
func (s *Server) dashPaymentEvents(c *gin.Context) {
	ctx, u, id := c.Request.Context(), userOf(c), c.Param("id")
	tl, err := s.Dashboard.Payment(ctx, u, id)
	if err != nil {
		c.AbortWithStatus(statusOf(err))
		return
	}
	lookAt := time.Now().Add(24 * time.Hour)
	if tl.Record.ExpiresAt != nil {
		lookAt = tl.Record.ExpiresAt.Time
	}
	s.statusStream(c, []string{id}, lookAt, func(ctx context.Context) (streamState, error) {
		if _, err := s.Dashboard.User(ctx, u.User.ID, u.Epoch, u.Address); err != nil {
			return streamState{}, err
		}
		tl, err := s.Dashboard.Payment(ctx, u, id)
		if err != nil {
			return streamState{}, err
		}
		st := tl.Record.Status
		return streamState{Status: st + strconv.Itoa(len(tl.Steps)), Data: map[string]any{"status": st, "name": txStatusName(st)},
			Open: st == domain.StatusPending || st == domain.StatusProcessing}, nil
	})
}

// dashSubaccounts lists the sub-accounts with their balances and portals.
func (s *Server) dashSubaccounts(c *gin.Context) {
	page, err := intParam(c, "page", 1, 1, 1_000_000)
	if err != nil {
		dashFail(c, err)
		return
	}
	rows, _, err := s.Dashboard.Subaccounts(c.Request.Context(), userOf(c), page)
	if err != nil {
		dashFail(c, err)
		return
	}
	dashRender(c, http.StatusOK, "dashboard_subaccounts.html", "Subcontas", dashPage{Subaccounts: rows})
}
