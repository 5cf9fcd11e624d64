-- +goose Up
-- ledger_post_batch_set writes a batch's events before it locks the
-- balance rows. Until now ledger_post_batch locked every row the batch
-- names first, so a hot row (one merchant's balance under many moves) was
-- held while the batch wrote every table, and the next batch, from this
-- process or another, could only wait. An event's id is its own: no other
-- batch can hold it or wait for it, so writing the events first adds no
-- lock to any order. A member that posts nothing (a retry, or refused
-- under the lock) takes its events back, as the member-by-member path
-- never writes them. The rows are then locked and read in one statement,
-- in id order (the one global order), and a row another batch held is
-- read as that batch committed it; the records stay behind the rows, as
-- in every other path, so that two attempts of one move never hold one
-- another's locks. The member-by-member path, for a batch of one and for
-- any batch the set path declines, still takes every row first.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_post_batch_set(p_batch jsonb)
RETURNS TABLE (o_member integer, o_new integer, o_sqlstate text, o_constraint text, o_detail text,
    o_message text, o_posted boolean, o_locked_rows integer, o_updated integer,
    o_guard_available bigint, o_guard_locked bigint, o_events jsonb)
LANGUAGE plpgsql AS $$
DECLARE
    v_n integer := jsonb_array_length(p_batch);
    -- The accounts the batch names, by id, as read under the lock.
    v_ids text[];
    v_bal0 bigint[];       -- their balances as read
    v_bal bigint[];        -- their running balances
    v_neg boolean[];       -- allow_negative
    v_asof timestamptz[];  -- locked_as_of, moved to now() by a guard
    v_locked bigint[];     -- locked_total, less what a guard released
    v_looked boolean[];    -- a guard read this row's locked money
    v_guarded boolean[];   -- an accepted member's guard read it
    v_touched boolean[];   -- an accepted member posts on it
    -- Each member, read from the batch in one statement.
    v_total integer[];     -- its records
    v_first integer[];     -- its first entry in the v_e arrays
    v_count integer[];     -- its entries
    v_rows integer[];      -- the distinct accounts it names
    v_guard text[];
    v_guard_in boolean[];  -- its guard is one of its accounts
    v_withdraw bigint[];
    v_shaped boolean;      -- every posting has its amounts and no lock
    -- Every entry of the batch, member by member.
    v_eacct text[];
    v_eamt bigint[];
    v_recs text[];         -- the batch's record ids
    v_stored text[];       -- the ones this call stored
    v_new integer[];       -- each member's new records (0: a retry)
    v_ok boolean[];        -- the member posts
    v_gav bigint[];
    v_glk bigint[];
    v_state text[];
    v_detail text[];
    v_msg text[];
    v_refused text[] := '{}'; -- refused members' records, taken back
    v_events jsonb;
    v_entries integer := 0;
    v_posts integer := 0;
    v_t integer;           -- the records of the members so far
    v_txs integer;         -- the ledger transactions written
    v_e integer;           -- the entries written
    v_rec text;
    k integer;
    g integer;
    drawable bigint;
BEGIN
    SELECT array_agg(jsonb_array_length(x.m -> 'records') ORDER BY x.n),
           array_agg(jsonb_array_length(x.m -> 'post' -> 'accounts') ORDER BY x.n),
           array_agg((SELECT count(DISTINCT a) FROM jsonb_array_elements_text(x.m -> 'post' -> 'accounts') a)::integer ORDER BY x.n),
           array_agg(coalesce(x.m -> 'post' ->> 'guard', '') ORDER BY x.n),
           array_agg((x.m -> 'post' -> 'accounts') ? coalesce(x.m -> 'post' ->> 'guard', '') ORDER BY x.n),
           array_agg(coalesce((x.m -> 'post' ->> 'withdraw')::bigint, 0) ORDER BY x.n),
           bool_and(jsonb_array_length(x.m -> 'post' -> 'accounts') = jsonb_array_length(x.m -> 'post' -> 'amounts')
                    AND NOT jsonb_path_exists(x.m -> 'post' -> 'locks', '$[*] ? (@ != null)'))
    INTO v_total, v_count, v_rows, v_guard, v_guard_in, v_withdraw, v_shaped
    FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS x(m, n);
    IF v_shaped IS NOT TRUE THEN
        RAISE EXCEPTION 'ledger_post_batch_set: a locked entry or a posting out of shape' USING ERRCODE = 'JLB01';
    END IF;
    SELECT array_agg(u.a ORDER BY x.n, u.j), array_agg(v.m::bigint ORDER BY x.n, u.j)
    INTO v_eacct, v_eamt
    FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS x(m, n),
         jsonb_array_elements_text(x.m -> 'post' -> 'accounts') WITH ORDINALITY AS u(a, j)
         JOIN jsonb_array_elements_text(x.m -> 'post' -> 'amounts') WITH ORDINALITY AS v(m, j) USING (j);
    -- A batch the set path declines for its shape writes nothing first.
    v_recs := ARRAY(SELECT r ->> 'id' FROM jsonb_array_elements(p_batch) b, jsonb_array_elements(b -> 'records') r);
    IF (SELECT count(DISTINCT r) FROM unnest(v_recs) r) <> cardinality(v_recs) THEN
        RAISE EXCEPTION 'ledger_post_batch_set: one record in two members' USING ERRCODE = 'JLB01';
    END IF;
    -- Every member's events first, before any balance row is locked: an
    -- event's id is made once per attempt, so no other batch waits for it
    -- or holds it (a batch sent again finds its own stored: it writes
    -- them no second time). A member that posts nothing below (a retry,
    -- or refused) takes back the events this call wrote.
    WITH src AS (
        SELECT x.n, y.k, e.id, e.account_id, e.api_key_id, e.type, e.resource_id, e.data
        FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS x(m, n),
             jsonb_array_elements(x.m -> 'events') WITH ORDINALITY AS y(ev, k),
             jsonb_to_record(y.ev) AS e(id text, account_id text, api_key_id text, type text, resource_id text, data jsonb)),
    ins AS (
        INSERT INTO events (id, account_id, api_key_id, type, resource_id, data)
        SELECT src.id, src.account_id, src.api_key_id, src.type, src.resource_id, src.data
        FROM src ORDER BY src.n, src.k
        ON CONFLICT (id) DO NOTHING
        RETURNING events.id, events.seq, events.account_id, events.api_key_id, events.type,
                  events.resource_id, events.data, events.created_at)
    SELECT jsonb_object_agg(q.n::text, q.evs) INTO v_events
    FROM (SELECT src.n, jsonb_agg(to_jsonb(ins) ORDER BY ins.seq) AS evs
          FROM ins JOIN src ON src.id = ins.id GROUP BY src.n) q;

    -- Now the balance rows, in id order (the one global order of every
    -- batch and lone move), read as they are once locked: a row another
    -- batch held is read as that batch committed it.
    SELECT array_agg(a.id ORDER BY a.id), array_agg(a.balance ORDER BY a.id), array_agg(a.allow_negative ORDER BY a.id),
           array_agg(a.locked_as_of ORDER BY a.id), array_agg(a.locked_total ORDER BY a.id)
    INTO v_ids, v_bal0, v_neg, v_asof, v_locked
    FROM (SELECT l.id, l.balance, l.allow_negative, l.locked_as_of, l.locked_total FROM ledger_accounts l
          WHERE l.id = ANY(v_eacct) ORDER BY l.id FOR UPDATE) a;
    v_bal := v_bal0;
    v_looked := array_fill(false, ARRAY[coalesce(cardinality(v_ids), 0)]);
    v_guarded := v_looked;
    v_touched := v_looked;
    -- Every member's records, under the locks as the each path writes
    -- them: a retry's are stored already (it posts nothing), and an
    -- externalReference taken raises (the each path answers it).
    WITH ins AS (
        INSERT INTO transactions (id, account_id, api_key_id, type, status, amount, fee_amount, net_amount,
            description, external_reference, reference_id, end_to_end_id, copy_paste, subaccount_id, payer,
            recipient, details, expires_at, completed_at, created_at, updated_at)
        SELECT r.id, r.account_id, r.api_key_id, r.type, r.status, r.amount, r.fee_amount, r.net_amount,
            r.description, r.external_reference, r.reference_id, r.end_to_end_id, r.copy_paste, r.subaccount_id,
            r.payer, r.recipient, r.details, r.expires_at, r.completed_at, r.created_at, r.created_at
        FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS x(m, n),
             jsonb_populate_recordset(NULL::transactions, x.m -> 'records') r
        ORDER BY x.n
        ON CONFLICT (id) DO NOTHING
        RETURNING id)
    SELECT coalesce(array_agg(ins.id), '{}') INTO v_stored FROM ins;
    v_new := array_fill(0, ARRAY[v_n]);
    v_ok := array_fill(true, ARRAY[v_n]);
    v_first := array_fill(1, ARRAY[v_n]);
    v_gav := array_fill(NULL::bigint, ARRAY[v_n]);
    v_glk := v_gav;
    v_state := array_fill(NULL::text, ARRAY[v_n]);
    v_detail := v_state;
    v_msg := v_state;
    v_t := 0;
    FOR i IN 1 .. v_n LOOP
        IF i > 1 THEN
            v_first[i] := v_first[i - 1] + v_count[i - 1];
        END IF;
        FOR j IN v_t + 1 .. v_t + v_total[i] LOOP
            IF v_recs[j] = ANY(v_stored) THEN
                v_new[i] := v_new[i] + 1;
            END IF;
        END LOOP;
        v_t := v_t + v_total[i];
    END LOOP;

    v_t := 0;
    FOR i IN 1 .. v_n LOOP
        v_t := v_t + v_total[i];
        IF v_total[i] = 0 THEN
            RAISE EXCEPTION 'ledger_post_batch_set: a member without records' USING ERRCODE = 'JLB01';
        ELSIF v_new[i] = 0 THEN
            v_ok[i] := false; -- a retry: its records exist, it posts nothing
            CONTINUE;
        ELSIF v_new[i] <> v_total[i] THEN
            RAISE EXCEPTION 'ledger_post_batch_set: a member half stored' USING ERRCODE = 'JLB01';
        END IF;
        FOR e IN v_first[i] .. v_first[i] + v_count[i] - 1 LOOP
            IF array_position(v_ids, v_eacct[e]) IS NULL THEN
                RAISE EXCEPTION 'ledger_post_batch_set: an unknown account' USING ERRCODE = 'JLB01';
            END IF;
        END LOOP;
        IF v_guard[i] <> '' THEN
            IF NOT v_guard_in[i] THEN
                RAISE EXCEPTION 'ledger_post_batch_set: a guard outside its posting' USING ERRCODE = 'JLB01';
            END IF;
            g := array_position(v_ids, v_guard[i]);
            IF NOT v_looked[g] THEN
                -- ledger_post's guard: the row's locked money less what
                -- unlocked since its last look.
                v_locked[g] := v_locked[g] - COALESCE((SELECT sum(e.amount) FROM ledger_entries e
                    WHERE e.ledger_account_id = v_ids[g] AND e.locked_until > v_asof[g]
                      AND e.locked_until <= GREATEST(v_asof[g], now())), 0);
                v_asof[g] := GREATEST(v_asof[g], now());
                v_looked[g] := true;
            END IF;
            drawable := GREATEST(v_bal[g] - LEAST(v_locked[g], GREATEST(v_bal[g], 0)), 0);
            IF v_withdraw[i] > 0 AND drawable < v_withdraw[i] THEN
                -- Refused: its records go (the each path's subtransaction
                -- undoes them) and it answers as ledger_post's exception.
                v_refused := v_refused || v_recs[v_t - v_total[i] + 1 : v_t];
                v_ok[i] := false;
                v_new[i] := 0;
                v_state[i] := '23514';
                v_detail[i] := drawable::text;
                v_msg[i] := format('insufficient balance: %s withdrawable, %s needed', drawable, v_withdraw[i]);
                CONTINUE;
            END IF;
            v_gav[i] := v_bal[g];
            v_glk[i] := v_locked[g];
            v_guarded[g] := true;
        END IF;
        FOR e IN v_first[i] .. v_first[i] + v_count[i] - 1 LOOP
            k := array_position(v_ids, v_eacct[e]);
            v_bal[k] := v_bal[k] + v_eamt[e];
            v_touched[k] := true;
        END LOOP;
        FOR e IN v_first[i] .. v_first[i] + v_count[i] - 1 LOOP
            k := array_position(v_ids, v_eacct[e]);
            IF v_bal[k] < 0 AND NOT v_neg[k] THEN
                RAISE EXCEPTION 'ledger_post_batch_set: a balance below zero' USING ERRCODE = 'JLB01';
            END IF;
        END LOOP;
        v_entries := v_entries + v_count[i];
        v_posts := v_posts + 1;
    END LOOP;

    FOREACH v_rec IN ARRAY v_refused LOOP
        DELETE FROM transactions WHERE id = v_rec;
    END LOOP;
    IF v_posts < v_n THEN
        -- Only what this call wrote: a batch sent again finds its
        -- committed events stored already, and leaves them.
        DELETE FROM events e
        WHERE e.id IN (SELECT ev ->> 'id' FROM jsonb_each(v_events) AS x(n, evs), jsonb_array_elements(x.evs) ev
                       WHERE NOT v_ok[x.n::integer]);
    END IF;
    IF v_posts > 0 THEN
        WITH src AS (
            SELECT x.n::integer AS n, x.m -> 'post' AS p
            FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS x(m, n)
            WHERE v_ok[x.n::integer]),
        t AS (
            INSERT INTO ledger_transactions (idempotency_key, account_id, transaction_id, kind, description)
            SELECT src.p ->> 'key', NULLIF(src.p ->> 'account_id', ''), NULLIF(src.p ->> 'transaction_id', ''),
                   src.p ->> 'kind', src.p ->> 'description'
            FROM src ORDER BY src.n
            ON CONFLICT (idempotency_key) DO NOTHING
            RETURNING id, idempotency_key),
        e AS (
            INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount, locked_until)
            SELECT t.id, v_eacct[u.e], v_eamt[u.e], NULL
            FROM src JOIN t ON t.idempotency_key = src.p ->> 'key',
                 generate_series(v_first[src.n], v_first[src.n] + v_count[src.n] - 1) AS u(e)
            ORDER BY u.e
            RETURNING 1)
        SELECT (SELECT count(*) FROM t), (SELECT count(*) FROM e) INTO v_txs, v_e;
        IF v_txs <> v_posts OR v_e <> v_entries THEN
            RAISE EXCEPTION 'ledger_post_batch_set: a posting key taken' USING ERRCODE = 'JLB01';
        END IF;

        -- Every balance row once: what the batch moved on it, and for a row
        -- a guard read, ledger_post's new look at its locked money.
        UPDATE ledger_accounts la SET balance = la.balance + (d.bal - d.bal0),
            locked_total = CASE WHEN d.guarded THEN d.locked ELSE la.locked_total END,
            locked_as_of = CASE WHEN d.guarded THEN d.asof ELSE la.locked_as_of END
        FROM unnest(v_ids, v_bal0, v_bal, v_guarded, v_locked, v_asof, v_touched)
             AS d(id, bal0, bal, guarded, locked, asof, touched)
        WHERE la.id = d.id AND d.touched;
    END IF;

    FOR i IN 1 .. v_n LOOP
        o_member := i - 1;
        o_new := v_new[i];
        o_sqlstate := v_state[i];
        o_constraint := CASE WHEN v_state[i] IS NULL THEN NULL ELSE 'ledger_withdrawable' END;
        o_detail := v_detail[i];
        o_message := v_msg[i];
        o_posted := v_ok[i];
        o_locked_rows := CASE WHEN v_ok[i] THEN v_rows[i] ELSE 0 END;
        o_updated := o_locked_rows;
        o_guard_available := CASE WHEN v_ok[i] THEN v_gav[i] END;
        o_guard_locked := CASE WHEN v_ok[i] THEN v_glk[i] END;
        o_events := CASE WHEN v_ok[i] THEN v_events -> (i::text) END;
        RETURN NEXT;
    END LOOP;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_post_batch(p_batch jsonb)
