package db

import (
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
	ID                string  `json:"id"`
	AccountID         string  `json:"account_id"`
	APIKeyID          *string `json:"api_key_id"`
	Type              string  `json:"type"`
	Status            string  `json:"status"`
	Amount            int64   `json:"amount"`
	FeeAmount         int64   `json:"fee_amount"`
	NetAmount         int64   `json:"net_amount"`
	Description       string  `json:"description"`
	ExternalReference *string `json:"external_reference"`
	ReferenceID       *string `json:"reference_id"`
	EndToEndID        *string `json:"end_to_end_id"`
	CopyPaste         *string `json:"copy_paste"`
	SubaccountID      *string `json:"subaccount_id"`
	// Payer, Recipient and Details are the jsonb columns' values, encoded
	// with the row (nil is null): encoded apart and embedded as raw JSON,
	// the encoder would read each again to compact it.
	Payer       any        `json:"payer"`
	Recipient   any        `json:"recipient"`
	Details     any        `json:"details"`
	ExpiresAt   *time.Time `json:"expires_at"`
	CompletedAt *time.Time `json:"completed_at"`
	CreatedAt   *time.Time `json:"created_at"`
	// UpdatedAt is CreatedAt: insertTransactionSQL binds both to it.
	UpdatedAt *time.Time `json:"updated_at"`
}

// recordRows makes each record the row insertTransactionSQL would store:
// empty details stored as {} (and set so on ts, as that statement's
// binding does), times in UTC, absent ones and absent JSON null.
func recordRows(ts []domain.Transaction) []recordRow {
	if len(ts) == 0 {
		return nil
	}
	rows := make([]recordRow, len(ts))
	for i := range ts {
		t := &ts[i]
		if !t.Details.Valid {
			t.Details = domain.SomeJSON(domain.Details{})
		}
		created := utcOf(&t.CreatedAt)
		rows[i] = recordRow{ID: t.ID, AccountID: t.AccountID, APIKeyID: t.APIKeyID, Type: t.Type, Status: t.Status,
			Amount: int64(t.Amount), FeeAmount: int64(t.FeeAmount), NetAmount: int64(t.NetAmount), Description: t.Description,
			ExternalReference: t.ExternalReference, ReferenceID: t.ReferenceID, EndToEndID: t.EndToEndID,
			CopyPaste: t.CopyPaste, SubaccountID: t.SubaccountID, Payer: jsonbOf(t.Payer.Valid, t.Payer.V),
			Recipient: jsonbOf(t.Recipient.Valid, t.Recipient.V), Details: t.Details.V,
			ExpiresAt: utcOf(t.ExpiresAt), CompletedAt: utcOf(t.CompletedAt), CreatedAt: created, UpdatedAt: created}
	}
	return rows
}

// jsonbOf is a jsonb column's value: v, or nil (null) when absent.
func jsonbOf[T any](valid bool, v T) any {
	if !valid {
		return nil
	}
	return v
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
