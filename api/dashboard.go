package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/dashboard_people.go -package=apimock . DashboardPeople
//go:generate go tool mockgen -destination=apimock/dashboard_integration.go -package=apimock . DashboardIntegration
//go:generate go tool mockgen -destination=apimock/dashboard_money.go -package=apimock . DashboardMoney

// Dashboard is the merchant dashboard's use cases (service.Dashboard):
// its users, what they manage and what they read. Each checks the user's
// role and scopes every id to the user's account.
type Dashboard interface {
	DashboardPeople
	DashboardIntegration
	DashboardMoney
}

// DashboardPeople is who gets in: sign-up, invitations, login, the
// session's user, the second factor, the users and the audit log.
type DashboardPeople interface {
	Login(ctx context.Context, in service.DashboardLogin) (service.DashboardUser, error)
	User(ctx context.Context, id string, epoch int64, address string) (service.DashboardUser, error)
	Signup(ctx context.Context, in dashboard.Signup, address string) (service.DashboardUser, error)
	Invite(ctx context.Context, accountID string, by *service.DashboardUser, in dashboard.Invite) (service.Invitation, error)
	InviteLive(ctx context.Context, token string) (bool, error)
	SetPassword(ctx context.Context, token string, password *string) error
	BeginTwoFactor(ctx context.Context, u service.DashboardUser) (service.Enrollment, error)
	ConfirmTwoFactor(ctx context.Context, u service.DashboardUser, sealed, code string) ([]string, int64, error)
	Users(ctx context.Context, u service.DashboardUser) ([]dashboard.User, error)
	RemoveUser(ctx context.Context, u service.DashboardUser, id string) error
	AuditLog(ctx context.Context, u service.DashboardUser, before int64) ([]service.AuditEntry, error)
}

// DashboardIntegration is what developers manage: API keys and webhook
// endpoints with their deliveries.
type DashboardIntegration interface {
	Keys(ctx context.Context, u service.DashboardUser) ([]service.ListedKey, error)
	CreateKey(ctx context.Context, u service.DashboardUser, n domain.NewKey) (domain.APIKey, string, error)
	RevokeKey(ctx context.Context, u service.DashboardUser, id string) (domain.APIKey, error)
	RollKey(ctx context.Context, u service.DashboardUser, id string, grace time.Duration) (domain.APIKey, string, error)
	Endpoints(ctx context.Context, u service.DashboardUser) ([]service.WebhookEndpoint, error)
	Endpoint(ctx context.Context, u service.DashboardUser, id string) (service.WebhookEndpoint, error)
	CreateEndpoint(ctx context.Context, u service.DashboardUser, p domain.EndpointPatch) (service.WebhookEndpoint, error)
	SetEndpointStatus(ctx context.Context, u service.DashboardUser, id, status string) error
	DeleteEndpoint(ctx context.Context, u service.DashboardUser, id string) error
	TestEndpoint(ctx context.Context, u service.DashboardUser, id, requestID string) (service.SentTest, error)
	Deliveries(ctx context.Context, u service.DashboardUser, id string, page int) ([]service.Delivery, int, error)
	Resend(ctx context.Context, u service.DashboardUser, deliveryID string) (service.Redelivery, error)
	RollEndpointSecret(ctx context.Context, u service.DashboardUser, id string) (service.WebhookEndpoint, error)
}

// DashboardMoney is what every user reads: the balance, the statement,
// each payment's life, billings, checkouts and sub-accounts.
type DashboardMoney interface {
	Balance(ctx context.Context, u service.DashboardUser) (service.Balance, error)
	Statement(ctx context.Context, u service.DashboardUser, f service.ListFilter) ([]domain.Transaction, int, error)
	Payment(ctx context.Context, u service.DashboardUser, id string) (service.Timeline, error)
	Subaccounts(ctx context.Context, u service.DashboardUser, page int) ([]service.SubaccountRow, int, error)
	Billings(ctx context.Context, u service.DashboardUser, f service.BillingFilter) ([]billing.Billing, int, error)
	Checkouts(ctx context.Context, u service.DashboardUser, status string, page int) ([]checkout.CheckoutSession, int, error)
}

// dashCookie names the dashboard's session cookie (__Host-jangada_dashboard
// over https).
const dashCookie = "jangada_dashboard"

