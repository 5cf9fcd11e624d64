-- +goose Up
-- PIX automatic authorizations (the payer's consent to recurring debits).
-- The workflow pix-automatic/<id> owns each row after its creation; doc
-- holds the whole record (pixauto.Authorization as JSON) and the columns
-- beside it are what queries filter on. No money lives here: an
-- authorization's payments are its instructions (transactions of type
-- PIX_AUTOMATIC) and their ledger postings.
CREATE TABLE pix_automatic_authorizations (
    id          text PRIMARY KEY,
    account_id  text NOT NULL REFERENCES accounts(id),
    customer_id text NOT NULL,
    status      text NOT NULL,
    doc         jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pix_automatic_authorizations_account_idx ON pix_automatic_authorizations (account_id, created_at DESC, id DESC);

-- +goose Down
DROP TABLE pix_automatic_authorizations;
