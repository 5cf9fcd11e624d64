-- +goose Up
-- Fiscal invoices (issue 25): one per PIX charge created with
-- emitFiscalInvoice on an account with features.fiscalInvoice, inserted in
-- the charge's paid transition; its workflow invoice/<id> moves it
-- (CREATED → PROCESSING → ISSUED or FAILED; CANCELLED when the charge is
-- refunded). Not a money movement: the amount is a copy of the charge's
-- gross, shown to the issuer; the money lives in the ledger.
CREATE TABLE fiscal_invoices (
    id           text PRIMARY KEY,
    account_id   text NOT NULL REFERENCES accounts(id),
    api_key_id   text,
    -- One invoice per charge: a retried paid transition inserts nothing.
    charge_id    text NOT NULL UNIQUE REFERENCES transactions(id),
    amount       bigint NOT NULL CHECK (amount > 0),
    status       text NOT NULL CHECK (status IN ('CREATED', 'PROCESSING', 'ISSUED', 'FAILED', 'CANCELLED')),
    number       text,
    reference_id text,
    reason       text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fiscal_invoices_account_idx ON fiscal_invoices (account_id, created_at DESC);

-- +goose Down
DROP TABLE fiscal_invoices;
