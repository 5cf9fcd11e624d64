package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/money"
)

// MED disputes: the dispute is a transactions row of type MED;
// these are its lookups by the processor's names, its evidence files and
// the main account's locked ledger account.

// EnsureLockedLedger creates the ledger account id (an account's MED
// block, "<accountId>:locked", kind "locked") if it does not exist yet:
// accounts get it with their first dispute. A sub-account's is made with
// the sub-account.
func EnsureLockedLedger(ctx context.Context, tx *sqlx.Tx, id, accountID string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO ledger_accounts (id, account_id, kind) VALUES ($1, $2, 'locked')
		ON CONFLICT (id) DO NOTHING`, id, accountID)
	if err != nil {
		return fmt.Errorf("db: ensure locked ledger: %w", err)
	}
	return nil
}

// LockedFor is what the postings of record transactionID (their
// transaction_id) left on ledgerAccount locked until about until, and the
// lock date they carry: for a received PIX, what its wallet really
// received locked for it (the charge's net less the split credited to its
// partner, less the fee its owner took from it under the same lock date,
// as a PIX billing's notification fee). A MED block takes this much with
// this lock date, no more: the ledger says it, whatever formula priced the
// deposit. until is the deposit's paid time plus its lock; the entries are
// looked for within a second of it, since the paid time and the entries'
// lock dates reach PostgreSQL by paths that may round its last microsecond
// differently, through the locked index (account, lock date), so the read
// costs the few entries of that second. No entry: 0 and no date.
func LockedFor(ctx context.Context, q sqlx.QueryerContext, ledgerAccount, transactionID string, until time.Time) (money.Cents, *time.Time, error) {
	var row struct {
		Sum   money.Cents `db:"sum"`
		Until *time.Time  `db:"until"`
	}
	err := sqlx.GetContext(ctx, q, &row, `SELECT coalesce(sum(e.amount), 0) AS sum, min(e.locked_until) AS until
		FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.ledger_transaction_id
		WHERE e.ledger_account_id = $1 AND t.transaction_id = $2
		  AND e.locked_until BETWEEN $3::timestamptz - interval '1 second' AND $3::timestamptz + interval '1 second'`,
		ledgerAccount, transactionID, until)
	if err != nil {
		return 0, nil, fmt.Errorf("db: locked for %s: %w", transactionID, err)
	}
	return row.Sum, row.Until, nil
}

// LockedPosted is the sum of the entries the posting with key wrote on
// ledgerAccount with a lock date, and that date (0 and none when it was
// never posted or locked nothing): a MED release gives back exactly the
// locked money its hold took, under the same date.
func LockedPosted(ctx context.Context, q sqlx.QueryerContext, ledgerAccount, key string) (money.Cents, *time.Time, error) {
	var row struct {
		Sum   money.Cents `db:"sum"`
		Until *time.Time  `db:"until"`
	}
	err := sqlx.GetContext(ctx, q, &row, `SELECT coalesce(sum(e.amount), 0) AS sum, min(e.locked_until) AS until
		FROM ledger_transactions t JOIN ledger_entries e ON e.ledger_transaction_id = t.id
		WHERE t.idempotency_key = $2 AND e.ledger_account_id = $1 AND e.locked_until IS NOT NULL`, ledgerAccount, key)
	if err != nil {
		return 0, nil, fmt.Errorf("db: locked by posting %s: %w", key, err)
	}
	return row.Sum, row.Until, nil
}

// DepositByEndToEnd finds the received PIX with endToEndId e2e, whatever
// its account (the processor names a disputed PIX by it), locking it when
// forUpdate.
func DepositByEndToEnd(ctx context.Context, q sqlx.QueryerContext, e2e string, forUpdate bool) (domain.Transaction, error) {
	lock := ""
	if forUpdate {
		lock = " FOR UPDATE"
	}
	var t domain.Transaction
	err := sqlx.GetContext(ctx, q, &t, `SELECT `+txColumns+` FROM transactions WHERE end_to_end_id = $1 AND type = $2 LIMIT 1`+lock,
		e2e, domain.TypePixIn)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.NotFound("deposit")
	}
	if err != nil {
		return t, fmt.Errorf("db: deposit by endToEndId: %w", err)
	}
	return t, nil
}

// MEDByInfraction finds the dispute the processor names by its infraction id.
func MEDByInfraction(ctx context.Context, q sqlx.QueryerContext, infractionID string) (domain.Transaction, error) {
	var t domain.Transaction
	err := sqlx.GetContext(ctx, q, &t, `SELECT `+txColumns+` FROM transactions WHERE reference_id = $1 AND type = $2`,
		infractionID, domain.TypeMED)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.NotFound("MED")
	}
	if err != nil {
		return t, fmt.Errorf("db: MED by infraction: %w", err)
	}
	return t, nil
}

// InsertEvidenceFiles stores a dispute's evidence files by content hash;
// a file the dispute already has is stored once.
func InsertEvidenceFiles(ctx context.Context, tx *sqlx.Tx, medID string, files []med.EvidenceContent) error {
	for _, f := range files {
		_, err := tx.ExecContext(ctx, `INSERT INTO med_evidence_files (med_id, sha256, name, content_type, size, content)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (med_id, sha256) DO NOTHING`,
			medID, f.SHA256, f.Name, f.ContentType, f.Size, f.Bytes)
		if err != nil {
			return fmt.Errorf("db: insert evidence file: %w", err)
		}
	}
	return nil
}

// EvidenceFiles loads a dispute's stored evidence files, bytes included
// (for the processor), in hash order.
func EvidenceFiles(ctx context.Context, q sqlx.QueryerContext, medID string) ([]med.EvidenceContent, error) {
	var rows []struct {
		SHA256      string `db:"sha256"`
		Name        string `db:"name"`
		ContentType string `db:"content_type"`
		Size        int    `db:"size"`
		Content     []byte `db:"content"`
	}
	err := sqlx.SelectContext(ctx, q, &rows, `SELECT sha256, name, content_type, size, content FROM med_evidence_files
		WHERE med_id = $1 ORDER BY sha256`, medID)
	if err != nil {
		return nil, fmt.Errorf("db: evidence files: %w", err)
	}
	out := make([]med.EvidenceContent, len(rows))
	for i, r := range rows {
		out[i] = med.EvidenceContent{EvidenceFile: domain.EvidenceFile{Name: r.Name, ContentType: r.ContentType, Size: r.Size,
			SHA256: r.SHA256}, Bytes: r.Content}
	}
	return out, nil
}
