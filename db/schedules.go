package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
)

// ScheduleBalanceChannel is the NOTIFY channel on which a committed change
// of an available balance names an account with open threshold schedules
// (trigger of migration 00004).
const ScheduleBalanceChannel = "schedule_balance"

// LockScheduleQuota serialises, per account, the transactions that may add
// an active schedule (create, resume) until tx ends, so that the limit of
// active schedules holds under concurrent requests. An advisory lock, not a
// row lock on accounts: that would also block every insert referencing the
// account (foreign keys take KEY SHARE).
func LockScheduleQuota(ctx context.Context, tx *sqlx.Tx, accountID string) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('schedules:' || $1))`, accountID); err != nil {
		return fmt.Errorf("db: lock schedule quota: %w", err)
	}
	return nil
}

// CountActiveSchedules counts the account's active schedules, except one.
func CountActiveSchedules(ctx context.Context, q sqlx.QueryerContext, accountID, exceptID string) (int, error) {
	var n int
	err := sqlx.GetContext(ctx, q, &n, `
		SELECT count(*) FROM scheduled_transfers WHERE account_id = $1 AND status = 'active' AND id <> $2`,
		accountID, exceptID)
	if err != nil {
		return 0, fmt.Errorf("db: count schedules: %w", err)
	}
	return n, nil
}

// InsertSchedule stores a new schedule; an existing id writes nothing (the
// workflow's safety net and the API may both try).
func InsertSchedule(ctx context.Context, ex sqlx.ExecerContext, s schedule.Schedule) error {
	doc, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = ex.ExecContext(ctx, `
		INSERT INTO scheduled_transfers (id, account_id, api_key_id, trigger_type, status, doc, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
		s.ID, s.AccountID, s.APIKeyID, s.Trigger, s.Status, string(doc), s.CreatedAt)
	if err != nil {
		return fmt.Errorf("db: insert schedule: %w", err)
	}
	return nil
}

// SaveSchedule writes the workflow's view of the schedule over the row.
func SaveSchedule(ctx context.Context, ex sqlx.ExecerContext, s schedule.Schedule) error {
	doc, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = ex.ExecContext(ctx, `UPDATE scheduled_transfers SET status = $2, doc = $3, updated_at = now() WHERE id = $1`,
		s.ID, s.Status, string(doc))
	if err != nil {
		return fmt.Errorf("db: save schedule: %w", err)
	}
	return nil
}

// GetSchedule loads one of the account's schedules; another account's id is
// not found. An empty accountID loads any account's (workflow side).
func GetSchedule(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (schedule.Schedule, error) {
	var doc []byte
	err := sqlx.GetContext(ctx, q, &doc, `
		SELECT doc FROM scheduled_transfers WHERE id = $1 AND ($2 = '' OR account_id = $2)`, id, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return schedule.Schedule{}, domain.NotFound("scheduled transfer")
	}
	if err != nil {
		return schedule.Schedule{}, fmt.Errorf("db: get schedule: %w", err)
	}
	var s schedule.Schedule
	return s, json.Unmarshal(doc, &s)
}

// ListSchedules loads a page of the account's schedules, newest first, and
// how many there are.
func ListSchedules(ctx context.Context, q sqlx.QueryerContext, accountID string, page, pageSize int) ([]schedule.Schedule, int, error) {
	docs, total, err := listPage[[]byte](ctx, q, "schedules", "doc", "scheduled_transfers", "account_id = $1", []any{accountID}, page, pageSize)
	if err != nil {
		return nil, 0, err
	}
	out := make([]schedule.Schedule, len(docs))
	for i, d := range docs {
		if err := json.Unmarshal(d, &out[i]); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// ThresholdScheduleIDs lists the ids of the open balance-threshold
// schedules of the given accounts (all accounts when accountID is empty).
func ThresholdScheduleIDs(ctx context.Context, q sqlx.QueryerContext, accountID string) ([]string, error) {
	var ids []string
	err := sqlx.SelectContext(ctx, q, &ids, `
		SELECT id FROM scheduled_transfers
		WHERE trigger_type = 'BALANCE_THRESHOLD' AND status IN ('active', 'paused') AND ($1 = '' OR account_id = $1)`, accountID)
	if err != nil {
		return nil, fmt.Errorf("db: threshold schedules: %w", err)
	}
	return ids, nil
}

// KeyByID loads an API key by id, revoked or not (a schedule keeps running
// with the key that created it; see docs/schedules.md).
func KeyByID(ctx context.Context, q sqlx.QueryerContext, id string) (domain.APIKey, error) {
	var row keyRow
	err := sqlx.GetContext(ctx, q, &row, `SELECT `+keyColumns+` FROM api_keys WHERE id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.APIKey{}, domain.NotFound("API key")
	}
	if err != nil {
		return domain.APIKey{}, fmt.Errorf("db: get key: %w", err)
	}
	return row.key(), nil
}
