package db

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/jangada/jangada/domain"
)

// recordRow is one transactions row as ledger_post_batch reads a member's
// records (jsonb_populate_recordset, by column name): the values
// insertTransactionSQL binds, written by a struct encoder. A map of
// driver values went through sqlx's named binding, the parameter
// converter and a sorted-key map encoder for every move; this type is
// encoded in one pass and holds the same JSON (TestRecordRowIsTheNamedInsert).
type recordRow struct {
	ID                string          `json:"id"`
	AccountID         string          `json:"account_id"`
	APIKeyID          *string         `json:"api_key_id"`
	Type              string          `json:"type"`
	Status            string          `json:"status"`
	Amount            int64           `json:"amount"`
	FeeAmount         int64           `json:"fee_amount"`
	NetAmount         int64           `json:"net_amount"`
	Description       string          `json:"description"`
	ExternalReference *string         `json:"external_reference"`
	ReferenceID       *string         `json:"reference_id"`
	EndToEndID        *string         `json:"end_to_end_id"`
	CopyPaste         *string         `json:"copy_paste"`
	SubaccountID      *string         `json:"subaccount_id"`
	Payer             json.RawMessage `json:"payer"`
	Recipient         json.RawMessage `json:"recipient"`
	Details           json.RawMessage `json:"details"`
	ExpiresAt         *time.Time      `json:"expires_at"`
	CompletedAt       *time.Time      `json:"completed_at"`
	CreatedAt         *time.Time      `json:"created_at"`
	// UpdatedAt is CreatedAt: insertTransactionSQL binds both to it.
	UpdatedAt *time.Time `json:"updated_at"`
}

// recordRows makes each record the row insertTransactionSQL would store:
// empty details stored as {} (and set so on ts, as that statement's
// binding does), times in UTC, absent ones and absent JSON null.
func recordRows(ts []domain.Transaction) ([]recordRow, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	rows := make([]recordRow, len(ts))
	for i := range ts {
		t := &ts[i]
		if !t.Details.Valid {
			t.Details = domain.SomeJSON(domain.Details{})
		}
		payer, err := jsonbOf(t.Payer.Valid, t.Payer.V)
		if err != nil {
			return nil, err
		}
		recipient, err := jsonbOf(t.Recipient.Valid, t.Recipient.V)
		if err != nil {
			return nil, err
		}
		details, err := jsonbOf(true, t.Details.V)
		if err != nil {
			return nil, err
		}
		created := utcOf(&t.CreatedAt)
		rows[i] = recordRow{ID: t.ID, AccountID: t.AccountID, APIKeyID: t.APIKeyID, Type: t.Type, Status: t.Status,
			Amount: int64(t.Amount), FeeAmount: int64(t.FeeAmount), NetAmount: int64(t.NetAmount), Description: t.Description,
			ExternalReference: t.ExternalReference, ReferenceID: t.ReferenceID, EndToEndID: t.EndToEndID,
			CopyPaste: t.CopyPaste, SubaccountID: t.SubaccountID, Payer: payer, Recipient: recipient, Details: details,
			ExpiresAt: utcOf(t.ExpiresAt), CompletedAt: utcOf(t.CompletedAt), CreatedAt: created, UpdatedAt: created}
	}
	return rows, nil
}

// jsonbOf is a jsonb column's value: v's JSON, or null when absent.
func jsonbOf(valid bool, v any) (json.RawMessage, error) {
	if !valid {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("db: post batch: record: %w", err)
	}
	return b, nil
}

// utcOf is a time column's value as domain.Time's Valuer gives it: UTC,
// or null when absent or zero.
func utcOf(t *domain.Time) *time.Time {
	if t == nil || t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}
