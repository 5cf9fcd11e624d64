-- +goose Up
-- Store coupons (spec "Coupon"). discount_value is in hundredths: centavos
-- for FIXED, hundredths of a percent for PERCENT. uses counts the paid
-- sessions that used the coupon, one row each in coupon_uses (db.UseCoupon,
-- under the coupon's row lock, never past max_uses). A code is unique per
-- account ignoring case; a deleted coupon keeps its row and frees its code.
CREATE TABLE coupons (
    id               text PRIMARY KEY,
    account_id       text NOT NULL REFERENCES accounts(id),
    code             text NOT NULL,
    discount_type    text NOT NULL CHECK (discount_type IN ('PERCENT', 'FIXED')),
    discount_value   bigint NOT NULL CHECK (discount_value > 0),
    uses             bigint NOT NULL DEFAULT 0 CHECK (uses >= 0),
    max_uses         bigint CHECK (max_uses >= 1),
    expires_at       timestamptz,
    status           text NOT NULL CHECK (status IN ('ACTIVE', 'INACTIVE')),
    product_ids      jsonb NOT NULL DEFAULT '[]',
    payment_link_ids jsonb NOT NULL DEFAULT '[]',
    deleted_at       timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (max_uses IS NULL OR uses <= max_uses)
);
CREATE UNIQUE INDEX coupons_code_key ON coupons (account_id, lower(code)) WHERE deleted_at IS NULL;
CREATE INDEX coupons_account_idx ON coupons (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- One paid use of a coupon: the sale (checkout session) that used it, once.
CREATE TABLE coupon_uses (
    coupon_id  text NOT NULL REFERENCES coupons(id),
    session_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (coupon_id, session_id)
);

-- +goose Down
DROP TABLE coupon_uses;
DROP TABLE coupons;
