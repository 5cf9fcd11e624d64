package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/db"
)

const adminUsage = `usage: jangada admin <command> [flags]     (jangada admin <command> -h: its flags)

  verify-ledger                                   check the ledger's invariants in the database (exit 1 on a violation)
  list-accounts [-search S] [-page N]             GET /admin/v1/accounts
  create-account -name N -email E -document D     POST /admin/v1/accounts
  create-key -account ID [-name N] [-permissions "a/b,c/*"]
  revoke-key -key ID
  adjust -account ID -amount 10.50 -description "…"

The HTTP commands call JANGADA_ADMIN_URL (default: the operators' listener at JANGADA_ADMIN_ADDR, http://127.0.0.1:8082) with JANGADA_ADMIN_TOKEN (in dev,
the token jangada dev keeps in JANGADA_DATA_DIR/admin.token when the variable is unset).
`

// adminCommand is one admin subcommand: its flags, the ones it requires,
// and what it does with them.
type adminCommand struct {
	summary  string
	flags    func(fs *flag.FlagSet) func(ctx context.Context, cfg config.Config) error
	required []string
}

var adminCommands = map[string]adminCommand{
	"verify-ledger": {summary: "check the ledger's invariants in the database (exit 1 on a violation)",
		flags: func(fs *flag.FlagSet) func(context.Context, config.Config) error { return verifyLedger }},
	"list-accounts": {summary: "list accounts, newest first (GET /admin/v1/accounts)",
		flags: func(fs *flag.FlagSet) func(context.Context, config.Config) error {
			search := fs.String("search", "", "an account id, or part of a name, e-mail or document")
			page := fs.Int("page", 1, "page number")
			size := fs.Int("page-size", 20, "accounts per page (1 to 100)")
			return func(_ context.Context, cfg config.Config) error {
				q := url.Values{"search": {*search}, "page": {strconv.Itoa(*page)}, "pageSize": {strconv.Itoa(*size)}}
				return adminCall(cfg, "GET", "/accounts?"+q.Encode(), nil)
			}
		}},
	"create-account": {summary: "create a merchant account (POST /admin/v1/accounts)", required: []string{"name", "email", "document"},
		flags: func(fs *flag.FlagSet) func(context.Context, config.Config) error {
			name := fs.String("name", "", "the merchant's name")
			email := fs.String("email", "", "the merchant's e-mail (unique)")
			document := fs.String("document", "", "CPF or CNPJ")
			return func(_ context.Context, cfg config.Config) error {
				return adminCall(cfg, "POST", "/accounts", map[string]any{"name": *name, "email": *email, "document": *document})
			}
		}},
	"create-key": {summary: "create an API key; its secret is shown once (POST /admin/v1/accounts/{id}/keys)", required: []string{"account"},
		flags: func(fs *flag.FlagSet) func(context.Context, config.Config) error {
			account := fs.String("account", "", "the account id (jangada admin list-accounts)")
			name := fs.String("name", "cli", "the key's name")
			perms := fs.String("permissions", "*", "comma-separated permissions: group/action, group/* or *")
			return func(_ context.Context, cfg config.Config) error {
				return adminCall(cfg, "POST", "/accounts/"+url.PathEscape(*account)+"/keys", map[string]any{"name": *name, "permissions": strings.Split(*perms, ",")})
			}
		}},
	"revoke-key": {summary: "revoke an API key (DELETE /admin/v1/keys/{id})", required: []string{"key"},
		flags: func(fs *flag.FlagSet) func(context.Context, config.Config) error {
			key := fs.String("key", "", "the key id")
			return func(_ context.Context, cfg config.Config) error {
				return adminCall(cfg, "DELETE", "/keys/"+url.PathEscape(*key), nil)
			}
		}},
	"adjust": {summary: "post a ledger adjustment (POST /admin/v1/accounts/{id}/adjustments)", required: []string{"account", "amount", "description"},
		flags: func(fs *flag.FlagSet) func(context.Context, config.Config) error {
			account := fs.String("account", "", "the account id")
			amount := fs.String("amount", "", "BRL amount, e.g. 100 or -10.50")
			desc := fs.String("description", "", "what the adjustment is for")
			return func(_ context.Context, cfg config.Config) error {
				return adminCall(cfg, "POST", "/accounts/"+url.PathEscape(*account)+"/adjustments", map[string]any{"amount": json.Number(*amount), "description": *desc})
			}
		}},
}

// runAdmin is the operator CLI: a thin client of the admin API, plus the
// ledger check, which reads the database directly. Each subcommand has
// its own flags; -h prints them and exits 0; a missing required flag is a
// usage error (exit 2) before any request.
func runAdmin(ctx context.Context, cfg config.Config, args []string) error {
	if len(args) == 0 || wantsHelp(args[:1]) {
		fmt.Print(adminUsage)
		return nil
	}
	cmd, known := adminCommands[args[0]]
	if !known {
		fmt.Fprintf(os.Stderr, "jangada admin: unknown command %q\n\n%s", args[0], adminUsage)
		return errUsage
	}
	fs := flag.NewFlagSet("jangada admin "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	run := cmd.flags(fs)
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "usage: jangada admin %s [flags]\n\n%s\n\nflags:\n", args[0], cmd.summary)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	if wantsHelp(args[1:]) {
		usage(os.Stdout)
		return nil
	}
	if err := fs.Parse(args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "jangada admin %s: %v\n", args[0], err)
		usage(os.Stderr)
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "jangada admin %s: unexpected arguments %q\n", args[0], fs.Args())
		usage(os.Stderr)
		return errUsage
	}
	for _, name := range cmd.required {
		if strings.TrimSpace(fs.Lookup(name).Value.String()) == "" {
			fmt.Fprintf(os.Stderr, "jangada admin %s: -%s is required\n", args[0], name)
			usage(os.Stderr)
			return errUsage
		}
	}
	if cfg.AdminToken == "" {
		cfg.AdminToken = readDevSecret(cfg.DataDir, adminTokenFile)
	}
	return run(ctx, cfg)
}

func verifyLedger(ctx context.Context, cfg config.Config) error {
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer d.Close()
	problems, err := db.VerifyLedger(ctx, d)
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		return fmt.Errorf("ledger check failed: %d problem(s)", len(problems))
	}
	fmt.Println("ledger OK: every transaction balances, every balance equals its entries, no forbidden negative balance")
	return nil
}

// adminBase is the operators' listener the CLI calls: JANGADA_ADMIN_URL
// when set, else the address the server's own configuration gives it
// (JANGADA_ADMIN_ADDR), so the CLI follows the instance it runs beside.
func adminBase(cfg config.Config, url string) string {
	if url != "" {
		return url
	}
	return "http://" + displayAddr(cmp.Or(cfg.AdminAddr, config.DefaultAdminAddr))
}

func adminCall(cfg config.Config, method, path string, body any) error {
	base := adminBase(cfg, os.Getenv("JANGADA_ADMIN_URL"))
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, strings.TrimRight(base, "/")+"/admin/v1"+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Admin-Token", cfg.AdminToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var out bytes.Buffer
	raw, _ := io.ReadAll(res.Body)
	if json.Indent(&out, raw, "", "  ") != nil {
		out.Write(raw)
	}
	fmt.Println(out.String())
	if res.StatusCode >= 300 {
		return fmt.Errorf("%s %s: HTTP %d", method, path, res.StatusCode)
	}
	return nil
}
