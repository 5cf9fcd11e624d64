-- +goose Up
-- The human pages' sessions (scs's postgresstore schema): the token is the
-- cookie's value, data the session's encoded values, expiry when it ends
-- (the idle timeout moves it, the absolute one caps it inside data).
CREATE TABLE sessions (
    token  text PRIMARY KEY,
    data   bytea NOT NULL,
    expiry timestamptz NOT NULL
);
CREATE INDEX sessions_expiry_idx ON sessions (expiry);

-- A portal's sessions carry the epoch they were opened under; revoking the
-- portal, changing its e-mail, resetting its second factor and disabling
-- the sub-account bump it, which ends every open session at its next
-- request. The TOTP secret is sealed (AES-GCM under a key derived from the
-- payload key); the step of the last code taken refuses its replay; the
-- recovery codes are kept as their SHA-256, each removed when used.
ALTER TABLE subaccounts ADD COLUMN portal_session_epoch bigint NOT NULL DEFAULT 0,
    ADD COLUMN portal_totp_secret text,
    ADD COLUMN portal_totp_step bigint NOT NULL DEFAULT 0,
    ADD COLUMN portal_recovery_hashes text[] NOT NULL DEFAULT '{}';

-- Every login attempt of the portal: when, from where, with which
-- browser, for which e-mail and sub-account (when one has it), and how it
-- ended. The e-mail is what was typed, so an unknown one is kept too.
CREATE TABLE portal_login_attempts (
    id            bigserial PRIMARY KEY,
    subaccount_id text,
    email         text NOT NULL,
    address       text NOT NULL,
    user_agent    text NOT NULL,
    outcome       text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portal_login_attempts_subaccount ON portal_login_attempts (subaccount_id, created_at DESC);

-- +goose Down
DROP TABLE portal_login_attempts;
ALTER TABLE subaccounts DROP COLUMN portal_session_epoch, DROP COLUMN portal_totp_secret,
    DROP COLUMN portal_totp_step, DROP COLUMN portal_recovery_hashes;
DROP TABLE sessions;
