package db

import (
	"database/sql/driver"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// TestRecordRowIsTheNamedInsert holds a member's records to the values
// insertTransactionSQL binds for the same transactions (sqlx's named
// binding, each value through the driver's converter), column by column,
// so that the set path and InsertTransactions store the same row.
func TestRecordRowIsTheNamedInsert(t *testing.T) {
	at := time.Date(2026, 12, 7, 13, 4, 5, 123456000, time.FixedZone("BRT", -3*3600))
	later := domain.NewTime(at.Add(time.Hour))
	s := func(v string) *string { return &v }
	full := domain.Transaction{
		ID: "tx_full", AccountID: "acc_1", APIKeyID: s("key_1"), Type: domain.TypeInternalOut, Status: domain.StatusCompleted,
		Amount: money.Cents(123456), FeeAmount: money.Cents(-7), NetAmount: money.Cents(123449),
		Description: `aspas "duplas", <tags> & acentuação ção \ barra`, ExternalReference: s("ref-1"), ReferenceID: s("ch_1"),
		EndToEndID: s("E123"), CopyPaste: s("000201"), SubaccountID: s("sub_1"),
		Payer:     domain.SomeJSON(domain.Party{Name: "Maria", Document: "52998224725"}),
		Recipient: domain.SomeJSON(domain.Party{Bank: "Jangada", PixKey: "a@b.c"}),
		Details:   domain.SomeJSON(domain.Details{FromChargeID: "ch_9", CoverFee: true, RequestedAmount: 5}),
		ExpiresAt: &later, CompletedAt: &later, CreatedAt: domain.Time{Time: at}, UpdatedAt: later,
	}
	bare := domain.Transaction{ID: "tx_bare", AccountID: "acc_2", Type: domain.TypeInternalIn, Status: domain.StatusPending,
		CompletedAt: &domain.Time{}}
	for name, ts := range map[string][]domain.Transaction{"every column set": {full}, "absent and zero values": {bare},
		"two records": {full, bare}} {
		t.Run(name, func(t *testing.T) {
			want := namedRows(t, append([]domain.Transaction(nil), ts...))
			rows := recordRows(append([]domain.Transaction(nil), ts...))
			if got := asMaps(t, rows); !reflect.DeepEqual(got, want) {
				t.Fatalf("member records\n got %v\nwant %v", got, want)
			}
		})
	}
}

// namedRows is what recordRows must match: each record's parameters of
// insertTransactionSQL by column (updated_at bound to created_at), jsonb
// columns as JSON and text as text, read back as JSON values.
func namedRows(t *testing.T, ts []domain.Transaction) []map[string]any {
	t.Helper()
	_, args, err := insertTransactionsArgs(ts)
	if err != nil {
		t.Fatal(err)
	}
	cols := strings.Split(txColumns, ",")
	if len(args) != len(cols)*len(ts) {
		t.Fatalf("%d parameters for %d records of %d columns", len(args), len(ts), len(cols))
	}
	jsonb := map[string]bool{"payer": true, "recipient": true, "details": true}
	rows := make([]map[string]any, len(ts))
	for i := range ts {
		row := map[string]any{}
		for j, c := range cols {
			c = strings.TrimSpace(c)
			v, err := driver.DefaultParameterConverter.ConvertValue(args[i*len(cols)+j])
			if err != nil {
				t.Fatal(err)
			}
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			if str, ok := v.(string); ok && jsonb[c] {
				v = json.RawMessage(str)
			}
			row[c] = v
		}
		rows[i] = row
	}
	return asMaps(t, rows)
}

// asMaps reads v's JSON back as generic values, so that two encodings
// compare by content.
func asMaps(t *testing.T, v any) []map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
