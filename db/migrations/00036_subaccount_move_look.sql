-- +goose Up
-- subaccount_move_look is a sub-account move's reads in one round trip, in
-- the order the rules ask for them (db.LookSubaccountMove):
--   1. an earlier move of the same type with the same externalReference
--      (the move's idempotency key) answers before any check: its id;
--   2. the account's live sub-accounts p_ids are locked FOR UPDATE in id
--      order (every move and debit of a sub-account serialises there);
--   3. the earlier move is looked for again, now that a concurrent attempt
--      that held the locks has committed or rolled back;
--   4. each locked sub-account's state, and for the debited ones (p_out)
--      with a daily or monthly limit, what their reserved debits take in
--      the day and in the month that contain now (p_day_*, p_month_*).
-- Each statement of a plpgsql function takes its own snapshot (READ
-- COMMITTED), so the reads after the lock see what the lock's last holder
-- committed: one statement with the lock and the reads together would read
-- from before the wait and could let two debits pass a limit only one fits.
-- The rules themselves (status, lock mode, limits) stay in Go
-- (subaccount.Permit, Limits.Check): the caller checks the rows returned,
-- then writes the move in the same transaction.
-- +goose StatementBegin
CREATE FUNCTION subaccount_move_look(p_account_id text, p_ids text[], p_out text[], p_ref text, p_type text,
    p_debit_types text[], p_statuses text[], p_day_from timestamptz, p_day_to timestamptz,
    p_month_from timestamptz, p_month_to timestamptz)
RETURNS TABLE (earlier text, id text, status text, lock_mode text, limit_daily bigint, limit_monthly bigint,
    limit_per_transaction bigint, spent_day bigint, spent_month bigint)
LANGUAGE plpgsql AS $$
DECLARE
    e text;
BEGIN
    -- The earlier move is looked for before the locks (a repeat answers
    -- before any check) and again after them (a concurrent attempt that
    -- held them has now committed or rolled back).
    FOR pass IN 1 .. 2 LOOP
        SELECT t.id INTO e FROM transactions t
        WHERE t.account_id = p_account_id AND t.external_reference = p_ref AND t.type = p_type LIMIT 1;
        IF e IS NOT NULL THEN
            earlier := e;
            RETURN NEXT;
            RETURN;
        END IF;
        IF pass = 1 THEN
            PERFORM 1 FROM subaccounts s
            WHERE s.account_id = p_account_id AND s.deleted_at IS NULL AND s.id = ANY(p_ids) ORDER BY s.id FOR UPDATE;
        END IF;
    END LOOP;
    RETURN QUERY
    SELECT NULL::text, s.id, s.status, s.lock_mode, s.limit_daily, s.limit_monthly, s.limit_per_transaction,
        CASE WHEN s.id = ANY(p_out) AND s.limit_daily IS NOT NULL THEN
            (SELECT COALESCE(sum(t.amount), 0)::bigint FROM transactions t
             WHERE t.subaccount_id = s.id AND t.type = ANY(p_debit_types) AND t.status = ANY(p_statuses)
               AND t.created_at >= p_day_from AND t.created_at < p_day_to) END,
        CASE WHEN s.id = ANY(p_out) AND s.limit_monthly IS NOT NULL THEN
            (SELECT COALESCE(sum(t.amount), 0)::bigint FROM transactions t
             WHERE t.subaccount_id = s.id AND t.type = ANY(p_debit_types) AND t.status = ANY(p_statuses)
               AND t.created_at >= p_month_from AND t.created_at < p_month_to) END
    FROM subaccounts s
    WHERE s.account_id = p_account_id AND s.deleted_at IS NULL AND s.id = ANY(p_ids);
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION subaccount_move_look(text, text[], text[], text, text, text[], text[], timestamptz, timestamptz,
    timestamptz, timestamptz);
