-- +goose Up
-- Checkout sessions (issue 24): one per checkout of a payment link, paid
-- through its own ordinary PIX charge (transaction_id). The session moves
-- OPEN → PAID or EXPIRED in the same database transaction as its charge
-- (the paid-charge hook). An OPEN session holds a coupon use and a line of
-- each TEXT_LINES product it sells: checkouts count the OPEN sessions under
-- the coupon's and products' row locks, so no more are sold than exist.
-- Amounts are the session's prices (money itself lives in the ledger,
-- through the charge).
CREATE TABLE checkout_sessions (
    id                 text PRIMARY KEY,
    account_id         text NOT NULL REFERENCES accounts(id),
    link_id            text NOT NULL REFERENCES payment_links(id),
    api_key_id         text REFERENCES api_keys(id),
    status             text NOT NULL CHECK (status IN ('OPEN', 'PAID', 'EXPIRED')),
    method             text NOT NULL CHECK (method IN ('PIX', 'CRYPTO')),
    original_amount    bigint NOT NULL CHECK (original_amount > 0),
    discount_amount    bigint NOT NULL DEFAULT 0 CHECK (discount_amount >= 0),
    amount             bigint NOT NULL CHECK (amount > 0),
    coupon_id          text,
    coupon_code        text,
    product_ids        text[] NOT NULL DEFAULT '{}',
    payer              jsonb,
    customer_id        text,
    transaction_id     text NOT NULL,
    external_reference text,
    delivery           jsonb,
    expires_at         timestamptz NOT NULL,
    paid_at            timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX checkout_sessions_transaction_idx ON checkout_sessions (transaction_id);
CREATE INDEX checkout_sessions_coupon_open_idx ON checkout_sessions (coupon_id) WHERE status = 'OPEN';
CREATE INDEX checkout_sessions_products_open_idx ON checkout_sessions USING gin (product_ids) WHERE status = 'OPEN';
CREATE INDEX checkout_sessions_link_idx ON checkout_sessions (link_id, created_at DESC);

-- +goose Down
DROP TABLE checkout_sessions;
