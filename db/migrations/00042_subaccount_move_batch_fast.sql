-- +goose Up
-- subaccount_move_batch_fast is subaccount_move_batch for a batch no rule
-- can refuse, as typed arrays: the sub-accounts locked in id order (before
-- any balance row, the one global order of every batch and lone move),
-- the batch judged whole under those locks, then its records, events and
-- postings written by ledger_post_batch_fast. subaccount_move_batch judges
-- member by member, each through subaccount_move with its member as jsonb;
-- its PostgreSQL CPU a move was 0.77-0.79 ms against the bare
-- transaction's 0.63-0.72.
--
-- The batch is judged whole: each (member, sub-account) pair names a
-- live sub-account of the member's account, neither disabled nor locked
-- against the member's op (p_s_allowed, the lock modes that let it
-- through, comma-joined), and each debit (p_s_out) fits the sub-account's
-- per-transaction limit, and its daily and monthly ones with every debit
-- the batch makes on that sub-account counted, whatever the order. Then no
-- member, in any order, could be refused by these checks. An earlier move
-- with the same externalReference (a retry, or a repeat within the batch)
-- raises the unique violation of its record's insert. Otherwise, as when a
-- check fails or ledger_post_batch_fast finds a member could be refused,
-- it raises JLB02. Either way the statement wrote nothing, and the caller
-- sends the batch to subaccount_move_batch, which answers each member
-- alone (an earlier move first).
--
-- p_m_* are by member (1-based, as p_s_member counts); the arrays after
-- p_disabled are ledger_post_batch_fast's, passed on.
-- +goose StatementBegin
CREATE FUNCTION subaccount_move_batch_fast(
    p_m_account text[], p_m_amount bigint[], p_m_day_from timestamptz[], p_m_day_to timestamptz[],
    p_m_month_from timestamptz[], p_m_month_to timestamptz[],
    p_s_member integer[], p_s_id text[], p_s_out boolean[], p_s_allowed text[],
    p_debit_types text[], p_statuses text[], p_disabled text,
    p_rec_id text[], p_rec_account text[], p_rec_api_key text[], p_rec_type text[], p_rec_status text[],
    p_rec_amount bigint[], p_rec_fee bigint[], p_rec_net bigint[], p_rec_description text[],
    p_rec_external_reference text[], p_rec_reference text[], p_rec_end_to_end text[], p_rec_copy_paste text[],
    p_rec_subaccount text[], p_rec_payer jsonb[], p_rec_recipient jsonb[], p_rec_details jsonb[],
    p_rec_expires timestamptz[], p_rec_completed timestamptz[], p_rec_created timestamptz[],
    p_ev_member integer[], p_ev_id text[], p_ev_account text[], p_ev_api_key text[], p_ev_type text[],
    p_ev_resource text[], p_ev_data jsonb[],
    p_key text[], p_post_account text[], p_post_transaction text[], p_kind text[], p_post_description text[],
    p_guard text[], p_withdraw bigint[],
    p_e_member integer[], p_e_account text[], p_e_amount bigint[])
RETURNS TABLE (o_member integer, o_guard_available bigint, o_guard_locked bigint, o_seqs bigint[],
    o_created timestamptz)
-- Generic plans, as ledger_post_batch_fast's: a custom plan for every
-- call's arrays would be planned again on every call.
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    v_bad integer;
BEGIN
    PERFORM 1 FROM subaccounts s WHERE s.id = ANY(p_s_id) ORDER BY s.id FOR UPDATE;
    -- In a statement of its own, so that it reads what the locks' last
    -- holders committed while the batch waited for them.
    WITH pair AS (
        SELECT x.n, x.id, x.out, x.allowed, p_m_account[x.n] AS account, p_m_amount[x.n] AS amount,
               p_m_day_from[x.n] AS day_from, p_m_day_to[x.n] AS day_to,
               p_m_month_from[x.n] AS month_from, p_m_month_to[x.n] AS month_to
        FROM unnest(p_s_member, p_s_id, p_s_out, p_s_allowed) AS x(n, id, out, allowed)),
    batch_debit AS (SELECT pair.id, sum(pair.amount) AS m FROM pair WHERE pair.out GROUP BY pair.id)
    SELECT count(*) INTO v_bad
    FROM pair
    LEFT JOIN subaccounts s ON s.id = pair.id AND s.account_id = pair.account AND s.deleted_at IS NULL
    LEFT JOIN batch_debit bd ON bd.id = pair.id
    WHERE s.id IS NULL OR s.status = p_disabled OR NOT (s.lock_mode = ANY(string_to_array(pair.allowed, ',')))
       OR (pair.out AND (
            (s.limit_per_transaction IS NOT NULL AND pair.amount > s.limit_per_transaction)
         OR (s.limit_daily IS NOT NULL AND bd.m + (SELECT COALESCE(sum(t.amount), 0) FROM transactions t
                WHERE t.subaccount_id = s.id AND t.type = ANY(p_debit_types) AND t.status = ANY(p_statuses)
                  AND t.created_at >= pair.day_from AND t.created_at < pair.day_to) > s.limit_daily)
         OR (s.limit_monthly IS NOT NULL AND bd.m + (SELECT COALESCE(sum(t.amount), 0) FROM transactions t
                WHERE t.subaccount_id = s.id AND t.type = ANY(p_debit_types) AND t.status = ANY(p_statuses)
                  AND t.created_at >= pair.month_from AND t.created_at < pair.month_to) > s.limit_monthly)));
    IF v_bad > 0 THEN
        RAISE EXCEPTION 'subaccount_move_batch_fast: a member could be refused' USING ERRCODE = 'JLB02';
    END IF;
    RETURN QUERY SELECT * FROM ledger_post_batch_fast(p_rec_id, p_rec_account, p_rec_api_key, p_rec_type,
        p_rec_status, p_rec_amount, p_rec_fee, p_rec_net, p_rec_description, p_rec_external_reference,
        p_rec_reference, p_rec_end_to_end, p_rec_copy_paste, p_rec_subaccount, p_rec_payer, p_rec_recipient,
        p_rec_details, p_rec_expires, p_rec_completed, p_rec_created, p_ev_member, p_ev_id, p_ev_account,
        p_ev_api_key, p_ev_type, p_ev_resource, p_ev_data, p_key, p_post_account, p_post_transaction, p_kind,
        p_post_description, p_guard, p_withdraw, p_e_member, p_e_account, p_e_amount);
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION subaccount_move_batch_fast(text[], bigint[], timestamptz[], timestamptz[], timestamptz[],
    timestamptz[], integer[], text[], boolean[], text[], text[], text[], text,
    text[], text[], text[], text[], text[], bigint[], bigint[], bigint[], text[],
    text[], text[], text[], text[], text[], jsonb[], jsonb[], jsonb[], timestamptz[], timestamptz[], timestamptz[],
    integer[], text[], text[], text[], text[], text[], jsonb[], text[], text[], text[], text[], text[], text[],
    bigint[], integer[], text[], bigint[]);
