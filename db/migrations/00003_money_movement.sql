-- +goose Up
-- A full refund returns the gross to the payer while the merchant pays back
-- only what it kept (net of fee and split) plus the outbound fee; the platform
-- absorbs the difference here.
INSERT INTO ledger_accounts (id, kind, allow_negative) VALUES ('platform:refund_costs', 'costs', true)
    ON CONFLICT (id) DO NOTHING;
CREATE INDEX transactions_refunds_idx ON transactions (account_id, created_at DESC) WHERE details ? 'refund';

-- +goose Down
DROP INDEX transactions_refunds_idx;
