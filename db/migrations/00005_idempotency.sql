-- +goose Up
-- The answers of create requests sent with an Idempotency-Key, kept 24 h:
-- the same key with the same body gets the first answer again; with another
-- body, a 400. A row without a response is a request still in flight.
CREATE TABLE idempotency_keys (
    account_id   text        NOT NULL,
    key          text        NOT NULL,
    request_hash bytea       NOT NULL,
    status       integer,
    response     bytea,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

-- +goose Down
DROP TABLE idempotency_keys;
