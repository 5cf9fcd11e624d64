-- +goose Up
-- Merchant accounts. Features and fees are JSON so that the admin API can add
-- switches without a migration each.
CREATE TABLE accounts (
    id                        text PRIMARY KEY,
    name                      text NOT NULL,
    email                     text NOT NULL,
    document                  text NOT NULL,
    status                    text NOT NULL DEFAULT 'ACTIVE',
    verified                  boolean NOT NULL DEFAULT false,
    features                  jsonb NOT NULL,
    fees                      jsonb NOT NULL,
    security_review_threshold bigint,
    pix_key                   text NOT NULL,
    created_at                timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

-- API keys: only a SHA-256 of the secret is kept; prefix lets people recognise a key.
CREATE TABLE api_keys (
    id                    text PRIMARY KEY,
    account_id            text NOT NULL REFERENCES accounts(id),
    name                  text NOT NULL,
    prefix                text NOT NULL,
    hash                  bytea NOT NULL UNIQUE,
    permissions           text[] NOT NULL,
    ip_allowlist          text[] NOT NULL DEFAULT '{}',
    rate_limit_per_minute integer NOT NULL DEFAULT 100,
    revoked_at            timestamptz,
    created_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_account_idx ON api_keys (account_id);

-- Ledger accounts hold the running balance; the CHECK makes an overdraft of a
-- non-negative account impossible whatever the caller does.
CREATE TABLE ledger_accounts (
    id             text PRIMARY KEY,
    account_id     text REFERENCES accounts(id),
    kind           text NOT NULL,
    balance        bigint NOT NULL DEFAULT 0,
    allow_negative boolean NOT NULL DEFAULT false,
    CONSTRAINT ledger_accounts_non_negative CHECK (allow_negative OR balance >= 0)
);
INSERT INTO ledger_accounts (id, kind, allow_negative) VALUES
    ('platform:pix_clearing', 'clearing', true),
    ('platform:fees', 'revenue', false),
    ('platform:adjustments', 'adjustments', true);

-- One row per business operation; the UNIQUE idempotency key is what makes a
-- retried activity unable to post twice.
CREATE TABLE ledger_transactions (
    id              bigserial PRIMARY KEY,
    idempotency_key text NOT NULL UNIQUE,
    account_id      text REFERENCES accounts(id),
    transaction_id  text,
    kind            text NOT NULL,
    description     text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ledger_entries (
    id                    bigserial PRIMARY KEY,
    ledger_transaction_id bigint NOT NULL REFERENCES ledger_transactions(id),
    ledger_account_id     text NOT NULL REFERENCES ledger_accounts(id),
    amount                bigint NOT NULL CHECK (amount <> 0),
    locked_until          timestamptz,
    created_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_account_idx ON ledger_entries (ledger_account_id);
CREATE INDEX ledger_entries_locked_idx ON ledger_entries (ledger_account_id, locked_until)
    WHERE locked_until IS NOT NULL;
CREATE INDEX ledger_entries_txn_idx ON ledger_entries (ledger_transaction_id);

-- +goose StatementBegin
CREATE FUNCTION ledger_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger rows are immutable';
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
CREATE TRIGGER ledger_transactions_immutable BEFORE UPDATE OR DELETE ON ledger_transactions
    FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_immutable();

-- Merchant-visible records: charges, transfers, adjustments, splits. Money
-- columns are integer centavos.
CREATE TABLE transactions (
    id                 text PRIMARY KEY,
    account_id         text NOT NULL REFERENCES accounts(id),
    api_key_id         text,
    type               text NOT NULL,
    status             text NOT NULL,
    amount             bigint NOT NULL,
    fee_amount         bigint NOT NULL DEFAULT 0,
    net_amount         bigint NOT NULL DEFAULT 0,
    description        text NOT NULL DEFAULT '',
    external_reference text,
    reference_id       text,
    end_to_end_id      text,
    copy_paste         text,
    subaccount_id      text,
    payer              jsonb,
    recipient          jsonb,
    details            jsonb NOT NULL DEFAULT '{}',
    expires_at         timestamptz,
    completed_at       timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transactions_account_created_idx ON transactions (account_id, created_at DESC, id DESC);
CREATE INDEX transactions_account_type_idx ON transactions (account_id, type, created_at DESC);
CREATE UNIQUE INDEX transactions_external_reference_key ON transactions (account_id, type, external_reference)
    WHERE external_reference IS NOT NULL;
CREATE INDEX transactions_e2e_idx ON transactions (end_to_end_id) WHERE end_to_end_id IS NOT NULL;

-- The outbox: every event is written in the transaction of the change it
-- reports; dispatchers read it in seq order.
CREATE TABLE events (
    id            text PRIMARY KEY,
    seq           bigserial UNIQUE,
    account_id    text NOT NULL REFERENCES accounts(id),
    api_key_id    text,
    type          text NOT NULL,
    resource_id   text NOT NULL,
    data          jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    dispatched_at timestamptz
);
CREATE INDEX events_undispatched_idx ON events (seq) WHERE dispatched_at IS NULL;
CREATE INDEX events_resource_idx ON events (resource_id);

-- +goose StatementBegin
CREATE FUNCTION events_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('jangada_events', NEW.seq::text);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_notify();

-- +goose Down
DROP TABLE events;
DROP FUNCTION events_notify;
DROP TABLE transactions;
DROP TABLE ledger_entries;
DROP TABLE ledger_transactions;
DROP FUNCTION ledger_immutable;
DROP TABLE ledger_accounts;
DROP TABLE api_keys;
DROP TABLE accounts;
