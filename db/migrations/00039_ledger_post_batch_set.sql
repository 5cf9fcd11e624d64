-- +goose Up
-- ledger_post_batch writes a batch's rows a table at a time. Until now each
-- member ran alone, in a subtransaction of its own: two records, two
-- events, its ledger transaction, its entries and one update of every
-- balance row it names, each statement started once per member, with the
-- balance trigger fired once per row per member. Under load a move cost
-- PostgreSQL about 1.9 ms of CPU, most of it in statements that write one
-- row each.
--
-- ledger_post_batch_set judges the members in order from the balance rows
-- the batch locked (read after the lock, each member seeing what the ones
-- before it moved), then writes every accepted member's records, events,
-- ledger transactions and entries in one statement per table, and every
-- balance row it changed once. It takes the common batch only: every
-- member new or a whole retry (all of its records stored, nothing else to
-- do), no two members with one record id, every account known, no entry
-- locked, every guard one of its member's accounts, no balance that must
-- stay non-negative taken below zero on the way, no refused member with a
-- unique reference (whose answer would be that reference's conflict). For any other batch, or
-- any error at all (an externalReference already used, a posting key
-- already taken), it raises and ledger_post_batch rolls it back and runs
-- the batch member by member as before (ledger_post_batch_each, the old
-- body unchanged). A refused debit is judged here with ledger_post's rule
-- and answered exactly as ledger_post's exception is (the same SQLSTATE,
-- constraint, detail and message); TestSetBatchAnswersAsEachMember holds
-- the two paths to the same answers and the same rows.
-- +goose StatementBegin
ALTER FUNCTION ledger_post_batch(jsonb) RENAME TO ledger_post_batch_each;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION ledger_post_batch_set(p_batch jsonb)
RETURNS TABLE (o_member integer, o_new integer, o_sqlstate text, o_constraint text, o_detail text,
    o_message text, o_posted boolean, o_locked_rows integer, o_updated integer,
    o_guard_available bigint, o_guard_locked bigint, o_events jsonb)
LANGUAGE plpgsql AS $$
DECLARE
    v_n integer := jsonb_array_length(p_batch);
    v_ids text[];          -- the accounts the batch names, by id
    v_bal0 bigint[];       -- their balances as read under the lock
    v_bal bigint[];        -- their running balances
    v_neg boolean[];       -- allow_negative
    v_asof timestamptz[];  -- locked_as_of, moved to now() by a guard
    v_locked bigint[];     -- locked_total, less what a guard released
    v_looked boolean[];    -- a guard read this row's locked money
    v_guarded boolean[];   -- an accepted member's guard read it
    v_touched boolean[];   -- an accepted member posts on it
    v_recs text[];         -- the batch's record ids
    v_stored text[];       -- the batch's record ids stored by this call
    v_new integer[];       -- each member's new records (0: a retry)
    v_ok boolean[];        -- the member posts
    v_gav bigint[];
    v_glk bigint[];
    v_rows integer[];      -- distinct accounts a member names
    v_state text[];
    v_detail text[];
    v_msg text[];
    v_events jsonb;
    v_total integer;
    v_dups integer;
    v_count integer;
    v_entries integer := 0;
    v_posts integer := 0;
    v_refused text[] := '{}'; -- refused members' records, taken back
    v_rec text;
    m jsonb;
    p jsonb;
    accts text[];
    amts bigint[];
    k integer;
    g integer;
    w bigint;
    drawable bigint;
