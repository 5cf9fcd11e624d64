-- +goose Up
-- PIX automatic payment instructions are transactions (type PIX_AUTOMATIC,
-- details.pixAutomatic); their list filters on the authorization.
CREATE INDEX transactions_pix_automatic_idx ON transactions ((details->'pixAutomatic'->>'authorizationId'), created_at DESC)
    WHERE type = 'PIX_AUTOMATIC';

-- +goose Down
DROP INDEX transactions_pix_automatic_idx;
