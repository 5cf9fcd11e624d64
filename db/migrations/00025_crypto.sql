-- +goose Up
-- Crypto deposits and withdrawals are transactions (CRYPTO_IN, CRYPTO_OUT);
-- money enters and leaves through this clearing account (docs/ledger.md).
INSERT INTO ledger_accounts (id, kind, allow_negative) VALUES ('platform:crypto_clearing', 'clearing', true)
    ON CONFLICT (id) DO NOTHING;

-- One address per deposit: no two deposits may ever share one.
CREATE UNIQUE INDEX transactions_crypto_address_key ON transactions ((details->'crypto'->>'address'))
    WHERE type = 'CRYPTO_IN';

-- Withdrawal quotes: amount (BRL) buys pay_units of pay_currency at rate
-- (BRL centavos per coin) until expires_at; one withdrawal uses each.
CREATE TABLE crypto_quotes (
    id           text PRIMARY KEY,
    account_id   text NOT NULL REFERENCES accounts(id),
    amount       bigint NOT NULL CHECK (amount > 0),
    pay_currency text NOT NULL,
    pay_units    bigint NOT NULL CHECK (pay_units > 0),
    rate         bigint NOT NULL CHECK (rate > 0),
    expires_at   timestamptz NOT NULL,
    used_by      text UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX crypto_quotes_account_idx ON crypto_quotes (account_id, pay_currency, amount, created_at DESC)
    WHERE used_by IS NULL;

-- +goose Down
DROP TABLE crypto_quotes;
DROP INDEX transactions_crypto_address_key;
DELETE FROM ledger_accounts WHERE id = 'platform:crypto_clearing'
    AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE ledger_account_id = 'platform:crypto_clearing');
