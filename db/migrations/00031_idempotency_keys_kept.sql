-- +goose Up
-- A key's fingerprint outlives its answer. After the 24 h answer window the
-- hourly purge drops the stored answer (the bulky part) but keeps the row,
-- so a key reused later with another request is known as reused (reused_at:
-- when; its use cases then refuse to answer with a resource the key named
-- before that) instead of looking new. A row is about 150 bytes per keyed create, the
-- size of the resources the creates made.
-- A request that reuses a key and is refused (it made nothing) gives the
-- key back as it was: prior_* keep the row it took over until it answers.
ALTER TABLE idempotency_keys ADD COLUMN reused_at timestamptz,
    ADD COLUMN prior_hash bytea, ADD COLUMN prior_status integer, ADD COLUMN prior_created_at timestamptz;
DROP INDEX idempotency_keys_created_at;
CREATE INDEX idempotency_keys_answers ON idempotency_keys (created_at) WHERE response IS NOT NULL;

-- +goose Down
DROP INDEX idempotency_keys_answers;
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
ALTER TABLE idempotency_keys DROP COLUMN reused_at, DROP COLUMN prior_hash, DROP COLUMN prior_status, DROP COLUMN prior_created_at;
