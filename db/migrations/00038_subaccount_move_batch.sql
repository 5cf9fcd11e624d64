-- +goose Up
-- subaccount_move_batch is many sub-account moves in one statement and one
-- commit (group commit, db.SubaccountGroup): each member is what
-- subaccount_move does for one request (an earlier move answers first; the
-- checks under the sub-accounts' locks; the record and posting), judged
-- alone, in the batch's order. A member reads what the members before it
-- wrote (one transaction): a debit counts the batch's earlier debits of
-- its sub-account against its limits, and a repeated externalReference
-- finds the earlier member's move.
--
-- Every sub-account row the batch names is locked first, then every
-- balance row its postings name, each set once and in id order, as a lone
-- move takes them: two batches (of this process or another) and a lone
-- move wait for each other in one global order and cannot deadlock. The
-- locks are held for this call's execution only, once for the whole batch
-- instead of once per move: that is what bounds the moves of one
-- sub-account.
--
-- p_moves is a JSON array of members: {account_id, ids, out, ref, type,
-- allowed, amount, day_from, day_to, month_from, month_to, member}
-- (subaccount_move's parameters; member is ledger_post_batch's). Rows are
-- subaccount_move's, each with its member's index.
-- +goose StatementBegin
CREATE FUNCTION subaccount_move_batch(p_moves jsonb, p_debit_types text[], p_statuses text[], p_disabled text)
RETURNS TABLE (o_member integer, earlier text, id text, status text, lock_mode text, limit_daily bigint,
    limit_monthly bigint, limit_per_transaction bigint, spent_day bigint, spent_month bigint, refused boolean,
    o_new integer, o_sqlstate text, o_constraint text, o_detail text, o_message text, o_posted boolean,
    o_locked_rows integer, o_updated integer, o_guard_available bigint, o_guard_locked bigint)
LANGUAGE plpgsql AS $$
DECLARE
    m jsonb;
BEGIN
    PERFORM 1 FROM subaccounts s
    WHERE s.id IN (SELECT jsonb_array_elements_text(b -> 'ids') FROM jsonb_array_elements(p_moves) b)
    ORDER BY s.id FOR UPDATE;
    PERFORM 1 FROM ledger_accounts a
    WHERE a.id IN (SELECT jsonb_array_elements_text(b -> 'member' -> 'post' -> 'accounts') FROM jsonb_array_elements(p_moves) b)
    ORDER BY a.id FOR UPDATE;
    FOR i IN 0 .. jsonb_array_length(p_moves) - 1 LOOP
        m := p_moves -> i;
        o_member := i;
        FOR earlier, id, status, lock_mode, limit_daily, limit_monthly, limit_per_transaction, spent_day,
            spent_month, refused, o_new, o_sqlstate, o_constraint, o_detail, o_message, o_posted,
            o_locked_rows, o_updated, o_guard_available, o_guard_locked IN
            SELECT * FROM subaccount_move(m ->> 'account_id',
                ARRAY(SELECT x FROM jsonb_array_elements_text(m -> 'ids') WITH ORDINALITY AS e(x, n) ORDER BY n),
                ARRAY(SELECT x FROM jsonb_array_elements_text(m -> 'out') WITH ORDINALITY AS e(x, n) ORDER BY n),
                m ->> 'ref', m ->> 'type', p_debit_types, p_statuses,
                (m ->> 'day_from')::timestamptz, (m ->> 'day_to')::timestamptz,
                (m ->> 'month_from')::timestamptz, (m ->> 'month_to')::timestamptz,
                m -> 'allowed', p_disabled, (m ->> 'amount')::bigint, m -> 'member') LOOP
            RETURN NEXT;
        END LOOP;
    END LOOP;
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION subaccount_move_batch(jsonb, text[], text[], text);
