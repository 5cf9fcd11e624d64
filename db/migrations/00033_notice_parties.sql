-- +goose Up
-- The party a processor's notice names (a charge's payer), kept here by
-- the Inbox before the notice goes to the charge's workflow without it:
-- workflows carry references, never a person's name or document. The
-- settle step reads it in its transaction.
CREATE TABLE notice_parties (
    resource_id text PRIMARY KEY,
    party       jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE notice_parties;
