package api

import (
	"embed"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/config"
)

// assets is Swagger UI 5.35.0 from its npm distribution (api/assets/README.md),
// embedded so that the reference page fetches nothing from outside.
//
//go:embed assets/swagger-ui-bundle.js assets/swagger-ui.css assets/favicon-32x32.png
var assets embed.FS

// specLink is one document the reference page offers.
type specLink struct {
	URL  string `json:"url"`
	Name string `json:"name"`
}

// docsPage is the reference page: Swagger UI over one of the documents
// listed, the first unless ?api= names another (?api=admin), with links
// to the others.
const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Jangada API reference</title>
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/swagger-ui.css">
<style>body{margin:0} .swagger-ui .topbar{background:#0b3d2e}</style>
</head>
<body>
<nav id="apis" style="font:14px sans-serif;padding:10px 20px;background:#0b3d2e;color:#fff"></nav>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>
const urls = __URLS__;
const wanted = new URLSearchParams(location.search).get("api");
const shown = urls.find(u => wanted && u.url.startsWith("/" + wanted + "/")) || urls[0];
document.getElementById("apis").innerHTML = "<b>Jangada</b> &nbsp; " + urls.map(u =>
  u === shown ? "<b>" + u.name + "</b>" : '<a style="color:#9fe3c4" href="?api=' + u.url.split("/")[1] + '">' + u.name + "</a>").join(" &middot; ") +
  ' &nbsp; <a style="color:#9fe3c4" href="' + shown.url + '">' + shown.url + "</a>";
window.ui = SwaggerUIBundle({
  url: shown.url, dom_id: "#swagger-ui",
  validatorUrl: null, deepLinking: true, tryItOutEnabled: false, showExtensions: true,
  presets: [SwaggerUIBundle.presets.apis], layout: "BaseLayout",
});
</script>
</body>
</html>
`

// mountDocs serves the OpenAPI documents and the reference page on e: the
// merchant document always, the admin one where the admin API is mounted;
// each names this instance's address as its server (JANGADA_PUBLIC_URL,
// JANGADA_ADMIN_ADDR; their defaults when a Config leaves them empty).
func (s *Server) mountDocs(e *gin.Engine, withAdmin bool) {
	public, adminAddr := s.cfg.PublicURL, s.cfg.AdminAddr
	if public == "" {
		public = config.DefaultPublicURL
	}
	if adminAddr == "" {
		adminAddr = config.DefaultAdminAddr
	}
	links := []specLink{{URL: "/v1/openapi.json", Name: "Merchant API"}}
	e.GET("/v1/openapi.json", openAPIHandler(func() []byte { return MerchantOpenAPIAt(public) }))
	if withAdmin {
		links = append(links, specLink{URL: "/admin/v1/openapi.json", Name: "Admin API"})
		e.GET("/admin/v1/openapi.json", openAPIHandler(func() []byte { return AdminOpenAPIAt(adminAddr) }))
	}
	list, _ := json.Marshal(links)
	page := []byte(strings.Replace(docsPage, "__URLS__", string(list), 1))
	e.GET("/docs", func(c *gin.Context) {
		c.Data(http.StatusOK, "text/html; charset=utf-8", page)
	})
	e.GET("/docs/:file", func(c *gin.Context) {
		b, err := assets.ReadFile("assets/" + c.Param("file"))
		if err != nil {
			notFound(c)
			return
		}
		c.Header("Cache-Control", "public, max-age=86400")
		c.Data(http.StatusOK, contentType(c.Param("file")), b)
	})
}

func contentType(file string) string {
	switch {
	case strings.HasSuffix(file, ".js"):
		return "text/javascript; charset=utf-8"
	case strings.HasSuffix(file, ".css"):
		return "text/css; charset=utf-8"
	case strings.HasSuffix(file, ".png"):
		return "image/png"
	}
	return "application/octet-stream"
}

// openAPIHandler answers a document as it is (it is not an envelope: tools
// read it as OpenAPI).
func openAPIHandler(doc func() []byte) gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Data(http.StatusOK, "application/json", doc())
	}
}
