-- +goose Up
-- Scheduled transfers. The workflow schedule/<id> owns each row after its
-- creation: it writes status, next/last run and the run count through
-- activities, so reads never need to query Temporal. doc holds the whole
-- definition (schedule.Schedule as JSON); the columns beside it are what
-- queries filter on.
CREATE TABLE scheduled_transfers (
    id           text PRIMARY KEY,
    account_id   text NOT NULL REFERENCES accounts(id),
    api_key_id   text NOT NULL REFERENCES api_keys(id),
    trigger_type text NOT NULL,
    status       text NOT NULL,
    doc          jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX scheduled_transfers_account_idx ON scheduled_transfers (account_id, created_at DESC);
CREATE INDEX scheduled_transfers_threshold_idx ON scheduled_transfers (account_id)
    WHERE trigger_type = 'BALANCE_THRESHOLD' AND status IN ('active', 'paused');

-- Balance-threshold schedules are driven by balance changes, not polling:
-- when an account that has an open threshold schedule sees its available
-- balance change, the committing transaction notifies the channel
-- schedule_balance with the account id (NOTIFY is delivered at commit, and
-- only then). Accounts without such a schedule pay one index probe.
-- +goose StatementBegin
CREATE FUNCTION notify_schedule_balance() RETURNS trigger AS $$
BEGIN
    IF NEW.kind = 'available' AND NEW.balance IS DISTINCT FROM OLD.balance AND EXISTS (
        SELECT 1 FROM scheduled_transfers
        WHERE account_id = NEW.account_id AND trigger_type = 'BALANCE_THRESHOLD' AND status IN ('active', 'paused')
    ) THEN
        PERFORM pg_notify('schedule_balance', NEW.account_id);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
CREATE TRIGGER ledger_accounts_schedule_balance AFTER UPDATE OF balance ON ledger_accounts
    FOR EACH ROW EXECUTE FUNCTION notify_schedule_balance();

-- +goose Down
DROP TRIGGER ledger_accounts_schedule_balance ON ledger_accounts;
DROP FUNCTION notify_schedule_balance();
DROP TABLE scheduled_transfers;
