package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// composeFile is the part of docker-compose.yml these checks read.
type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Profiles    []string          `yaml:"profiles"`
		Volumes     []string          `yaml:"volumes"`
		Ports       []string          `yaml:"ports"`
		Environment map[string]string `yaml:"environment"`
		Healthcheck *struct {
			Test []string `yaml:"test"`
		} `yaml:"healthcheck"`
	} `yaml:"services"`
}

// The compose stack a deployer can trust. There is no
// Docker engine on the development machines, so its shape is checked here:
// exact image versions, the supported Temporal server image with its
// schema tools of the same version, current health checks (api and worker
// through `jangada health`), a read-only Temporal UI by default, and only
// the merchant ports published beyond this machine.
func TestComposeStackShape(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	exact := regexp.MustCompile(`^[a-z0-9./-]+:v?\d+\.\d+(\.\d+)?$`) // prom/prometheus tags have a v
	versions := map[string]string{}
	for name, s := range c.Services {
		if s.Image == "" {
			continue // built from the Dockerfile
		}
		if !exact.MatchString(s.Image) || strings.HasSuffix(s.Image, ":latest") {
			t.Errorf("%s: image %q is not pinned to an exact version", name, s.Image)
		}
		if strings.Contains(s.Image, "auto-setup") {
			t.Errorf("%s: the deprecated auto-setup image", name)
		}
		repo, tag, _ := strings.Cut(s.Image, ":")
		versions[repo] = tag
	}
	if versions["temporalio/server"] == "" || versions["temporalio/admin-tools"] != versions["temporalio/server"] {
		t.Errorf("temporalio/server %q and temporalio/admin-tools %q: want both, at the same version",
			versions["temporalio/server"], versions["temporalio/admin-tools"])
	}
	if !strings.Contains(string(raw), "temporal-sql-tool") || !strings.Contains(string(raw), "temporal operator cluster health") {
		t.Error("no schema step (temporal-sql-tool) or no `temporal operator cluster health` wait")
	}
	if strings.Contains(string(raw), "tctl") {
		t.Error("tctl is end-of-life")
	}
	for _, name := range []string{"api", "worker"} {
		s := c.Services[name]
		if s.Healthcheck == nil || strings.Join(s.Healthcheck.Test, " ") != "CMD /usr/local/bin/jangada health" {
			t.Errorf("%s: healthcheck %+v, want `jangada health`", name, s.Healthcheck)
		}
	}
	ui := c.Services["temporal-ui"]
	if v := ui.Environment["TEMPORAL_DISABLE_WRITE_ACTIONS"]; !strings.HasSuffix(v, ":-true}") {
		t.Errorf("temporal-ui: TEMPORAL_DISABLE_WRITE_ACTIONS = %q, want write actions off by default", v)
	}
	for name, s := range c.Services {
		for _, p := range s.Ports {
			public := !strings.HasPrefix(p, "127.0.0.1:")
			if public && p != "8080:8080" && p != "8081:8081" {
				t.Errorf("%s publishes %s beyond this machine", name, p)
			}
		}
	}
	api := c.Services["api"]
	if !strings.HasSuffix(api.Environment["JANGADA_ADMIN_ADDR"], ":8082") {
		t.Errorf("api: the operators' listener (the admin API's only home) is not on 8082: %v", api.Environment)
	}
	// The replicas' shared budgets: a pinned Redis with a healthcheck, and
	// the api pointed at it.
	rd := c.Services["redis"]
	if !strings.HasPrefix(rd.Image, "redis:") || rd.Healthcheck == nil || !strings.Contains(strings.Join(rd.Healthcheck.Test, " "), "redis-cli ping") {
		t.Errorf("redis: image %q healthcheck %+v, want a pinned redis checked by redis-cli ping", rd.Image, rd.Healthcheck)
	}
	if api.Environment["JANGADA_REDIS_URL"] != "redis://redis:6379/0" {
		t.Errorf("api: JANGADA_REDIS_URL = %q, want the compose Redis", api.Environment["JANGADA_REDIS_URL"])
	}
}

// TestComposeObservabilityProfile: Prometheus and Grafana are optional
// (the observability profile, so a plain `docker compose up` starts
// neither), and every file they mount from deploy/ exists.
func TestComposeObservabilityProfile(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"prometheus", "grafana"} {
		s, ok := c.Services[name]
		if !ok || strings.Join(s.Profiles, ",") != "observability" {
			t.Errorf("%s: profiles %v, want [observability]", name, s.Profiles)
		}
		if len(s.Volumes) == 0 {
			t.Errorf("%s mounts nothing from deploy/", name)
		}
		for _, v := range s.Volumes {
			src, _, _ := strings.Cut(v, ":")
			if _, err := os.Stat(filepath.Join("..", "..", src)); err != nil {
				t.Errorf("%s mounts %s: %v", name, src, err)
			}
		}
	}
}
