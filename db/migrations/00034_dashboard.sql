-- +goose Up
-- The merchant dashboard's users: each belongs to one account with a role.
-- An invited user has no password until the one-time link's page sets it
-- (the link's token is kept as its SHA-256, valid until invite_expires_at).
-- The sessions' epoch, the sealed TOTP secret, the step of the last code
-- taken and the recovery codes' hashes work as the portal's do. A removed
-- user keeps its row (deleted_at) so the audit log still names it.
CREATE TABLE dashboard_users (
    id                text PRIMARY KEY,
    account_id        text NOT NULL REFERENCES accounts(id),
    email             text NOT NULL,
    role              text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
    password_hash     text,
    invite_hash       bytea UNIQUE,
    invite_expires_at timestamptz,
    session_epoch     bigint NOT NULL DEFAULT 0,
    two_factor        boolean NOT NULL DEFAULT false,
    totp_secret       text,
    totp_step         bigint NOT NULL DEFAULT 0,
    recovery_hashes   text[] NOT NULL DEFAULT '{}',
    last_login_at     timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    deleted_at        timestamptz
);
CREATE UNIQUE INDEX dashboard_users_email_key ON dashboard_users (lower(email)) WHERE deleted_at IS NULL;
CREATE INDEX dashboard_users_account_idx ON dashboard_users (account_id);

-- Every login attempt of the dashboard, as the portal keeps its own.
CREATE TABLE dashboard_login_attempts (
    id         bigserial PRIMARY KEY,
    user_id    text,
    email      text NOT NULL,
    address    text NOT NULL,
    user_agent text NOT NULL,
    outcome    text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_login_attempts_user ON dashboard_login_attempts (user_id, created_at DESC);

-- The audit log: who changed what of an account's keys, endpoints, users
-- or money, when and from where. Rows are only ever inserted.
CREATE TABLE dashboard_audit (
    id         bigserial PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    user_id    text,
    actor      text NOT NULL,
    action     text NOT NULL,
    target     text NOT NULL DEFAULT '',
    address    text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_audit_account_idx ON dashboard_audit (account_id, id DESC);

-- A key's last use, written at most once a minute per key by each API
-- process (service.Auth keeps the uses in memory between writes); a table
-- of its own, so that a use is no change of the key (api_keys' triggers
-- tell every process to drop its resolved keys).
CREATE TABLE api_key_uses (
    key_id       text PRIMARY KEY REFERENCES api_keys(id),
    last_used_at timestamptz NOT NULL
);

-- A rolled key stays valid until its revoked_at, a grace of up to 24 hours
-- after the roll: its revocation is told to the processes (closing its
-- WebSocket connections) only when it takes effect at once; a deferred one
-- is found by the gateway's periodic re-check once it has passed.
DROP TRIGGER api_keys_revoked_notify ON api_keys;
CREATE TRIGGER api_keys_revoked_notify AFTER UPDATE OF revoked_at ON api_keys
    FOR EACH ROW WHEN ((OLD.revoked_at IS NULL OR OLD.revoked_at > now()) AND NEW.revoked_at <= now())
    EXECUTE FUNCTION api_keys_revoked_notify();

-- +goose Down
DROP TRIGGER api_keys_revoked_notify ON api_keys;
CREATE TRIGGER api_keys_revoked_notify AFTER UPDATE OF revoked_at ON api_keys
    FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
    EXECUTE FUNCTION api_keys_revoked_notify();
DROP TABLE api_key_uses;
DROP TABLE dashboard_audit;
DROP TABLE dashboard_login_attempts;
DROP TABLE dashboard_users;
