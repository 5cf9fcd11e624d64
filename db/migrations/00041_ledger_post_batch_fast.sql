-- +goose Up
-- ledger_post_batch_fast posts a batch that no rule can refuse, as typed
-- arrays: the events, then the balance rows locked in id order (the one
-- global order of every batch and lone move), then every other table
-- written once. The jsonb set path reads its batch several times, converts every
-- row from jsonb and judges member by member; the same rows written as
-- arrays cost 0.4 of it (BenchmarkBarePostBatch). It judges the batch
-- whole: under the locks, each member's withdrawal must be covered by its
-- guarded row's withdrawable money with every debit the other members make
-- on that row already taken, and no row that must not go negative may go
-- below zero with every debit taken. Then no member, in any order, could
-- be refused, and each posts. Otherwise it raises JLB02, as it does for an
-- unknown account; a record or a posting key already stored (a retry) and
-- an externalReference taken raise their unique violation. Either way the
-- statement wrote nothing, and the caller sends the batch to
-- ledger_post_batch, which answers each member alone.
-- +goose StatementBegin
CREATE FUNCTION ledger_post_batch_fast(
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
-- Generic plans: with its arrays known, the planner prices a custom plan
-- below the generic one every time, and planned each statement again on
-- every call (a seventh of the call's time).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    v_ids text[];          -- the rows the batch names, by id, as locked
    v_bal bigint[];        -- their balances as read under the lock
    v_neg boolean[];       -- allow_negative
    v_asof timestamptz[];  -- locked_as_of, moved to now() by a guard's look
    v_locked bigint[];     -- locked_total, less what unlocked since
    v_seqs bigint[];       -- the events' seqs, in their order
    v_named integer;       -- the distinct rows the batch names
    v_short integer;
BEGIN
    -- The events first, before any balance row is locked, as the jsonb set
    -- path writes them: an event's id is made once per attempt, so no
    -- other batch waits for it, and a batch that holds a hot row does not
    -- keep another from writing its events.
    WITH ev AS (
        INSERT INTO events (id, account_id, api_key_id, type, resource_id, data)
        SELECT x.id, x.account_id, x.api_key_id, x.type, x.resource_id, x.data
        FROM unnest(p_ev_id, p_ev_account, p_ev_api_key, p_ev_type, p_ev_resource, p_ev_data) WITH ORDINALITY
             AS x(id, account_id, api_key_id, type, resource_id, data, o)
        ORDER BY x.o
        RETURNING events.id, events.seq)
    SELECT array_agg(ev.seq ORDER BY x.o) INTO v_seqs
    FROM unnest(p_ev_id) WITH ORDINALITY AS x(id, o) JOIN ev ON ev.id = x.id;
    SELECT array_agg(l.id ORDER BY l.id), array_agg(l.balance ORDER BY l.id), array_agg(l.allow_negative ORDER BY l.id),
           array_agg(l.locked_as_of ORDER BY l.id), array_agg(l.locked_total ORDER BY l.id),
           (SELECT count(DISTINCT a) FROM unnest(p_e_account) a)
    INTO v_ids, v_bal, v_neg, v_asof, v_locked, v_named
    FROM (SELECT a.id, a.balance, a.allow_negative, a.locked_as_of, a.locked_total FROM ledger_accounts a
          WHERE a.id = ANY(p_e_account) ORDER BY a.id FOR UPDATE) l;
    IF coalesce(cardinality(v_ids), 0) <> v_named THEN
        RAISE EXCEPTION 'ledger_post_batch_fast: an unknown account' USING ERRCODE = 'JLB02';
    END IF;
    -- In a statement of its own, so that it reads what was committed while
    -- the batch waited for the locks: each guarded row's locked money, as
    -- ledger_post looks at it (less what unlocked since its last look),
    -- and the batch judged whole at the lowest balance each judgement
    -- could meet, every debit of the other members taken and none of
    -- their credits. Withdrawable money only grows with the balance, so a
    -- member judged alone, after any of the others, finds at least as
    -- much. A guard is one of its member's accounts (postFast sends no
    -- other), so every guard is a row here.
    WITH look AS (
        SELECT r.k, r.id, r.bal, r.neg_ok, g.guarded,
               CASE WHEN g.guarded THEN r.locked - coalesce((SELECT sum(e.amount) FROM ledger_entries e
                   WHERE e.ledger_account_id = r.id AND e.locked_until > r.asof
                     AND e.locked_until <= GREATEST(r.asof, now())), 0) ELSE r.locked END AS locked,
               CASE WHEN g.guarded THEN GREATEST(r.asof, now()) ELSE r.asof END AS asof
        FROM unnest(v_ids, v_bal, v_neg, v_locked, v_asof) WITH ORDINALITY AS r(id, bal, neg_ok, locked, asof, k)
        CROSS JOIN LATERAL (SELECT r.id = ANY(p_guard) AS guarded) g),
    debit AS (
        SELECT x.n, x.a, sum(x.m) AS m FROM unnest(p_e_member, p_e_account, p_e_amount) AS x(n, a, m)
        WHERE x.m < 0 GROUP BY x.n, x.a),
    row_debit AS (SELECT d.a, sum(d.m) AS m FROM debit d GROUP BY d.a)
    SELECT array_agg(look.locked ORDER BY look.k), array_agg(look.asof ORDER BY look.k),
           (SELECT count(*) FROM (
                SELECT 1 FROM look JOIN row_debit rd ON rd.a = look.id
                WHERE NOT look.neg_ok AND look.bal + rd.m < 0
                UNION ALL
                SELECT 1 FROM unnest(p_guard, p_withdraw) WITH ORDINALITY AS w(gd, amt, i)
                JOIN look ON look.id = w.gd
                CROSS JOIN LATERAL (SELECT look.bal + coalesce((SELECT rd.m FROM row_debit rd WHERE rd.a = w.gd), 0)
                                           - coalesce((SELECT d.m FROM debit d WHERE d.n = w.i AND d.a = w.gd), 0) AS low) l
                WHERE w.amt > 0 AND ledger_withdrawable(l.low::bigint, look.locked::bigint) < w.amt) q)
    INTO v_locked, v_asof, v_short
    FROM look;
    IF v_short > 0 THEN
        RAISE EXCEPTION 'ledger_post_batch_fast: a member could be refused' USING ERRCODE = 'JLB02';
    END IF;

    RETURN QUERY
    WITH rec AS (
        INSERT INTO transactions (id, account_id, api_key_id, type, status, amount, fee_amount, net_amount,
            description, external_reference, reference_id, end_to_end_id, copy_paste, subaccount_id, payer,
            recipient, details, expires_at, completed_at, created_at, updated_at)
        SELECT r.id, r.account_id, r.api_key_id, r.type, r.status, r.amount, r.fee_amount, r.net_amount,
            r.description, r.external_reference, r.reference_id, r.end_to_end_id, r.copy_paste, r.subaccount_id,
            r.payer, r.recipient, r.details, r.expires_at, r.completed_at, r.created_at, r.created_at
        FROM unnest(p_rec_id, p_rec_account, p_rec_api_key, p_rec_type, p_rec_status, p_rec_amount, p_rec_fee,
                    p_rec_net, p_rec_description, p_rec_external_reference, p_rec_reference, p_rec_end_to_end,
                    p_rec_copy_paste, p_rec_subaccount, p_rec_payer, p_rec_recipient, p_rec_details, p_rec_expires,
                    p_rec_completed, p_rec_created) WITH ORDINALITY
             AS r(id, account_id, api_key_id, type, status, amount, fee_amount, net_amount, description,
                  external_reference, reference_id, end_to_end_id, copy_paste, subaccount_id, payer, recipient,
                  details, expires_at, completed_at, created_at, o)
        ORDER BY r.o
        RETURNING 1),
    t AS (
        INSERT INTO ledger_transactions (idempotency_key, account_id, transaction_id, kind, description)
        SELECT x.k, NULLIF(x.a, ''), NULLIF(x.tr, ''), x.kd, x.d
        FROM unnest(p_key, p_post_account, p_post_transaction, p_kind, p_post_description) WITH ORDINALITY
             AS x(k, a, tr, kd, d, o)
        ORDER BY x.o
        RETURNING id, idempotency_key),
    e AS (
        INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount, locked_until)
        SELECT t.id, x.a, x.m, NULL
        FROM unnest(p_e_member, p_e_account, p_e_amount) WITH ORDINALITY AS x(n, a, m, o)
        JOIN t ON t.idempotency_key = p_key[x.n]
        ORDER BY x.o
        RETURNING 1),
    bal AS (
        -- Every row once: what the batch moved on it, and for a guarded
        -- row ledger_post's new look at its locked money.
        UPDATE ledger_accounts la SET balance = la.balance + d.moved,
            locked_total = CASE WHEN d.guarded THEN d.locked ELSE la.locked_total END,
            locked_as_of = CASE WHEN d.guarded THEN d.asof ELSE la.locked_as_of END
        FROM (SELECT r.id, r.locked, r.asof, r.id = ANY(p_guard) AS guarded, coalesce(mv.m, 0)::bigint AS moved
              FROM unnest(v_ids, v_locked, v_asof) AS r(id, locked, asof)
              LEFT JOIN (SELECT x.a, sum(x.m) AS m FROM unnest(p_e_account, p_e_amount) AS x(a, m) GROUP BY x.a) mv
                ON mv.a = r.id) d
        WHERE la.id = d.id
        RETURNING 1),
    -- Each member's answer: its guarded row's balance as the member
    -- before it left it, the row's locked money, and its events' seqs.
    run AS (
        SELECT ma.n, ma.a, coalesce(sum(ma.m) OVER (PARTITION BY ma.a ORDER BY ma.n
                                                   ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
        FROM (SELECT x.n, x.a, sum(x.m) AS m FROM unnest(p_e_member, p_e_account, p_e_amount) AS x(n, a, m)
              GROUP BY x.n, x.a) ma),
    seqs AS (
        SELECT x.n, array_agg(v_seqs[x.o] ORDER BY x.o) AS seqs
        FROM unnest(p_ev_member) WITH ORDINALITY AS x(n, o) GROUP BY x.n)
    SELECT g.i::integer - 1, CASE WHEN g.gd <> '' THEN (r.bal + run.before)::bigint END,
           CASE WHEN g.gd <> '' THEN r.locked END, seqs.seqs, now()
    FROM unnest(p_guard) WITH ORDINALITY AS g(gd, i)
    LEFT JOIN unnest(v_ids, v_bal, v_locked) AS r(id, bal, locked) ON r.id = g.gd
    LEFT JOIN run ON run.n = g.i AND run.a = g.gd
    LEFT JOIN seqs ON seqs.n = g.i
    ORDER BY g.i;
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION ledger_post_batch_fast(text[], text[], text[], text[], text[], bigint[], bigint[], bigint[], text[],
    text[], text[], text[], text[], text[], jsonb[], jsonb[], jsonb[], timestamptz[], timestamptz[], timestamptz[],
    integer[], text[], text[], text[], text[], text[], jsonb[], text[], text[], text[], text[], text[], text[],
    bigint[], integer[], text[], bigint[]);
