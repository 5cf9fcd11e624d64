-- +goose Up
-- Inserting an event no longer NOTIFYs from a trigger: a transaction that
-- notifies takes a database-wide lock while it commits, which serialised
-- the commit of every payment step. Committed events now wake the readers
-- of their own process directly (db.OnEventsCommitted) and those of other
-- processes through one NOTIFY per burst, sent outside the business
-- transactions (dispatch.Notifier); every reader still polls the table.
DROP TRIGGER events_notify ON events;
DROP FUNCTION events_notify;

-- +goose Down
-- +goose StatementBegin
CREATE FUNCTION events_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('jangada_events', NEW.seq::text);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_notify();
