package api

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

// The dashboard's integration pages: API keys and webhook endpoints
// (developers, admins and the owner; the service checks the role).

// permissionGroups is every permission group of the route table, sorted:
// the key form offers each as "group/*".
func permissionGroups() []string {
	var gs []string
	for _, r := range Routes() {
		if g, _, ok := strings.Cut(r.Permission, "/"); ok && !slices.Contains(gs, g) {
			gs = append(gs, g)
		}
	}
	slices.Sort(gs)
	return gs
}

// dashKeys lists the account's keys with their last use, and the form of
// a new one.
func (s *Server) dashKeys(c *gin.Context) {
	s.renderKeys(c, http.StatusOK, dashPage{})
}

func (s *Server) renderKeys(c *gin.Context, status int, p dashPage) {
	keys, err := s.Dashboard.Keys(c.Request.Context(), userOf(c))
	if err != nil {
		dashFail(c, err)
		return
	}
	p.Keys, p.Groups = keys, permissionGroups()
	dashRender(c, status, "dashboard_keys.html", "Chaves de API", p)
}

// dashCreateKey makes a key from the form (name, permissions repeated,
// ipAllowlist one CIDR a line, rateLimitPerMinute) and shows its secret
// this once (data-secret) with its id (data-key-id).
func (s *Server) dashCreateKey(c *gin.Context) {
	req := domain.KeyRequest{Permissions: c.PostFormArray("permissions")}
	if name := c.PostForm("name"); name != "" {
		req.Name = &name
	}
	for _, line := range strings.Split(c.PostForm("ipAllowlist"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			req.IPAllowlist = append(req.IPAllowlist, line)
		}
	}
	if raw := strings.TrimSpace(c.PostForm("rateLimitPerMinute")); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil {
			dashFail(c, domain.Invalid("rateLimitPerMinute", "must be an integer"))
			return
		}
		req.RateLimitPerMinute = &n
	}
	n, err := req.Validate()
	if err != nil {
		dashFail(c, err)
		return
	}
	k, secret, err := s.Dashboard.CreateKey(c.Request.Context(), userOf(c), n)
	if err != nil {
		dashFail(c, err)
		return
	}
	s.renderKeys(c, http.StatusOK, dashPage{Key: k, Secret: secret})
}

// dashRevokeKey revokes a key now: the API refuses it at once.
func (s *Server) dashRevokeKey(c *gin.Context) {
	if _, err := s.Dashboard.RevokeKey(c.Request.Context(), userOf(c), c.Param("id")); err != nil {
		dashFail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/dashboard/keys")
}

// dashRollKey makes the key's successor and keeps the old one for the
// form's grace in hours (0 to 24); the new secret is shown this once.
func (s *Server) dashRollKey(c *gin.Context) {
	hours, err := strconv.Atoi(strings.TrimSpace(c.DefaultPostForm("graceHours", "0")))
	if err != nil {
		dashFail(c, domain.Invalid("grace", "must be a whole number of hours"))
		return
	}
	k, secret, err := s.Dashboard.RollKey(c.Request.Context(), userOf(c), c.Param("id"), time.Duration(hours)*time.Hour)
	if err != nil {
		dashFail(c, err)
		return
	}
	s.renderKeys(c, http.StatusOK, dashPage{Key: k, Secret: secret})
}

// dashWebhooks lists the account's endpoints and the form of a new one.
func (s *Server) dashWebhooks(c *gin.Context) {
	s.renderWebhooks(c, http.StatusOK, dashPage{})
}

func (s *Server) renderWebhooks(c *gin.Context, status int, p dashPage) {
	es, err := s.Dashboard.Endpoints(c.Request.Context(), userOf(c))
	if err != nil {
		dashFail(c, err)
		return
	}
	p.Endpoints, p.EventTypes = es, domain.Catalog
	dashRender(c, status, "dashboard_webhooks.html", "Webhooks", p)
}

// dashCreateWebhook makes an endpoint of the whole account (url, events
// repeated) and shows its whsec_ secret this once (data-secret) with its
// id (data-endpoint-id).
func (s *Server) dashCreateWebhook(c *gin.Context) {
	req := domain.EndpointRequest{Events: c.PostFormArray("events")}
	if u := strings.TrimSpace(c.PostForm("url")); u != "" {
		req.URL = &u
	}
	if d := strings.TrimSpace(c.PostForm("description")); d != "" {
		req.Description = &d
	}
	p, err := req.Validate()
	if err != nil {
		dashFail(c, err)
		return
	}
	e, err := s.Dashboard.CreateEndpoint(c.Request.Context(), userOf(c), p)
	if err != nil {
		dashFail(c, err)
		return
	}
	s.renderWebhooks(c, http.StatusOK, dashPage{Endpoint: e, Secret: e.Secret})
}

// dashWebhook is one endpoint with its latest deliveries and every
// attempt of each (time, status, latency, the answer's first bytes).
func (s *Server) dashWebhook(c *gin.Context) { s.renderWebhook(c, c.Param("id"), "") }

// renderWebhook renders the endpoint's page; secret, when set, is its new
// secret, shown this once.
func (s *Server) renderWebhook(c *gin.Context, id, secret string) {
	ctx, u := c.Request.Context(), userOf(c)
	page, err := intParam(c, "page", 1, 1, 1_000_000)
	if err != nil {
		dashFail(c, err)
		return
	}
	e, err := s.Dashboard.Endpoint(ctx, u, id)
	if err != nil {
		dashFail(c, err)
		return
	}
	ds, _, err := s.Dashboard.Deliveries(ctx, u, id, page)
	if err != nil {
		dashFail(c, err)
		return
	}
	e.Secret = ""
	dashRender(c, http.StatusOK, "dashboard_webhook.html", "Webhook", dashPage{Endpoint: e, Deliveries: ds, Secret: secret,
		ResentDelivery: c.Query("resent")})
}

// dashTestWebhook sends a webhook.test to that endpoint only.
func (s *Server) dashTestWebhook(c *gin.Context) {
	id := c.Param("id")
	if _, err := s.Dashboard.TestEndpoint(c.Request.Context(), userOf(c), id, requestID(c)); err != nil {
		dashFail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/dashboard/webhooks/"+id)
}

// dashWebhookStatus disables or re-enables an endpoint (status).
func (s *Server) dashWebhookStatus(c *gin.Context) {
	id := c.Param("id")
	if err := s.Dashboard.SetEndpointStatus(c.Request.Context(), userOf(c), id, c.PostForm("status")); err != nil {
		dashFail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/dashboard/webhooks/"+id)
}

// dashDeleteWebhook deletes an endpoint.
func (s *Server) dashDeleteWebhook(c *gin.Context) {
	if err := s.Dashboard.DeleteEndpoint(c.Request.Context(), userOf(c), c.Param("id")); err != nil {
		dashFail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/dashboard/webhooks")
}

// dashResend sends a delivery once more under its delivery id, then shows
// its endpoint.
func (s *Server) dashResend(c *gin.Context) {
	ctx, u, id := c.Request.Context(), userOf(c), c.Param("id")
	r, err := s.Dashboard.Resend(ctx, u, id)
	if err != nil {
		dashFail(c, err)
		return
	}
	to := "/dashboard/webhooks"
	if e := c.PostForm("endpoint"); e != "" && !strings.ContainsAny(e, "/?#") {
		to += "/" + e
	}
	c.Redirect(http.StatusSeeOther, to+"?resent="+r.DeliveryID)
}
