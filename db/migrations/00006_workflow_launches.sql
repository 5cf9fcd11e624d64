-- +goose Up
-- A create commits its records and, in the same transaction, the intent to
-- start the resource's workflow; the request then starts it outside any
-- transaction and clears the intent. An intent still here after due_at (the
-- request died, or Temporal was away) is started by a worker's sweeper, so
-- no committed resource is left without its workflow.
CREATE TABLE workflow_launches (
    kind        text        NOT NULL,
    resource_id text        NOT NULL,
    due_at      timestamptz NOT NULL,
    attempts    integer     NOT NULL DEFAULT 0,
    last_error  text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, resource_id)
);
CREATE INDEX workflow_launches_due ON workflow_launches (due_at);

-- +goose Down
DROP TABLE workflow_launches;
