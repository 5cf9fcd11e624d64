-- +goose Up
-- A refund names its deposit by id, endToEndId or the merchant's refundId
-- (db.FindDeposit). The refundId had no index: each lookup walked the
-- merchant's whole PIX_IN range. Only refunded deposits are indexed.
CREATE INDEX transactions_refund_id_idx ON transactions ((details->'refund'->>'refundId'))
    WHERE type = 'PIX_IN' AND details ? 'refund';

-- +goose Down
DROP INDEX transactions_refund_id_idx;
