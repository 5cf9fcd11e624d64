-- +goose Up
-- Store products (spec "Product"). No money moves here: a product is what a
-- payment link sells. deliveries is the list of LINK / TEXT_INFINITE /
-- TEXT_LINES deliveries; a TEXT_LINES stock is one row per line in
-- product_lines, so that each line is handed out to one sale only
-- (db.TakeProductLine, under the product's row lock). A deleted product
-- keeps its row (sessions and handed-out lines name it) and frees its sku.
CREATE TABLE products (
    id          text PRIMARY KEY,
    account_id  text NOT NULL REFERENCES accounts(id),
    name        text NOT NULL,
    sku         text,
    description text,
    price       bigint CHECK (price > 0),
    status      text NOT NULL CHECK (status IN ('ACTIVE', 'INACTIVE')),
    deliveries  jsonb NOT NULL DEFAULT '[]',
    deleted_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX products_sku_key ON products (account_id, sku) WHERE deleted_at IS NULL AND sku IS NOT NULL;
CREATE INDEX products_account_idx ON products (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- One TEXT_LINES item. sale_id is the sale it went to (a checkout
-- session's id): one line per product and sale, handed out in position
-- order. Lines handed out are never deleted.
CREATE TABLE product_lines (
    product_id text NOT NULL REFERENCES products(id),
    position   integer NOT NULL,
    line       text NOT NULL,
    sale_id    text,
    taken_at   timestamptz,
    PRIMARY KEY (product_id, position)
);
CREATE UNIQUE INDEX product_lines_sale_key ON product_lines (product_id, sale_id) WHERE sale_id IS NOT NULL;
CREATE INDEX product_lines_free_idx ON product_lines (product_id, position) WHERE sale_id IS NULL;

-- +goose Down
DROP TABLE product_lines;
DROP TABLE products;
