-- +goose Up
-- Mobile recharges are transactions (type MOBILE_RECHARGE); a delivered
-- recharge pays the operator through this clearing account, the
-- counterpart of money leaving for the mobile operators (docs/ledger.md).
INSERT INTO ledger_accounts (id, kind, allow_negative) VALUES ('platform:recharge_clearing', 'clearing', true)
    ON CONFLICT (id) DO NOTHING;

-- +goose Down
DELETE FROM ledger_accounts WHERE id = 'platform:recharge_clearing'
    AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE ledger_account_id = 'platform:recharge_clearing');
