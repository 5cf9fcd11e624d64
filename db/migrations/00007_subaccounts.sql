-- +goose Up
-- Sub-accounts: logical wallets under a merchant account. Their money lives
-- in their own ledger accounts (<id>:available, <id>:pending, <id>:locked),
-- never in this table. A deleted sub-account is kept (its ledger history
-- names it) with deleted_at set, and frees its externalReference.
CREATE TABLE subaccounts (
    id                    text PRIMARY KEY,
    account_id            text NOT NULL REFERENCES accounts(id),
    name                  text NOT NULL,
    external_reference    text NOT NULL,
    person_type           text NOT NULL CHECK (person_type IN ('PF', 'PJ')),
    cpf                   text NOT NULL,
    birth_date            text NOT NULL,
    postal_code           text NOT NULL,
    cnpj                  text,
    company_name          text,
    site                  text,
    document_info         jsonb,
    -- The PJ proof document itself (at most 2 MiB, PDF/PNG/JPEG sniffed),
    -- kept for compliance review; the API never reads it back.
    document_file         bytea,
    status                text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'DISABLED')),
    lock_mode             text NOT NULL DEFAULT 'NONE' CHECK (lock_mode IN ('NONE', 'full', 'withdraw_only', 'deposit_only')),
    limit_daily           bigint,
    limit_monthly         bigint,
    limit_per_transaction bigint,
    pricing               jsonb NOT NULL DEFAULT '{}',
    portal_state          text NOT NULL DEFAULT 'none',
    portal_email          text,
    -- argon2id PHC string (docs/security.md); never returned.
    portal_password_hash  text,
    portal_email_verified boolean NOT NULL DEFAULT false,
    portal_two_factor     boolean NOT NULL DEFAULT false,
    portal_last_login_at  timestamptz,
    deleted_at            timestamptz,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX subaccounts_reference_key ON subaccounts (account_id, external_reference) WHERE deleted_at IS NULL;
CREATE INDEX subaccounts_account_idx ON subaccounts (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
-- A portal e-mail belongs to one live portal on the whole platform.
CREATE UNIQUE INDEX subaccounts_portal_email_key ON subaccounts (lower(portal_email))
    WHERE portal_email IS NOT NULL AND deleted_at IS NULL AND portal_state <> 'disabled';
-- Limits sum a sub-account's debits of a period.
CREATE INDEX transactions_subaccount_idx ON transactions (subaccount_id, completed_at) WHERE subaccount_id IS NOT NULL;

-- +goose Down
DROP INDEX transactions_subaccount_idx;
DROP TABLE subaccounts;