// The dashboard session's user (its id), and the user in a request's
// context.
const (
	dashUser = "user"
	userKey  = "dashboardUser"
)

// mountDashboard adds the merchant dashboard to the pages' group
// (docs/dashboard.md): its own session cookie, the sign-up, the
// invitation's password page, the login, and the users' pages behind it.
func (s *Server) mountDashboard(pages *gin.RouterGroup) {
	if s.Dashboard == nil || s.Sessions == nil {
		return
	}
	s.dashSessions = newWebSessions(s.Sessions, dashCookie, s.cfg.PublicURL)
	s.dashArea = area{sessions: s.dashSessions, idKey: dashUser, userKey: userKey, home: "/dashboard/", login: "/dashboard/login",
		show: func(c *gin.Context, status int, name, title string, f areaForm) {
			dashRender(c, status, name, title, dashPage{Error: f.Error, Email: f.Email, AskCode: f.AskCode, SignupOpen: s.cfg.DashboardSignup,
				Secret: f.Secret, OTPAuth: f.OTPAuth, QR: f.QR, RecoveryCodes: f.RecoveryCodes})
		},
		fail: dashFail, unavailable: dashUnavailable}
	d := pages.Group("/dashboard", s.dashSessions.load)
	d.GET("/login", s.dashLoginPage)
	d.POST("/login", s.dashLogin)
	d.POST("/logout", s.dashArea.logout)
	d.GET("/signup", s.dashSignupPage)
	d.POST("/signup", s.dashSignup)
	d.GET("/set-password/:token", s.dashSetPasswordPage)
	d.POST("/set-password/:token", s.dashSetPassword)
	// The user of a session that has ended (removed, its second factor
	// enrolled in another session) is sent to the login.
	in := d.Group("", s.dashArea.require(func(ctx context.Context, id string, epoch int64, c *gin.Context) (any, error) {
		return s.Dashboard.User(ctx, id, epoch, c.ClientIP())
	}), viewerReadsOnly)
	in.GET("/", s.dashHome)
	in.GET("/events", s.dashHomeEvents)
	in.GET("/transactions", s.dashTransactions)
	in.GET("/transactions.csv", s.dashTransactionsCSV)
	in.GET("/payments/:id", s.dashPayment)
	in.GET("/payments/:id/events", s.dashPaymentEvents)
	in.GET("/subaccounts", s.dashSubaccounts)
	in.GET("/billings", s.dashBillings)
	in.GET("/checkouts", s.dashCheckouts)
	in.GET("/keys", s.dashKeys)
	in.POST("/keys", s.dashCreateKey)
	in.POST("/keys/:id/revoke", s.dashRevokeKey)
	in.POST("/keys/:id/roll", s.dashRollKey)
	in.GET("/webhooks", s.dashWebhooks)
	in.POST("/webhooks", s.dashCreateWebhook)
	in.GET("/webhooks/:id", s.dashWebhook)
	in.POST("/webhooks/:id/test", s.dashTestWebhook)
	in.POST("/webhooks/:id/status", s.dashWebhookStatus)
	in.POST("/webhooks/:id/delete", s.dashDeleteWebhook)
	in.POST("/webhooks/:id/roll", s.dashRollWebhookSecret)
	in.POST("/deliveries/:id/resend", s.dashResend)
	in.GET("/users", s.dashUsers)
	in.POST("/users", s.dashInvite)
	in.POST("/users/:id/remove", s.dashRemoveUser)
	in.GET("/audit", s.dashAudit)
	in.GET("/security/2fa", func(c *gin.Context) {
		s.dashArea.enrollPage(c, func(ctx context.Context) (service.Enrollment, error) {
			return s.Dashboard.BeginTwoFactor(ctx, userOf(c))
		})
	})
	in.POST("/security/2fa", func(c *gin.Context) {
		s.dashArea.enrollConfirm(c, func(ctx context.Context, sealed, code string) ([]string, int64, error) {
			return s.Dashboard.ConfirmTwoFactor(ctx, userOf(c), sealed, code)
		})
	})
}

