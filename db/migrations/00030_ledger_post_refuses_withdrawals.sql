-- +goose Up
-- ledger_post refuses a debit of withdrawable money itself (p_withdraw),
-- under the balance locks, instead of handing the figures to the caller to
-- refuse and roll back: a posting can then commit in the statement that
-- makes it (db.InsertPosted), the locks never held across a round trip.
-- The rule is ledger_withdrawable, the same as db.lockedPart's (a test
-- holds them equal). The nine-argument form stays for binaries of before
-- this migration during a rolling deploy (they apply the rule themselves);
-- it is the new one with nothing to refuse.
-- +goose StatementBegin
CREATE FUNCTION ledger_withdrawable(available bigint, locked bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
    SELECT GREATEST(available - LEAST(locked, GREATEST(available, 0)), 0)
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION ledger_post(
    p_key text, p_account_id text, p_transaction_id text, p_kind text, p_description text,
    p_accounts text[], p_amounts bigint[], p_locks timestamptz[], p_guard text, p_withdraw bigint,
    OUT posted boolean, OUT locked_rows integer, OUT updated integer,
    OUT guard_available bigint, OUT guard_locked bigint)
LANGUAGE plpgsql AS $$
DECLARE
    tid bigint;
    withdrawable bigint;
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
        withdrawable := ledger_withdrawable(guard_available, guard_locked);
        IF p_withdraw > 0 AND withdrawable < p_withdraw THEN
            RAISE EXCEPTION 'insufficient balance: % withdrawable, % needed', withdrawable, p_withdraw
                USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_withdrawable', DETAIL = withdrawable::text;
        END IF;
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

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_post(
    p_key text, p_account_id text, p_transaction_id text, p_kind text, p_description text,
    p_accounts text[], p_amounts bigint[], p_locks timestamptz[], p_guard text,
    OUT posted boolean, OUT locked_rows integer, OUT updated integer,
    OUT guard_available bigint, OUT guard_locked bigint)
LANGUAGE sql AS $$
    SELECT * FROM ledger_post(p_key, p_account_id, p_transaction_id, p_kind, p_description,
        p_accounts, p_amounts, p_locks, p_guard, 0)
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION ledger_post(text, text, text, text, text, text[], bigint[], timestamptz[], text, bigint);
DROP FUNCTION ledger_withdrawable(bigint, bigint);
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_post(
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
