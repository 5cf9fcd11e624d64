package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// VerifyLedger checks the ledger's invariants and returns one line per
// violation: every transaction balances and has two entries or more, every
// cached balance equals the sum of its entries, and no account that must stay
// non-negative is below zero; a sub-account's ledger accounts belong to its
// merchant account and hold nothing once it is deleted. An empty result
// means the ledger is exact.
func VerifyLedger(ctx context.Context, d *sqlx.DB) ([]string, error) {
	checks := []struct{ name, query string }{
		{"unbalanced transaction", `
			SELECT t.idempotency_key || ' sums to ' || COALESCE(sum(e.amount), 0)
			FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.ledger_transaction_id = t.id
			GROUP BY t.id HAVING COALESCE(sum(e.amount), 0) <> 0 OR count(e.id) < 2`},
		{"balance differs from its entries", `
			SELECT a.id || ': balance ' || a.balance || ', entries ' || COALESCE(e.s, 0)
			FROM ledger_accounts a
			LEFT JOIN (SELECT ledger_account_id, sum(amount) AS s FROM ledger_entries GROUP BY 1) e
			  ON e.ledger_account_id = a.id
			WHERE a.balance <> COALESCE(e.s, 0)`},
		{"forbidden negative balance", `
			SELECT id || ': ' || balance FROM ledger_accounts WHERE NOT allow_negative AND balance < 0`},
		// A sub-account's ledger accounts belong to its own merchant account,
		// and a deleted sub-account holds nothing (its money would be lost).
		{"sub-account ledger account under another account", `
			SELECT la.id || ' belongs to ' || COALESCE(la.account_id, 'no account') || ', its sub-account to ' || s.account_id
			FROM subaccounts s JOIN ledger_accounts la ON la.id IN (s.id || ':available', s.id || ':pending', s.id || ':locked')
			WHERE la.account_id IS DISTINCT FROM s.account_id`},
		{"deleted sub-account holding money", `
			SELECT la.id || ': ' || la.balance
			FROM subaccounts s JOIN ledger_accounts la ON la.id IN (s.id || ':available', s.id || ':pending', s.id || ':locked')
			WHERE s.deleted_at IS NOT NULL AND la.balance <> 0`},
	}
	var problems []string
	for _, c := range checks {
		var rows []string
		if err := d.SelectContext(ctx, &rows, c.query); err != nil {
			return nil, fmt.Errorf("verify %s: %w", c.name, err)
		}
		for _, r := range rows {
			problems = append(problems, c.name+": "+r)
		}
	}
	return problems, nil
}
