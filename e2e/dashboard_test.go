package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// failureOnly are the metrics the Temporal SDK emits only once something
// fails (an activity attempt, a call to the frontend): the dashboard plots
// them, and a healthy run has none to scrape.
var failureOnly = map[string]bool{
	"temporal_activity_execution_failed_total": true,
	"temporal_request_failure_total":           true,
}

// checkDashboard: deploy/grafana/dashboards/jangada.json parses as a
// Grafana dashboard, and every metric its queries read is on the app's
// /metrics (scraped is that page).
func checkDashboard(t *testing.T, scraped string) {
	t.Helper()
	raw, err := os.ReadFile("../deploy/grafana/dashboards/jangada.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		UID    string `json:"uid"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("dashboard: %v", err)
	}
	if d.UID == "" || len(d.Panels) == 0 {
		t.Fatalf("dashboard without uid or panels")
	}
	names := regexp.MustCompile(`\b(jangada|temporal)_[a-z0-9_]+`)
	seen := 0
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			for _, name := range names.FindAllString(tg.Expr, -1) {
				seen++
				if failureOnly[name] {
					continue
				}
				if !strings.Contains(scraped, "\n"+name+"{") && !strings.Contains(scraped, "\n"+name+" ") {
					t.Errorf("panel %q reads %s, which /metrics does not export", p.Title, name)
				}
			}
		}
	}
	if seen == 0 {
		t.Error("the dashboard reads no jangada_ or temporal_ metric")
	}
}
