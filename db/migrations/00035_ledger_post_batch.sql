-- +goose Up
-- ledger_post_batch writes many moves in one statement and one commit (group
-- commit, db.GroupCommit): each member is what db.InsertPosted writes for one
-- request (its records, their events, its posting through ledger_post, the
-- one set of posting rules) and is judged alone. A member runs in a block
-- of its own (a subtransaction), so a refused debit, an externalReference
-- already used or any other error of one member undoes that member only and
-- is answered to its request; the others commit together.
--
-- Every balance row the batch names is locked first, once, in id order:
-- two batches (of this process or another) wait for each other in one
-- global order and cannot deadlock, and two attempts of one request (same
-- ids, same posting key) meet at their sender's balance row before either
-- writes. A member whose records exist already (a retry) writes nothing and
-- posts nothing: its request finds the earlier move.
--
-- p_batch is a JSON array of members: {"records": [transactions rows by
-- column name], "events": [{id, account_id, api_key_id, type, resource_id,
-- data}], "post": {key, account_id, transaction_id, kind, description,
-- accounts, amounts, locks, guard, withdraw}} (ledger_post's parameters).
-- +goose StatementBegin
CREATE FUNCTION ledger_post_batch(p_batch jsonb)
RETURNS TABLE (o_member integer, o_new integer, o_sqlstate text, o_constraint text, o_detail text,
    o_message text, o_posted boolean, o_locked_rows integer, o_updated integer,
    o_guard_available bigint, o_guard_locked bigint, o_events jsonb)
LANGUAGE plpgsql AS $$
DECLARE
    m jsonb;
    p jsonb;
BEGIN
    PERFORM 1 FROM ledger_accounts
    WHERE id IN (SELECT jsonb_array_elements_text(b -> 'post' -> 'accounts') FROM jsonb_array_elements(p_batch) b)
    ORDER BY id FOR UPDATE;
    FOR i IN 0 .. jsonb_array_length(p_batch) - 1 LOOP
        m := p_batch -> i;
        p := m -> 'post';
        o_member := i;
        o_new := 0;
        o_sqlstate := NULL; o_constraint := NULL; o_detail := NULL; o_message := NULL;
        o_posted := false; o_locked_rows := 0; o_updated := 0;
        o_guard_available := NULL; o_guard_locked := NULL; o_events := NULL;
        BEGIN
            INSERT INTO transactions (id, account_id, api_key_id, type, status, amount, fee_amount, net_amount,
                description, external_reference, reference_id, end_to_end_id, copy_paste, subaccount_id, payer,
                recipient, details, expires_at, completed_at, created_at, updated_at)
            SELECT r.id, r.account_id, r.api_key_id, r.type, r.status, r.amount, r.fee_amount, r.net_amount,
                r.description, r.external_reference, r.reference_id, r.end_to_end_id, r.copy_paste, r.subaccount_id,
                r.payer, r.recipient, r.details, r.expires_at, r.completed_at, r.created_at, r.created_at
            FROM jsonb_populate_recordset(NULL::transactions, m -> 'records') r
            ON CONFLICT (id) DO NOTHING;
            GET DIAGNOSTICS o_new = ROW_COUNT;
            IF o_new > 0 THEN
                WITH ins AS (
                    INSERT INTO events (id, account_id, api_key_id, type, resource_id, data)
                    SELECT e.id, e.account_id, e.api_key_id, e.type, e.resource_id, e.data
                    FROM jsonb_array_elements(m -> 'events') WITH ORDINALITY AS x(ev, n),
                         jsonb_to_record(x.ev) AS e(id text, account_id text, api_key_id text, type text, resource_id text, data jsonb)
                    ORDER BY x.n
                    RETURNING events.id, events.seq, events.account_id, events.api_key_id, events.type,
                              events.resource_id, events.data, events.created_at)
                SELECT jsonb_agg(to_jsonb(ins) ORDER BY ins.seq) INTO o_events FROM ins;
                SELECT l.posted, l.locked_rows, l.updated, l.guard_available, l.guard_locked
                INTO o_posted, o_locked_rows, o_updated, o_guard_available, o_guard_locked
                FROM ledger_post(p ->> 'key', p ->> 'account_id', p ->> 'transaction_id', p ->> 'kind',
                    p ->> 'description',
                    ARRAY(SELECT a FROM jsonb_array_elements_text(p -> 'accounts') WITH ORDINALITY AS x(a, n) ORDER BY n),
                    ARRAY(SELECT a::bigint FROM jsonb_array_elements_text(p -> 'amounts') WITH ORDINALITY AS x(a, n) ORDER BY n),
                    ARRAY(SELECT a::timestamptz FROM jsonb_array_elements_text(p -> 'locks') WITH ORDINALITY AS x(a, n) ORDER BY n),
                    p ->> 'guard', (p ->> 'withdraw')::bigint) l;
            END IF;
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS o_sqlstate = RETURNED_SQLSTATE, o_constraint = CONSTRAINT_NAME,
                o_detail = PG_EXCEPTION_DETAIL, o_message = MESSAGE_TEXT;
            o_new := 0; o_posted := false; o_locked_rows := 0; o_updated := 0;
            o_guard_available := NULL; o_guard_locked := NULL; o_events := NULL;
        END;
        RETURN NEXT;
    END LOOP;
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION ledger_post_batch(jsonb);
