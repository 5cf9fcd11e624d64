-- +goose Up
-- The credit bureau. A dunning registers the debtor of an OVERDUE billing
-- with the bureau; its workflow dunning/<id> moves it (PENDING →
-- AWAITING_APPROVAL → PROCESSED or DENIED). Its fee is a ledger posting
-- (dunning:<id>:fee; a denial returns it: dunning:<id>:fee-returned); value
-- and fee are copies shown on the record, the money lives in the ledger.
-- The documents file is kept here (at most 5 MiB, type checked from its
-- bytes) for the bureau to read; it never goes into a workflow payload.
CREATE TABLE dunnings (
    id            text PRIMARY KEY,
    account_id    text NOT NULL REFERENCES accounts(id),
    status        text NOT NULL,
    type          text NOT NULL,
    payment       text NOT NULL,
    value         bigint NOT NULL,
    fee           bigint NOT NULL,
    description   text NOT NULL DEFAULT '',
    debtor        jsonb NOT NULL,
    document      bytea NOT NULL,
    document_name text NOT NULL DEFAULT '',
    document_type text NOT NULL,
    reference_id  text,
    reason        text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dunnings_account_idx ON dunnings (account_id, created_at DESC);
-- One standing dunning per billing: a second request, however concurrent,
-- fails on this index (a DENIED one may be asked again).
CREATE UNIQUE INDEX dunnings_payment_standing_idx ON dunnings (account_id, payment) WHERE status <> 'DENIED';

-- Credit reports: the bureau answers at once; the fee is the posting
-- report:<id>:fee.
CREATE TABLE bureau_reports (
    id           text PRIMARY KEY,
    account_id   text NOT NULL REFERENCES accounts(id),
    status       text NOT NULL,
    customer_id  text NOT NULL,
    cpf_cnpj     text NOT NULL,
    fee          bigint NOT NULL,
    score        integer NOT NULL,
    restrictions integer NOT NULL,
    reference_id text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bureau_reports_account_idx ON bureau_reports (account_id, created_at DESC);

-- +goose Down
DROP TABLE bureau_reports;
DROP TABLE dunnings;
