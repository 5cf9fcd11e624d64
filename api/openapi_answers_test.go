package api

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Every answer the handler tests get (fixture.serve) is recorded, and once
// they have run (TestMain) each error status is checked against the list
// of its operation in the document: a status an operation really gives
// and does not list fails the package.

// answered are the error answers seen, as "METHOD /route status".
var answered sync.Map

// routeMatchers find a request's row: each row's path as a pattern, the
// rows with fewer parameters first (a fixed segment wins, as in gin).
var routeMatchers = sync.OnceValue(func() []routeMatcher {
	var out []routeMatcher
	add := func(prefix string, routes []Route, admin bool) {
		for _, r := range routes {
			pat := regexp.QuoteMeta(prefix + r.Path)
			pat = regexp.MustCompile(`:[A-Za-z]+`).ReplaceAllString(pat, `[^/]+`)
			pat = regexp.MustCompile(`\\\*[A-Za-z]+`).ReplaceAllString(pat, `.*`)
			out = append(out, routeMatcher{r: r, admin: admin, re: regexp.MustCompile("^" + pat + "$"), params: len(pathParams(r.Path))})
		}
	}
	add("/v1", Routes(), false)
	add("/admin/v1", adminRoutes(), true)
	sort.SliceStable(out, func(i, j int) bool { return out[i].params < out[j].params })
	return out
})

type routeMatcher struct {
	r      Route
	admin  bool
	re     *regexp.Regexp
	params int
}

// recordAnswer notes an error answer of a documented route.
func recordAnswer(method, path string, status int) {
	if status < 400 {
		return
	}
	path, _, _ = strings.Cut(path, "?")
	for _, m := range routeMatchers() {
		if m.r.Method == method && m.re.MatchString(path) {
			api := "merchant"
			if m.admin {
				api = "admin"
			}
			answered.Store(fmt.Sprintf("%s %s %s %d", api, m.r.Method, openAPIPath(m.r.Path), status), true)
			return
		}
	}
}

// undocumentedAnswers lists the recorded error answers their operation does
// not list, and how many were checked.
func undocumentedAnswers() (missing []string, checked int) {
	docs := map[string]map[string]any{}
	for name, doc := range map[string][]byte{"merchant": MerchantOpenAPI(), "admin": AdminOpenAPI()} {
		var d struct {
			Paths map[string]map[string]map[string]any `json:"paths"`
		}
		if err := json.Unmarshal(doc, &d); err != nil {
			return []string{err.Error()}, 0
		}
		for path, item := range d.Paths {
			for method, op := range item {
				docs[name+" "+strings.ToUpper(method)+" "+path], _ = op["responses"].(map[string]any)
			}
		}
	}
	answered.Range(func(k, _ any) bool {
		key := k.(string)
		i := strings.LastIndexByte(key, ' ')
		op, status := key[:i], key[i+1:]
		checked++
		if _, listed := docs[op][status]; !listed {
			missing = append(missing, key)
		}
		return true
	})
	slices.Sort(missing)
	return missing, checked
}
