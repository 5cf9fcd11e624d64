-- +goose Up
-- MED disputes (issue 25). The dispute itself is a transactions row of type
-- MED (its block of the merchant's money); its evidence files are kept
-- here, by content hash: the same file sent twice for one dispute is stored
-- once, and the hash in the dispute's record (details.med.evidence.files)
-- names the bytes the processor received. Kept for the compliance review;
-- the API never reads the bytes back.
CREATE TABLE med_evidence_files (
    med_id       text NOT NULL REFERENCES transactions(id),
    sha256       text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    name         text NOT NULL,
    content_type text NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg')),
    size         integer NOT NULL CHECK (size > 0 AND size <= 262144),
    content      bytea NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (med_id, sha256)
);
-- The processor names a dispute by its infraction id (the record's
-- reference_id).
CREATE INDEX transactions_med_infraction_idx ON transactions (reference_id) WHERE type = 'MED';

-- +goose Down
DROP INDEX transactions_med_infraction_idx;
DROP TABLE med_evidence_files;