BEGIN
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_batch) b, jsonb_array_elements(b -> 'post' -> 'locks') l
               WHERE l <> 'null'::jsonb) THEN
        RAISE EXCEPTION 'ledger_post_batch_set: a locked entry' USING ERRCODE = 'JLB01';
    END IF;
    SELECT array_agg(a.id ORDER BY a.id), array_agg(a.balance ORDER BY a.id), array_agg(a.allow_negative ORDER BY a.id),
           array_agg(a.locked_as_of ORDER BY a.id), array_agg(a.locked_total ORDER BY a.id)
    INTO v_ids, v_bal0, v_neg, v_asof, v_locked
    FROM ledger_accounts a
    WHERE a.id IN (SELECT jsonb_array_elements_text(b -> 'post' -> 'accounts') FROM jsonb_array_elements(p_batch) b);
    v_bal := v_bal0;
    v_looked := array_fill(false, ARRAY[coalesce(array_length(v_ids, 1), 0)]);
    v_guarded := v_looked;
    v_touched := v_looked;
    -- Every member's records first, as the each path writes them: a
    -- retry's are stored already (it posts nothing), and an
    -- externalReference taken raises (the each path answers it).
    v_recs := ARRAY(SELECT r ->> 'id' FROM jsonb_array_elements(p_batch) b, jsonb_array_elements(b -> 'records') r);
    IF (SELECT count(DISTINCT r) FROM unnest(v_recs) r) <> cardinality(v_recs) THEN
        RAISE EXCEPTION 'ledger_post_batch_set: one record in two members' USING ERRCODE = 'JLB01';
    END IF;
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
    SELECT array_agg(c.stored ORDER BY c.n) INTO v_new
    FROM (SELECT x.n, count(*) FILTER (WHERE r ->> 'id' = ANY(v_stored))::integer AS stored
          FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS x(m, n)
               LEFT JOIN LATERAL jsonb_array_elements(x.m -> 'records') r ON true
          GROUP BY x.n) c;
    v_ok := array_fill(true, ARRAY[v_n]);
    v_gav := array_fill(NULL::bigint, ARRAY[v_n]);
    v_glk := v_gav;
    v_rows := array_fill(0, ARRAY[v_n]);
    v_state := array_fill(NULL::text, ARRAY[v_n]);
    v_detail := v_state;
    v_msg := v_state;
    FOR i IN 1 .. v_n LOOP
        m := p_batch -> (i - 1);
        p := m -> 'post';
        v_total := jsonb_array_length(m -> 'records');
        IF v_total = 0 THEN
            RAISE EXCEPTION 'ledger_post_batch_set: a member without records' USING ERRCODE = 'JLB01';
        END IF;
        IF v_new[i] = 0 THEN
            v_ok[i] := false; -- a retry: its records exist, it posts nothing
            CONTINUE;
        ELSIF v_new[i] <> v_total THEN
            RAISE EXCEPTION 'ledger_post_batch_set: a member half stored' USING ERRCODE = 'JLB01';
        END IF;
        accts := ARRAY(SELECT jsonb_array_elements_text(p -> 'accounts'));
        amts := ARRAY(SELECT a::bigint FROM jsonb_array_elements_text(p -> 'amounts') AS x(a));
        IF array_length(accts, 1) IS DISTINCT FROM array_length(amts, 1)
           OR EXISTS (SELECT 1 FROM unnest(accts) a WHERE array_position(v_ids, a) IS NULL) THEN
            RAISE EXCEPTION 'ledger_post_batch_set: an unknown account' USING ERRCODE = 'JLB01';
        END IF;
        v_rows[i] := (SELECT count(DISTINCT a) FROM unnest(accts) a);
        IF coalesce(p ->> 'guard', '') <> '' THEN
            g := array_position(accts, p ->> 'guard');
            IF g IS NULL THEN
                RAISE EXCEPTION 'ledger_post_batch_set: a guard outside its posting' USING ERRCODE = 'JLB01';
            END IF;
            g := array_position(v_ids, p ->> 'guard');
            IF NOT v_looked[g] THEN
                -- ledger_post's guard: the row's locked money less what
                -- unlocked since its last look.
                v_locked[g] := v_locked[g] - COALESCE((SELECT sum(e.amount) FROM ledger_entries e
                    WHERE e.ledger_account_id = v_ids[g] AND e.locked_until > v_asof[g]
                      AND e.locked_until <= GREATEST(v_asof[g], now())), 0);
                v_asof[g] := GREATEST(v_asof[g], now());
                v_looked[g] := true;
            END IF;
            v_gav[i] := v_bal[g];
            v_glk[i] := v_locked[g];
            w := (p ->> 'withdraw')::bigint;
            drawable := GREATEST(v_bal[g] - LEAST(v_locked[g], GREATEST(v_bal[g], 0)), 0);
            IF w > 0 AND drawable < w THEN
                -- Its records go (the each path's subtransaction undoes them).
                v_refused := v_refused || ARRAY(SELECT r ->> 'id' FROM jsonb_array_elements(m -> 'records') r);
                v_ok[i] := false;
                v_new[i] := 0;
                v_gav[i] := NULL;
                v_glk[i] := NULL;
                v_rows[i] := 0;
                v_state[i] := '23514';
                v_detail[i] := drawable::text;
                v_msg[i] := format('insufficient balance: %s withdrawable, %s needed', drawable, w);
                CONTINUE;
            END IF;
            v_guarded[g] := true;
        END IF;
        FOR j IN 1 .. array_length(accts, 1) LOOP
            k := array_position(v_ids, accts[j]);
            v_bal[k] := v_bal[k] + amts[j];
            v_touched[k] := true;
        END LOOP;
        IF EXISTS (SELECT 1 FROM unnest(v_bal, v_neg) AS b(bal, neg) WHERE bal < 0 AND NOT neg) THEN
            RAISE EXCEPTION 'ledger_post_batch_set: a balance below zero' USING ERRCODE = 'JLB01';
        END IF;
        v_entries := v_entries + array_length(accts, 1);
        v_posts := v_posts + 1;
    END LOOP;

    FOREACH v_rec IN ARRAY v_refused LOOP
        DELETE FROM transactions WHERE id = v_rec;
    END LOOP;
    IF v_posts > 0 THEN
        WITH src AS (
            SELECT x.n, y.k, e.id, e.account_id, e.api_key_id, e.type, e.resource_id, e.data
            FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS x(m, n),
                 jsonb_array_elements(x.m -> 'events') WITH ORDINALITY AS y(ev, k),
                 jsonb_to_record(y.ev) AS e(id text, account_id text, api_key_id text, type text, resource_id text, data jsonb)
            WHERE v_ok[x.n::integer]),
        ins AS (
            INSERT INTO events (id, account_id, api_key_id, type, resource_id, data)
            SELECT src.id, src.account_id, src.api_key_id, src.type, src.resource_id, src.data
            FROM src ORDER BY src.n, src.k
            RETURNING events.id, events.seq, events.account_id, events.api_key_id, events.type,
                      events.resource_id, events.data, events.created_at)
        SELECT jsonb_object_agg(q.n::text, q.evs) INTO v_events
        FROM (SELECT src.n, jsonb_agg(to_jsonb(ins) ORDER BY ins.seq) AS evs
              FROM ins JOIN src ON src.id = ins.id GROUP BY src.n) q;

        WITH src AS (
            SELECT x.n, x.m -> 'post' AS p
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
            SELECT t.id, u.a, v.m::bigint, NULL
            FROM src JOIN t ON t.idempotency_key = src.p ->> 'key',
                 jsonb_array_elements_text(src.p -> 'accounts') WITH ORDINALITY AS u(a, j)
                 JOIN jsonb_array_elements_text(src.p -> 'amounts') WITH ORDINALITY AS v(m, j) USING (j)
            ORDER BY src.n, j
            RETURNING 1)
        SELECT (SELECT count(*) FROM t), (SELECT count(*) FROM e) INTO v_count, v_dups;
        IF v_count <> v_posts OR v_dups <> v_entries THEN
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
CREATE FUNCTION ledger_post_batch(p_batch jsonb)
RETURNS TABLE (o_member integer, o_new integer, o_sqlstate text, o_constraint text, o_detail text,
    o_message text, o_posted boolean, o_locked_rows integer, o_updated integer,
    o_guard_available bigint, o_guard_locked bigint, o_events jsonb)
LANGUAGE plpgsql AS $$
BEGIN
    -- Every balance row the batch names, once, in id order (the one global
    -- order of every batch and lone move), before either path reads them.
    PERFORM 1 FROM ledger_accounts
    WHERE id IN (SELECT jsonb_array_elements_text(b -> 'post' -> 'accounts') FROM jsonb_array_elements(p_batch) b)
    ORDER BY id FOR UPDATE;
    IF jsonb_array_length(p_batch) = 1 THEN
        -- One member: its own statements are as few, without the set
        -- path's subtransaction (a lone move, a sub-account move's posting).
        RETURN QUERY SELECT * FROM ledger_post_batch_each(p_batch);
        RETURN;
    END IF;
    BEGIN
        RETURN QUERY SELECT * FROM ledger_post_batch_set(p_batch);
        RETURN;
    EXCEPTION WHEN OTHERS THEN
        NULL; -- nothing of the set path is left: member by member below
    END;
    RETURN QUERY SELECT * FROM ledger_post_batch_each(p_batch);
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION ledger_post_batch(jsonb);
DROP FUNCTION ledger_post_batch_set(jsonb);
ALTER FUNCTION ledger_post_batch_each(jsonb) RENAME TO ledger_post_batch;
