package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/db"
)

const adminUsage = `usage: jangada admin <command>

  verify-ledger                                   check the ledger's invariants in the database (exit 1 on a violation)
  create-account -name N -email E -document D     POST /admin/v1/accounts
  create-key -account ID [-name N] [-permissions "a/b,c/*"]
  revoke-key -key ID
  adjust -account ID -amount 10.50 -description "…"

The HTTP commands call JANGADA_ADMIN_URL (default http://localhost:8080) with JANGADA_ADMIN_TOKEN.
`

// runAdmin is the operator CLI: a thin client of the admin API, plus the
// ledger check, which reads the database directly.
func runAdmin(ctx context.Context, cfg config.Config, args []string) error {
	if len(args) == 0 {
		fmt.Print(adminUsage)
		return nil
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	name := fs.String("name", "", "name")
	email := fs.String("email", "", "e-mail")
	document := fs.String("document", "", "CPF or CNPJ")
	account := fs.String("account", "", "account id")
	perms := fs.String("permissions", "*", "comma-separated permissions")
	key := fs.String("key", "", "key id")
	amount := fs.String("amount", "", "BRL amount")
	desc := fs.String("description", "", "description")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "verify-ledger":
		return verifyLedger(ctx, cfg)
	case "create-account":
		return adminCall(cfg, "POST", "/accounts", map[string]any{"name": *name, "email": *email, "document": *document})
	case "create-key":
		if *name == "" {
			*name = "cli"
		}
		return adminCall(cfg, "POST", "/accounts/"+*account+"/keys", map[string]any{"name": *name, "permissions": strings.Split(*perms, ",")})
	case "revoke-key":
		return adminCall(cfg, "DELETE", "/keys/"+*key, nil)
	case "adjust":
		return adminCall(cfg, "POST", "/accounts/"+*account+"/adjustments", map[string]any{"amount": json.Number(*amount), "description": *desc})
	}
	fmt.Print(adminUsage)
	return fmt.Errorf("unknown admin command %q", args[0])
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

func adminCall(cfg config.Config, method, path string, body any) error {
	base := os.Getenv("JANGADA_ADMIN_URL")
	if base == "" {
		base = "http://localhost:8080"
	}
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
