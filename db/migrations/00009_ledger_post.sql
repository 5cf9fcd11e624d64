-- +goose Up
-- A posting in one round trip (db.Post). Inside a transaction that holds
-- balance locks, every round trip to the client is time the other payments
-- of those accounts wait, and under load the client's turn to send the
-- next statement comes late. This function does, server side, what Post
-- did in three statements: insert the ledger transaction (nothing more if
-- its idempotency key exists), lock the balances in id order (concurrent
-- postings cannot deadlock), read the guarded account's available balance
-- and locked money, insert the entries and apply their deltas. Each
-- statement of a volatile plpgsql function takes its own snapshot, so the
-- guard's read, made after the locks were granted, sees every posting
-- committed before them, as the separate statement did. The rule applied
-- to those figures stays in Go (db.lockedPart); a posting the rule refuses
-- is rolled back by its caller.
-- +goose StatementBegin
CREATE FUNCTION ledger_post(
    p_key text, p_account_id text, p_transaction_id text, p_kind text, p_description text,
    p_accounts text[], p_amounts bigint[], p_locks timestamptz[], p_guard text,
    OUT posted boolean, OUT locked_rows integer, OUT updated integer,
    OUT guard_available bigint, OUT guard_locked bigint)
LANGUAGE plpgsql AS $$
DECLARE
    tid bigint;
BEGIN
    posted := false;
    locked_rows := 0;
    updated := 0;
    INSERT INTO ledger_transactions (idempotency_key, account_id, transaction_id, kind, description)
    VALUES (p_key, NULLIF(p_account_id, ''), NULLIF(p_transaction_id, ''), p_kind, p_description)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id INTO tid;
    IF tid IS NULL THEN
        RETURN; -- posted before: writes nothing, locks nothing
    END IF;
    SELECT count(*) INTO locked_rows
    FROM (SELECT id FROM ledger_accounts WHERE id = ANY(p_accounts) ORDER BY id FOR UPDATE) l;
    IF p_guard <> '' THEN
        SELECT a.balance,
               (SELECT COALESCE(sum(e.amount), 0) FROM ledger_entries e
                WHERE e.ledger_account_id = a.id AND e.locked_until > now())
        INTO guard_available, guard_locked
        FROM ledger_accounts a WHERE a.id = p_guard;
    END IF;
    WITH e AS (
        INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount, locked_until)
        SELECT tid, a, m, l FROM unnest(p_accounts, p_amounts, p_locks) AS u(a, m, l)
        RETURNING ledger_account_id, amount)
    UPDATE ledger_accounts la SET balance = la.balance + d.delta
    FROM (SELECT ledger_account_id AS a, sum(amount) AS delta FROM e GROUP BY ledger_account_id) d
    WHERE la.id = d.a;
    GET DIAGNOSTICS updated = ROW_COUNT;
    posted := true;
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION ledger_post;
