package devserver

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/jangada/jangada/workflows"
)

// The compose file's Temporal set-up is the one the cluster soak proves:
// the file loads in compose-go with the Compose specification's schema
// (what `docker compose config` does; there is no Docker engine here), its
// Temporal images are the version of the server module this package links
// (whose embedded schemas MigratePostgres applies), its schema job runs the
// same three temporal-sql-tool steps on the same two schema directories,
// and its namespace job sets the same retention and every search attribute
// Jangada registers, with the same types.
func TestComposeSetupIsTheClusterSetup(t *testing.T) {
	root := filepath.Join("..")
	p, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  root,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(root, "docker-compose.yml")}},
		// The file refuses to load without these two secrets.
		Environment: types.Mapping{"JANGADA_ADMIN_TOKEN": "a-test-token-of-16+", "JANGADA_PAYLOAD_KEY": "a2V5"},
	}, func(o *loader.Options) { o.SetProjectName("jangada", true) })
	if err != nil {
		t.Fatalf("compose-go refuses docker-compose.yml: %v", err)
	}

	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*go\.temporal\.io/server v(\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go.temporal.io/server")
	}
	server := string(m[1])
	for _, name := range []string{"temporal", "temporal-schema", "temporal-namespace"} {
		s, ok := p.Services[name]
		if !ok {
			t.Fatalf("no service %s", name)
		}
		if _, tag, _ := strings.Cut(s.Image, ":"); tag != server {
			t.Errorf("%s: image %s, want version %s (the server module: its schema and its code)", name, s.Image, server)
		}
	}

	// The shard count the cluster tool starts with (jangada temporal -shards).
	if got := p.Services["temporal"].Environment["NUM_HISTORY_SHARDS"]; got == nil || *got != "8" {
		t.Errorf("temporal: NUM_HISTORY_SHARDS %v, want the cluster tool's 8", got)
	}

	schema := strings.Join(p.Services["temporal-schema"].Command, "\n")
	for _, want := range []string{
		"temporal-sql-tool --plugin postgres12",
		`--db "$db" create`,
		`--db "$db" setup-schema -v 0.0`,
		`--db "$db" update-schema -d "/etc/temporal/schema/postgresql/v12/$dir/versioned"`,
		// The database → schema pairs, as MigratePostgres's defaults.
		"temporal:" + filepath.Base(PostgresSchemaName),
		"temporal_visibility:" + filepath.Base(PostgresVisibilitySchemaName),
	} {
		if !strings.Contains(schema, want) {
			t.Errorf("temporal-schema's script lacks %q:\n%s", want, schema)
		}
	}
	if filepath.Dir(PostgresSchemaName) != "postgresql/v12" || filepath.Dir(PostgresVisibilitySchemaName) != "postgresql/v12" {
		t.Errorf("schema names %s, %s: the compose job reads postgresql/v12", PostgresSchemaName, PostgresVisibilitySchemaName)
	}

	ns := strings.Join(p.Services["temporal-namespace"].Command, "\n")
	if want := "--retention " + strings.TrimSuffix(NamespaceRetention.String(), "0m0s"); !strings.Contains(ns, want) {
		t.Errorf("temporal-namespace's script lacks %q:\n%s", want, ns)
	}
	for name, typ := range workflows.SearchAttributes() {
		// The CLI's type names: KEYWORD → Keyword, DOUBLE → Double.
		want := name + ":" + typ.String()
		if !strings.Contains(ns, want) {
			t.Errorf("temporal-namespace registers no search attribute %s", want)
		}
	}
	if !strings.Contains(ns, "temporal operator search-attribute create") {
		t.Error("temporal-namespace creates no search attribute")
	}
}
