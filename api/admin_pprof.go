package api

import (
	"net/http/pprof"
	"strings"

	"github.com/gin-gonic/gin"
)

// adminPprof serves Go's runtime profiles (net/http/pprof) to operators,
// behind the admin token: a CPU profile of a loaded API or worker process
// is how a slow path is found in production (docs/performance.md).
// /admin/v1/debug/pprof/ lists them; profile?seconds=N is the CPU profile.
func (s *Server) adminPprof(c *gin.Context) {
	switch name := strings.TrimPrefix(c.Param("name"), "/"); name {
	case "":
		pprof.Index(c.Writer, c.Request)
	case "profile":
		pprof.Profile(c.Writer, c.Request)
	case "trace":
		pprof.Trace(c.Writer, c.Request)
	case "cmdline":
		pprof.Cmdline(c.Writer, c.Request)
	case "symbol":
		pprof.Symbol(c.Writer, c.Request)
	default:
		pprof.Handler(name).ServeHTTP(c.Writer, c.Request)
	}
}
