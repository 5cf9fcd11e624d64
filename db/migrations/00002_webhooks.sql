-- +goose Up
-- Webhook endpoints. api_key_id NULL marks a dashboard endpoint (admin API):
-- it receives the whole account's events; otherwise only events of
-- transactions created by that key. The secret is kept in clear because
-- every delivery is signed with it; it is returned only by the create call.
CREATE TABLE webhook_endpoints (
    id          text PRIMARY KEY,
    account_id  text NOT NULL REFERENCES accounts(id),
    api_key_id  text REFERENCES api_keys(id),
    url         text NOT NULL,
    events      text[] NOT NULL,
    description text NOT NULL DEFAULT '',
    status      text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'DISABLED')),
    secret      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    deleted_at  timestamptz
);
CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id, created_at) WHERE deleted_at IS NULL;

-- One delivery per (event, endpoint): its id is derived from both, so a
-- duplicate dispatch finds the row (and the workflow) that already exist.
CREATE TABLE webhook_deliveries (
    id               text PRIMARY KEY,
    event_id         text NOT NULL REFERENCES events(id),
    endpoint_id      text NOT NULL REFERENCES webhook_endpoints(id),
    account_id       text NOT NULL,
    event_type       text NOT NULL,
    status           text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED', 'CANCELED')),
    attempts         integer NOT NULL DEFAULT 0,
    redeliveries     integer NOT NULL DEFAULT 0,
    last_status_code integer,
    last_error       text,
    next_attempt_at  timestamptz,
    delivered_at     timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);

-- Every HTTP attempt of a delivery, for the admin API's history. run 0 is
-- the dispatched chain, run n the n-th manual redelivery; attempts number
-- from 1 within a run.
CREATE TABLE webhook_attempts (
    delivery_id   text NOT NULL REFERENCES webhook_deliveries(id),
    run           integer NOT NULL,
    attempt       integer NOT NULL,
    started_at    timestamptz NOT NULL,
    status_code   integer,
    latency_ms    integer NOT NULL,
    error         text,
    response_body text,
    PRIMARY KEY (delivery_id, run, attempt)
);

-- WebSocket acknowledgements (optional for clients; kept for tracking).
CREATE TABLE ws_acks (
    event_id   text NOT NULL,
    api_key_id text NOT NULL,
    acked_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, api_key_id)
);

-- Revoking a key tells every API process at commit, whoever revoked it.
-- +goose StatementBegin
CREATE FUNCTION api_keys_revoked_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('jangada_keys_revoked', NEW.id);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
CREATE TRIGGER api_keys_revoked_notify AFTER UPDATE OF revoked_at ON api_keys
    FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
    EXECUTE FUNCTION api_keys_revoked_notify();

-- +goose Down
DROP TRIGGER api_keys_revoked_notify ON api_keys;
DROP FUNCTION api_keys_revoked_notify;
DROP TABLE ws_acks;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
