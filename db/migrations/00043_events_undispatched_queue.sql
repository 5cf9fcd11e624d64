-- +goose Up
-- The outbox's dispatch state moves out of events into a narrow queue:
-- events becomes append-only. Marking an event dispatched was an UPDATE of
-- its row, and dispatched_at sat in the undispatched index's predicate, so
-- every mark wrote a whole new row version (the event's data with it) and
-- an entry in each of the table's indexes: about a sixth of PostgreSQL's
-- time beside the ledger's batches. Now an event's seq enters
-- events_undispatched in the statement that writes the event (a trigger
-- per statement, so every path that writes events is covered), the
-- dispatcher claims the queue's rows and deletes them when their
-- deliveries are started.
-- No foreign key: only the trigger below writes it, in the statement that
-- writes the event, and a key check a row would cost every event again.
CREATE TABLE events_undispatched (
    seq bigint PRIMARY KEY
);
INSERT INTO events_undispatched (seq) SELECT seq FROM events WHERE dispatched_at IS NULL;
DROP INDEX events_undispatched_idx;
ALTER TABLE events DROP COLUMN dispatched_at;

-- +goose StatementBegin
CREATE FUNCTION events_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events_undispatched (seq) SELECT n.seq FROM new_events n;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER events_enqueue AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION events_enqueue();

-- +goose Down
DROP TRIGGER events_enqueue ON events;
DROP FUNCTION events_enqueue;
ALTER TABLE events ADD COLUMN dispatched_at timestamptz;
UPDATE events SET dispatched_at = now() WHERE seq NOT IN (SELECT seq FROM events_undispatched);
CREATE INDEX events_undispatched_idx ON events (seq) WHERE dispatched_at IS NULL;
DROP TABLE events_undispatched;
