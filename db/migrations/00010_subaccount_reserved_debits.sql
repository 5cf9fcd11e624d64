-- +goose Up
-- Sub-account limits count a debit from the moment it is reserved
-- (db.SpentBetween: subaccount_id, type, status, created_at), no longer by
-- completed_at: the index follows the query, and also serves the list
-- filter on subaccount_id and db.OpenCharges.
CREATE INDEX transactions_subaccount_debits_idx ON transactions (subaccount_id, type, created_at)
    WHERE subaccount_id IS NOT NULL;
DROP INDEX transactions_subaccount_idx;
-- A refund's PIX_REFUND statement line now names the sub-account its
-- deposit credited (activities.RequestRefund), so that it counts against
-- that sub-account's limits; the lines written before get it from their
-- deposit (the partner's split line, on another account, does not).
UPDATE transactions r SET subaccount_id = d.subaccount_id
FROM transactions d
WHERE r.type = 'PIX_REFUND' AND r.subaccount_id IS NULL AND d.id = r.details->>'depositId'
  AND d.account_id = r.account_id AND d.subaccount_id IS NOT NULL;

-- +goose Down
UPDATE transactions SET subaccount_id = NULL WHERE type = 'PIX_REFUND' AND subaccount_id IS NOT NULL;
CREATE INDEX transactions_subaccount_idx ON transactions (subaccount_id, completed_at) WHERE subaccount_id IS NOT NULL;
DROP INDEX transactions_subaccount_debits_idx;
