package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
)

// MED disputes (issue 25): the dispute is a transactions row of type MED;
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
func InsertEvidenceFiles(ctx context.Context, tx *sqlx.Tx, medID string, files []domain.EvidenceContent) error {
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
func EvidenceFiles(ctx context.Context, q sqlx.QueryerContext, medID string) ([]domain.EvidenceContent, error) {
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
	out := make([]domain.EvidenceContent, len(rows))
	for i, r := range rows {
		out[i] = domain.EvidenceContent{EvidenceFile: domain.EvidenceFile{Name: r.Name, ContentType: r.ContentType, Size: r.Size,
			SHA256: r.SHA256}, Bytes: r.Content}
	}
	return out, nil
}
