package db_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
)

// BenchmarkBarePostBatch is the floor under BenchmarkPostBatch: the rows a
// batch of internal transfers writes (per move two records, two events, a
// ledger transaction and two entries, and the two balance rows updated),
// on the same tables and indexes, written the cheapest way a client can:
// typed arrays unnested by one INSERT per table, one round trip, one
// commit. It judges nothing (no withdrawable check, no retry found, no key
// taken), so what BenchmarkPostBatch costs above it is the judgement and
// the way the batch reaches the rows; what it costs itself is the rows.
//   - pgx: prepared, binary arrays, the statements pipelined up to one
//     Sync, the balance updates first in id order (they take the locks);
//   - pq: the driver the product runs on, prepared, text arrays, the
//     statements as the data-modifying parts of one statement (floorAll).
//
// Both run with synchronous_commit off, as the package's shared database
// where BenchmarkPostBatch runs: they differ by their statements, not by
// the disk. ns/op is per move.
func BenchmarkBarePostBatch(b *testing.B) {
	for _, driver := range []string{"pgx", "pq"} {
		for _, size := range []int{8, 16} {
			b.Run(fmt.Sprintf("%s/moves=%d", driver, size), func(b *testing.B) {
				ctx := b.Context()
				migrated, url := dbtest.NewWithURL(b)
				if _, err := migrated.ExecContext(ctx, `DO $$ BEGIN
					EXECUTE format('ALTER DATABASE %I SET synchronous_commit = off', current_database()); END $$`); err != nil {
					b.Fatal(err)
				}
				// Both pools connect after the ALTER, so every session has it.
				d, err := sqlx.Open("postgres", url)
				if err != nil {
					b.Fatal(err)
				}
				defer d.Close()
				cfg, err := pgxpool.ParseConfig(url)
				if err != nil {
					b.Fatal(err)
				}
				cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
				pool, err := pgxpool.NewWithConfig(ctx, cfg)
				if err != nil {
					b.Fatal(err)
				}
				defer pool.Close()
				ids := floorAccounts(b, d)
				pqStmt, err := d.PrepareContext(ctx, floorAll) // the product's hot statements are prepared too
				if err != nil {
					b.Fatal(err)
				}
				defer pqStmt.Close()
				seq := 0
				b.ResetTimer()
				for done := 0; done < b.N; done += size {
					rows := floorRowsOf(ids, &seq, min(size, b.N-done))
					if driver == "pgx" {
						err = rows.sendPgx(ctx, pool)
					} else {
						err = rows.sendPq(ctx, pqStmt)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// floorAccounts opens the two accounts the moves run between, with money
// for every move.
func floorAccounts(b *testing.B, d *sqlx.DB) [2]string {
	var ids [2]string
	for i := range ids {
		tag := domain.NewID("")
		a, err := db.CreateAccount(b.Context(), d, domain.Account{ID: "acc_floor" + tag, Name: "Loja Bench",
			Email: "floor-" + tag + "@example.com", Document: "52998224725", Status: domain.AccountActive,
			Features: domain.DefaultFeatures(), Fees: domain.DefaultFees(), PixKey: domain.NewID("")})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = a.ID
	}
	if _, err := d.ExecContext(b.Context(), `UPDATE ledger_accounts SET balance = 1000000000 WHERE id = ANY($1)`,
		pq.Array([]string{domain.AvailableLedger(ids[0]), domain.AvailableLedger(ids[1])})); err != nil {
		b.Fatal(err)
	}
	return ids
}

// floorRows are n moves' rows as typed arrays, one per column.
type floorRows struct {
	accounts                            [2]string
	moved                               [2]int64
	now                                 time.Time
	recID, recAcct, recType, recDetails []string
	evID, evAcct, evType, evRes, evData []string
	key, txAcct, txRec                  []string
	eKey, eAcct                         []string
	eAmt                                []int64
}

// floorRowsOf makes n internal transfers between the two accounts, both
// directions.
func floorRowsOf(ids [2]string, seq *int, n int) *floorRows {
	r := &floorRows{now: time.Now().UTC()}
	for i := range ids {
		r.accounts[i] = domain.AvailableLedger(ids[i])
	}
	for range n {
		*seq++
		from, to := 0, 1
		if *seq%2 == 0 {
			from, to = 1, 0
		}
		out, in := domain.NewID("txn_"), domain.NewID("txn_")
		r.recID, r.recAcct = append(r.recID, out, in), append(r.recAcct, ids[from], ids[to])
		r.recType = append(r.recType, domain.TypeInternalOut, domain.TypeInternalIn)
		r.recDetails = append(r.recDetails, fmt.Sprintf(`{"counterpartyId":%q,"recipientName":"Maria"}`, ids[to]), `{}`)
		r.evID, r.evAcct = append(r.evID, domain.NewID("evt_"), domain.NewID("evt_")), append(r.evAcct, ids[from], ids[to])
		r.evType = append(r.evType, domain.EventInternalCompleted, domain.EventInternalReceived)
		r.evRes = append(r.evRes, out, in)
		r.evData = append(r.evData, fmt.Sprintf(`{"id":%q}`, out), fmt.Sprintf(`{"id":%q}`, in))
		k := "floor:" + out
		r.key, r.txAcct, r.txRec = append(r.key, k), append(r.txAcct, ids[from]), append(r.txRec, out)
		r.eKey = append(r.eKey, k, k)
		r.eAcct = append(r.eAcct, r.accounts[from], r.accounts[to])
		r.eAmt = append(r.eAmt, -1, 1)
		r.moved[from]--
		r.moved[to]++
	}
	return r
}

// The floor's statements as pgx pipelines them (floorAll is the same writes
// as one statement, for lib/pq).
const (
	floorBalance = `UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1`
	floorRecords = `INSERT INTO transactions (id, account_id, type, status, amount, net_amount, description, details,
			completed_at, created_at, updated_at)
		SELECT r.id, r.acct, r.type, 'COMPLETED', 1, 1, '', r.details, $5, $5, $5
		FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[]) AS r(id, acct, type, details)`
	floorEvents = `INSERT INTO events (id, account_id, type, resource_id, data)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[])`
	floorLedger = `WITH t AS (
			INSERT INTO ledger_transactions (idempotency_key, account_id, transaction_id, kind)
			SELECT k, a, r, 'INTERNAL_OUT' FROM unnest($1::text[], $2::text[], $3::text[]) AS x(k, a, r)
			RETURNING id, idempotency_key)
		INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount)
		SELECT t.id, e.acct, e.amt FROM unnest($4::text[], $5::text[], $6::bigint[]) AS e(k, acct, amt)
		JOIN t ON t.idempotency_key = e.k`
)

// sendPgx writes the rows as one pipelined transaction.
func (r *floorRows) sendPgx(ctx context.Context, pool *pgxpool.Pool) error {
	b := &pgx.Batch{}
	b.Queue(floorBalance, r.accounts[0], r.moved[0])
	b.Queue(floorBalance, r.accounts[1], r.moved[1])
	b.Queue(floorRecords, r.recID, r.recAcct, r.recType, r.recDetails, r.now)
	b.Queue(floorEvents, r.evID, r.evAcct, r.evType, r.evRes, r.evData)
	b.Queue(floorLedger, r.key, r.txAcct, r.txRec, r.eKey, r.eAcct, r.eAmt)
	return pool.SendBatch(ctx, b).Close()
}

// floorAll is the floor's statements as the data-modifying parts of one
// statement (the balances as one UPDATE over both rows), for lib/pq,
// which sends one statement a round trip.
const floorAll = `WITH bal AS (
		UPDATE ledger_accounts l SET balance = l.balance + m.amt
		FROM unnest($1::text[], $2::bigint[]) AS m(id, amt) WHERE l.id = m.id RETURNING 1),
	rec AS (
		INSERT INTO transactions (id, account_id, type, status, amount, net_amount, description, details,
			completed_at, created_at, updated_at)
		SELECT r.id, r.acct, r.type, 'COMPLETED', 1, 1, '', r.details, $7, $7, $7
		FROM unnest($3::text[], $4::text[], $5::text[], $6::jsonb[]) AS r(id, acct, type, details) RETURNING 1),
	ev AS (
		INSERT INTO events (id, account_id, type, resource_id, data)
		SELECT * FROM unnest($8::text[], $9::text[], $10::text[], $11::text[], $12::jsonb[]) RETURNING 1),
	t AS (
		INSERT INTO ledger_transactions (idempotency_key, account_id, transaction_id, kind)
		SELECT k, a, r, 'INTERNAL_OUT' FROM unnest($13::text[], $14::text[], $15::text[]) AS x(k, a, r)
		RETURNING id, idempotency_key)
	INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount)
	SELECT t.id, e.acct, e.amt FROM unnest($16::text[], $17::text[], $18::bigint[]) AS e(k, acct, amt)
	JOIN t ON t.idempotency_key = e.k`

// sendPq writes the rows through floorAll, prepared.
func (r *floorRows) sendPq(ctx context.Context, stmt *sql.Stmt) error {
	_, err := stmt.ExecContext(ctx,
		pq.Array(r.accounts[:]), pq.Array(r.moved[:]),
		pq.Array(r.recID), pq.Array(r.recAcct), pq.Array(r.recType), pq.Array(r.recDetails), r.now,
		pq.Array(r.evID), pq.Array(r.evAcct), pq.Array(r.evType), pq.Array(r.evRes), pq.Array(r.evData),
		pq.Array(r.key), pq.Array(r.txAcct), pq.Array(r.txRec),
		pq.Array(r.eKey), pq.Array(r.eAcct), pq.Array(r.eAmt))
	return err
}
