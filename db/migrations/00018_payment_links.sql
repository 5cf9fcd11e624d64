-- +goose Up
-- Payment links (issue 24): a hosted page that sells fixedAmount (or an
-- amount the payer types when it is NULL) for the listed products. A
-- deleted link keeps its row (deleted_at) for the sessions that name it.
-- api_key_id is the key that made it: the charges its checkouts make are
-- that key's (its WebSocket connections and webhook endpoints see them).
CREATE TABLE payment_links (
    id              text PRIMARY KEY,
    account_id      text NOT NULL REFERENCES accounts(id),
    api_key_id      text REFERENCES api_keys(id),
    name            text NOT NULL,
    description     text NOT NULL DEFAULT '',
    allowed_methods text[] NOT NULL,
    fixed_amount    bigint CHECK (fixed_amount > 0),
    product_ids     text[] NOT NULL DEFAULT '{}',
    customer_mode   text NOT NULL CHECK (customer_mode IN ('NONE', 'OPTIONAL', 'REQUIRED')),
    status          text NOT NULL CHECK (status IN ('ACTIVE', 'INACTIVE')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    deleted_at      timestamptz
);
CREATE INDEX payment_links_account_idx ON payment_links (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- +goose Down
DROP TABLE payment_links;
