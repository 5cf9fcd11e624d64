package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

const reviewPath = "/admin/v1/transfers/tx_out_9/review"

func TestHandlerAdminReview(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		opts    []fixtureOption
		headers []string
		body    string
		expect  func(f *fixture)
		status  int
		message string // the exact message of a refusal; the decision on a success
	}{
		{
			name: "no X-Admin-Token → 401", body: `{"decision":"approve"}`,
			status: http.StatusUnauthorized, message: "missing or invalid X-Admin-Token",
		},
		{
			name: "wrong X-Admin-Token → 401", body: `{"decision":"approve"}`,
			headers: []string{"X-Admin-Token", testAdminToken + "x"},
			status:  http.StatusUnauthorized, message: "missing or invalid X-Admin-Token",
		},
		{
			name: "merchant API key instead of the admin token → 401", body: `{"decision":"approve"}`,
			headers: []string{"X-API-Key", testSecret},
			status:  http.StatusUnauthorized, message: "missing or invalid X-Admin-Token",
		},
		{
			name: "admin token unset in config, empty header → 401", body: `{"decision":"approve"}`,
			opts:    []fixtureOption{withConfig(func(c *config.Config) { c.AdminToken = "" })},
			headers: []string{"X-Admin-Token", ""},
			status:  http.StatusUnauthorized, message: "missing or invalid X-Admin-Token",
		},
		{
			name: "bad JSON → 400", body: `{"decision":`, headers: []string{"X-Admin-Token", testAdminToken},
			status: http.StatusBadRequest, message: "request body must be a JSON object",
		},
		{
			name: "no decision → 400", body: `{}`, headers: []string{"X-Admin-Token", testAdminToken},
			status: http.StatusBadRequest, message: "decision must be approve or reject",
		},
		{
			name: "empty body → 400", body: ``, headers: []string{"X-Admin-Token", testAdminToken},
			status: http.StatusBadRequest, message: "decision must be approve or reject",
		},
		{
			name: "unknown decision → 400", body: `{"decision":"maybe"}`, headers: []string{"X-Admin-Token", testAdminToken},
			status: http.StatusBadRequest, message: "decision must be approve or reject",
		},
		{
			name: "decision as a boolean → 400", body: `{"decision":true}`, headers: []string{"X-Admin-Token", testAdminToken},
			status: http.StatusBadRequest, message: "decision must be a string",
		},
		{
			name: "approve → 200", body: `{"decision":"approve"}`, headers: []string{"X-Admin-Token", testAdminToken},
			expect: func(f *fixture) {
				f.transfers.EXPECT().Review(gomock.Any(), "tx_out_9", workflows.DecisionApprove).Return(nil)
			},
			status: http.StatusOK, message: workflows.DecisionApprove,
		},
		{
			name: "reject → 200", body: `{"decision":"reject","reason":"ignored"}`, headers: []string{"X-Admin-Token", testAdminToken},
			expect: func(f *fixture) {
				f.transfers.EXPECT().Review(gomock.Any(), "tx_out_9", workflows.DecisionReject).Return(nil)
			},
			status: http.StatusOK, message: workflows.DecisionReject,
		},
		{
			name: "transfer not found → 404", body: `{"decision":"approve"}`, headers: []string{"X-Admin-Token", testAdminToken},
			expect: func(f *fixture) {
				f.transfers.EXPECT().Review(gomock.Any(), "tx_out_9", "approve").Return(domain.NotFound("transfer"))
			},
			status: http.StatusNotFound, message: "transfer not found",
		},
		{
			name: "transfer not held for review → 400", body: `{"decision":"reject"}`, headers: []string{"X-Admin-Token", testAdminToken},
			expect: func(f *fixture) {
				f.transfers.EXPECT().Review(gomock.Any(), "tx_out_9", "reject").Return(domain.Invalidf("the transfer is not held for review"))
			},
			status: http.StatusBadRequest, message: "the transfer is not held for review",
		},
		{
			name: "Temporal unavailable → 503", body: `{"decision":"approve"}`, headers: []string{"X-Admin-Token", testAdminToken},
			expect: func(f *fixture) {
				f.transfers.EXPECT().Review(gomock.Any(), "tx_out_9", "approve").Return(fmt.Errorf("signal: %w", domain.ErrUnavailable))
			},
			status: http.StatusServiceUnavailable, message: domain.ErrUnavailable.Error(),
		},
		{
			name: "unexpected error → 500", body: `{"decision":"approve"}`, headers: []string{"X-Admin-Token", testAdminToken},
			expect: func(f *fixture) {
				f.transfers.EXPECT().Review(gomock.Any(), "tx_out_9", "approve").Return(errors.New("rpc error: code = Internal"))
			},
			status: http.StatusInternalServerError, message: "internal error",
		},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("POST /admin/v1/transfers/{id}/review: %s", tc.name), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, tc.opts...)
			if tc.expect != nil {
				tc.expect(f)
			}
			w := f.serve("POST", reviewPath, tc.body, tc.headers...)
			if tc.status == http.StatusOK {
				data := expectOK(t, w, "Decision accepted")
				expectFields(t, data, map[string]string{"id": `"tx_out_9"`, "decision": `"` + tc.message + `"`})
				return
			}
			env := expectFail(t, w, tc.status, tc.message)
			if got := deref(env.Message); got != tc.message {
				t.Errorf("message = %q, want exactly %q", got, tc.message)
			}
		})
	}
}

// The admin token guards every admin route before its handler runs, so
// routes that read the database answer 401 here without one.
func TestHandlerAdminRoutesNeedToken(t *testing.T) {
	t.Parallel()
	for _, r := range adminRoutes() {
		path := "/admin/v1" + strings.ReplaceAll(r.Path, ":id", "res_1")
		t.Run(r.Method+" "+path+": no X-Admin-Token → 401", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			// The operators' listener holds every admin route (pprof only there).
			expectFail(t, f.serveAdmin(r.Method, path, "X-API-Key", testSecret), http.StatusUnauthorized, "missing or invalid X-Admin-Token")
		})
	}
}
