package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/money"
)

const quoteColumns = `id, account_id, amount, pay_currency, pay_units, rate, expires_at, used_by, created_at`

// InsertCryptoQuote stores a withdrawal quote.
func InsertCryptoQuote(ctx context.Context, q sqlx.ExtContext, c crypto.CryptoQuote) error {
	_, err := sqlx.NamedExecContext(ctx, q, `INSERT INTO crypto_quotes (`+quoteColumns+`)
		VALUES (:id, :account_id, :amount, :pay_currency, :pay_units, :rate, :expires_at, :used_by, :created_at)`, c)
	if err != nil {
		return fmt.Errorf("db: insert crypto quote: %w", err)
	}
	return nil
}

// LockCryptoQuote loads the account's quote FOR UPDATE inside tx: by id, or
// (id "") the latest unused one of amount in currency. Another account's
// quote is not found.
func LockCryptoQuote(ctx context.Context, tx *sqlx.Tx, accountID, id string, amount money.Cents, currency string) (crypto.CryptoQuote, error) {
	var c crypto.CryptoQuote
	var err error
	if id != "" {
		err = tx.GetContext(ctx, &c, `SELECT `+quoteColumns+` FROM crypto_quotes WHERE id = $1 AND account_id = $2 FOR UPDATE`, id, accountID)
	} else {
		err = tx.GetContext(ctx, &c, `SELECT `+quoteColumns+` FROM crypto_quotes
			WHERE account_id = $1 AND pay_currency = $2 AND amount = $3 AND used_by IS NULL
			ORDER BY created_at DESC LIMIT 1 FOR UPDATE`, accountID, currency, amount)
	}
	if errors.Is(err, sql.ErrNoRows) {
		if id == "" {
			return c, domain.Invalid("quoteId", "is required: no unused quote of %s in %s (ask /transfer-crypto/quote first)", amount, currency)
		}
		return c, domain.NotFound("quote")
	}
	if err != nil {
		return c, fmt.Errorf("db: lock crypto quote: %w", err)
	}
	return c, nil
}

// UseCryptoQuote marks the quote used by the withdrawal.
func UseCryptoQuote(ctx context.Context, tx *sqlx.Tx, id, withdrawalID string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE crypto_quotes SET used_by = $2 WHERE id = $1`, id, withdrawalID); err != nil {
		return fmt.Errorf("db: use crypto quote: %w", err)
	}
	return nil
}
