-- +goose Up
-- Store customers of an account (spec "Customer"). transactions and volume
-- count what the customer actually paid: each product whose payment a
-- customer makes (billings, checkout sessions, PIX automatic) adds one
-- payment in its paid transition (db.AddCustomerPayment). volume is in
-- centavos and is a statistic, not money: balances live only in the ledger.
-- A deleted customer is kept (payments name it) with deleted_at set, and
-- frees its document.
CREATE TABLE customers (
    id           text PRIMARY KEY,
    account_id   text NOT NULL REFERENCES accounts(id),
    name         text NOT NULL,
    email        text,
    document     text NOT NULL,
    type         text NOT NULL CHECK (type IN ('PF', 'PJ')),
    status       text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE', 'BLOCKED')),
    phone        text,
    whatsapp     text,
    city         text,
    state        text,
    transactions bigint NOT NULL DEFAULT 0 CHECK (transactions >= 0),
    volume       bigint NOT NULL DEFAULT 0 CHECK (volume >= 0),
    deleted_at   timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customers_document_key ON customers (account_id, document) WHERE deleted_at IS NULL;
CREATE INDEX customers_account_idx ON customers (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- +goose Down
DROP TABLE customers;