// dashRender renders a dashboard page: the user's account names it.
func dashRender(c *gin.Context, status int, name, title string, p dashPage) {
	merchant := "Jangada"
	if u, ok := c.Get(userKey); ok {
		p.User = u.(service.DashboardUser)
		p.In = true
		merchant = p.User.Account.Name
		p.Can = map[string]bool{}
		for _, a := range []string{dashboard.ManageIntegration, dashboard.ManageUsers, dashboard.ReadAudit} {
			p.Can[a] = dashboard.Can(p.User.User.Role, a)
		}
	}
	render(c, status, name, pageData{Title: title, Merchant: merchant, Area: "dashboard", Dash: p, Error: p.Error, Wide: true})
}

// dashLoginPage is the login form; a browser with a session goes to the
// dashboard instead (which checks that the session still holds).
func (s *Server) dashLoginPage(c *gin.Context) {
	if s.dashSessions.sm.GetString(c.Request.Context(), dashUser) != "" {
		c.Redirect(http.StatusSeeOther, "/dashboard/")
		return
	}
	dashRender(c, http.StatusOK, "login.html", "Entrar", dashPage{SignupOpen: s.cfg.DashboardSignup})
}

// dashLogin answers a login form as the portal's does (loginRefusal).
func (s *Server) dashLogin(c *gin.Context) {
	in := service.DashboardLogin{Email: c.PostForm("email"), Password: c.PostForm("password"), Code: c.PostForm("code"),
		Address: c.ClientIP(), UserAgent: c.Request.UserAgent()}
	u, err := s.Dashboard.Login(c.Request.Context(), in)
	s.dashArea.answerLogin(c, u.User.ID, u.Epoch, err, areaForm{Email: in.Email})
}

// viewerReadsOnly refuses a viewer's every form (403) but its own second
// factor's: a viewer reads money and payments and changes nothing.
func viewerReadsOnly(c *gin.Context) {
	u := userOf(c)
	if c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead && u.User.Role == dashboard.RoleViewer &&
		c.FullPath() != "/dashboard/security/2fa" {
		dashFail(c, domain.Forbidden("a viewer changes nothing"))
		c.Abort()
		return
	}
	c.Next()
}

func userOf(c *gin.Context) service.DashboardUser {
	return c.MustGet(userKey).(service.DashboardUser)
}

// dashUnavailable is the page of a failure that is not the user's.
func dashUnavailable(c *gin.Context) {
	dashRender(c, http.StatusServiceUnavailable, "gone.html", "Indisponível",
		dashPage{Error: "Não foi possível concluir agora. Tente novamente em instantes."})
}

// dashFail renders err as the dashboard shows it, in Portuguese: a
// refused field with the API's message, a record of no one's here, a
// role that may not, or unavailable.
func dashFail(c *gin.Context, err error) {
	status := statusOf(err)
	msg, detail := "Não foi possível concluir. Confira os dados e tente de novo.", ""
	var de *domain.Error
	switch {
	case errors.Is(err, service.ErrSessionEnded):
		c.Redirect(http.StatusSeeOther, "/dashboard/login")
		return
	case status == http.StatusNotFound:
		msg = "Este registro não existe nesta conta."
	case status == http.StatusForbidden:
		msg = "O seu papel nesta conta não permite isto. Peça a quem administra a conta."
	case status >= http.StatusInternalServerError:
		dashUnavailable(c)
		return
	case errors.As(err, &de) && status == http.StatusBadRequest:
		field, _, _ := strings.Cut(de.Message, " ")
		msg = "Confira o campo " + fieldName(field) + " e tente de novo."
		detail = de.Message
	}
	dashRender(c, status, "gone.html", "Não foi possível", dashPage{Error: msg, Detail: detail})
}

// fieldNames are the dashboard forms' fields as their labels say them.
var fieldNames = map[string]string{
	"name": "Nome", "email": "E-mail", "document": "CPF ou CNPJ", "password": "Senha", "url": "URL",
	"events": "Eventos", "permissions": "Permissões", "ipAllowlist": "IPs permitidos", "rateLimitPerMinute": "Limite por minuto",
	"code": "Código", "role": "Papel", "grace": "Carência", "status": "Situação", "dateFrom": "De", "dateTo": "Até",
	"page": "Página", "type": "Tipo",
}

// fieldName is a field's label (the field itself when unnamed).
func fieldName(f string) string {
	if n, ok := fieldNames[f]; ok {
		return n
	}
	return f
}
