-- +goose Up
-- subaccount_move is a whole sub-account move in one statement that commits
-- on its own (db.MoveSubaccount): subaccount_move_look's reads (an earlier
-- move answers first; the sub-accounts locked in id order; their state and
-- debits read after the locks), the move's checks under those locks, and,
-- when they pass, its record and posting (ledger_post_batch with the one
-- member p_member). The sub-accounts' row locks, which serialise every
-- move of a sub-account, are held for this call's execution only, not
-- across round trips to the process.
--
-- The checks are the rules' data, given by the caller from the domain
-- (subaccount.ModesAllowing for each sub-account's op, the DISABLED status,
-- the limits read here): a sub-account missing, disabled or locked against
-- its op, or a debit past a per-transaction, daily or monthly limit,
-- writes nothing. The caller words a refusal with the same rules in Go
-- (subaccount.Permit, Limits.Check) from the rows returned.
--
-- Rows: the earlier move's id alone; or one row per sub-account found
-- (id set), then one outcome row (id NULL): refused, or the member's
-- outcome as ledger_post_batch answers it.
-- +goose StatementBegin
CREATE FUNCTION subaccount_move(p_account_id text, p_ids text[], p_out text[], p_ref text, p_type text,
    p_debit_types text[], p_statuses text[], p_day_from timestamptz, p_day_to timestamptz,
    p_month_from timestamptz, p_month_to timestamptz, p_allowed jsonb, p_disabled text, p_amount bigint,
    p_member jsonb)
RETURNS TABLE (earlier text, id text, status text, lock_mode text, limit_daily bigint, limit_monthly bigint,
    limit_per_transaction bigint, spent_day bigint, spent_month bigint, refused boolean, o_new integer,
    o_sqlstate text, o_constraint text, o_detail text, o_message text, o_posted boolean, o_locked_rows integer,
    o_updated integer, o_guard_available bigint, o_guard_locked bigint)
LANGUAGE plpgsql AS $$
DECLARE
    l record;
    found_subs integer := 0;
    bad boolean := false;
BEGIN
    o_new := 0; o_posted := false; o_locked_rows := 0; o_updated := 0;
    FOR l IN SELECT * FROM subaccount_move_look(p_account_id, p_ids, p_out, p_ref, p_type, p_debit_types,
        p_statuses, p_day_from, p_day_to, p_month_from, p_month_to) LOOP
        IF l.earlier IS NOT NULL THEN
            earlier := l.earlier;
            RETURN NEXT;
            RETURN;
        END IF;
        found_subs := found_subs + 1;
        IF l.status = p_disabled OR NOT ((p_allowed -> (array_position(p_ids, l.id) - 1)) ? l.lock_mode) THEN
            bad := true;
        END IF;
        IF l.id = ANY(p_out) AND (
            (l.limit_per_transaction IS NOT NULL AND p_amount > l.limit_per_transaction)
            OR (l.limit_daily IS NOT NULL AND l.spent_day + p_amount > l.limit_daily)
            OR (l.limit_monthly IS NOT NULL AND l.spent_month + p_amount > l.limit_monthly)) THEN
            bad := true;
        END IF;
        id := l.id; status := l.status; lock_mode := l.lock_mode; limit_daily := l.limit_daily;
        limit_monthly := l.limit_monthly; limit_per_transaction := l.limit_per_transaction;
        spent_day := l.spent_day; spent_month := l.spent_month;
        RETURN NEXT;
    END LOOP;
    IF found_subs < (SELECT count(DISTINCT x) FROM unnest(p_ids) x) THEN
        bad := true;
    END IF;
    id := NULL; status := NULL; lock_mode := NULL; limit_daily := NULL; limit_monthly := NULL;
    limit_per_transaction := NULL; spent_day := NULL; spent_month := NULL;
    refused := bad;
    IF NOT bad THEN
        SELECT b.o_new, b.o_sqlstate, b.o_constraint, b.o_detail, b.o_message, b.o_posted, b.o_locked_rows,
            b.o_updated, b.o_guard_available, b.o_guard_locked
        INTO o_new, o_sqlstate, o_constraint, o_detail, o_message, o_posted, o_locked_rows, o_updated,
            o_guard_available, o_guard_locked
        FROM ledger_post_batch(jsonb_build_array(p_member)) b;
    END IF;
    RETURN NEXT;
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION subaccount_move(text, text[], text[], text, text, text[], text[], timestamptz, timestamptz,
    timestamptz, timestamptz, jsonb, text, bigint, jsonb);