RETURNS TABLE (o_member integer, o_new integer, o_sqlstate text, o_constraint text, o_detail text,
    o_message text, o_posted boolean, o_locked_rows integer, o_updated integer,
    o_guard_available bigint, o_guard_locked bigint, o_events jsonb)
LANGUAGE plpgsql AS $$
BEGIN
    IF jsonb_array_length(p_batch) > 1 THEN
        BEGIN
            RETURN QUERY SELECT * FROM ledger_post_batch_set(p_batch);
            RETURN;
        EXCEPTION WHEN OTHERS THEN
            NULL; -- nothing of the set path is left: member by member below
        END;
        -- Every balance row the batch names, once, in id order, before
        -- the members take them one by one.
        PERFORM 1 FROM ledger_accounts
        WHERE id IN (SELECT jsonb_array_elements_text(b -> 'post' -> 'accounts') FROM jsonb_array_elements(p_batch) b)
        ORDER BY id FOR UPDATE;
    END IF;
    RETURN QUERY SELECT * FROM ledger_post_batch_each(p_batch);
END;
$$;
-- +goose StatementEnd

-- +goose Down
-- The wrapper locks every row first again; the set path's own lock then
-- finds them held by its transaction and changes nothing.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ledger_post_batch(p_batch jsonb)
RETURNS TABLE (o_member integer, o_new integer, o_sqlstate text, o_constraint text, o_detail text,
    o_message text, o_posted boolean, o_locked_rows integer, o_updated integer,
    o_guard_available bigint, o_guard_locked bigint, o_events jsonb)
LANGUAGE plpgsql AS $$
BEGIN
    IF jsonb_array_length(p_batch) = 1 THEN
        RETURN QUERY SELECT * FROM ledger_post_batch_each(p_batch);
        RETURN;
    END IF;
    PERFORM 1 FROM ledger_accounts
    WHERE id IN (SELECT jsonb_array_elements_text(b -> 'post' -> 'accounts') FROM jsonb_array_elements(p_batch) b)
    ORDER BY id FOR UPDATE;
    BEGIN
        RETURN QUERY SELECT * FROM ledger_post_batch_set(p_batch);
        RETURN;
    EXCEPTION WHEN OTHERS THEN
        NULL;
    END;
    RETURN QUERY SELECT * FROM ledger_post_batch_each(p_batch);
END;
$$;
-- +goose StatementEnd
