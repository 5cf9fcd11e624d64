-- +goose Up
-- The indexes that find the OPEN sessions holding a coupon use or a
-- product's line (db.CouponHeld, db.ProductHeld) held an entry for every OPEN
-- session, most of which hold neither (a link without products, no
-- coupon): each checkout paid a GIN and a btree insert for nothing. They
-- now hold only the sessions that hold something; the product query names
-- the non-empty list so that the planner uses its index (the coupon one's
-- equality already implies a non-null coupon).
DROP INDEX checkout_sessions_coupon_open_idx;
DROP INDEX checkout_sessions_products_open_idx;
CREATE INDEX checkout_sessions_coupon_open_idx ON checkout_sessions (coupon_id)
    WHERE status = 'OPEN' AND coupon_id IS NOT NULL;
CREATE INDEX checkout_sessions_products_open_idx ON checkout_sessions USING gin (product_ids)
    WHERE status = 'OPEN' AND product_ids <> '{}';

-- +goose Down
DROP INDEX checkout_sessions_coupon_open_idx;
DROP INDEX checkout_sessions_products_open_idx;
CREATE INDEX checkout_sessions_coupon_open_idx ON checkout_sessions (coupon_id) WHERE status = 'OPEN';
CREATE INDEX checkout_sessions_products_open_idx ON checkout_sessions USING gin (product_ids) WHERE status = 'OPEN';
