-- +goose Up
-- Subscriptions. The workflow subscription/<id> owns each row after its
-- creation: it advances the cycle (next_cycle, doc.nextDueDate) and cancels
-- it through activities, so reads never query Temporal. doc holds the whole
-- subscription (domain.Subscription as JSON; a card is only its token);
-- the columns beside it are what queries filter and lock on. No money
-- lives here: each cycle's billing is a billing of its own.
CREATE TABLE subscriptions (
    id          text PRIMARY KEY,
    account_id  text NOT NULL REFERENCES accounts(id),
    api_key_id  text NOT NULL REFERENCES api_keys(id),
    external_id text NOT NULL UNIQUE,
    status      text NOT NULL,
    next_cycle  integer NOT NULL,
    doc         jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_account_idx ON subscriptions (account_id, created_at DESC);
CREATE INDEX subscriptions_account_status_idx ON subscriptions (account_id, status, created_at DESC);

-- +goose Down
DROP TABLE subscriptions;
