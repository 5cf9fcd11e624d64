package domain

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// Scan implements sql.Scanner.
func (j *JSONB[T]) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*j = JSONB[T]{}
		return nil
	case []byte:
		j.Valid = true
		return json.Unmarshal(v, &j.V)
	case string:
		j.Valid = true
		return json.Unmarshal([]byte(v), &j.V)
	}
	return fmt.Errorf("domain.JSONB: cannot scan %T", src)
}

// Value implements driver.Valuer.
func (j JSONB[T]) Value() (driver.Value, error) {
	if !j.Valid {
		return nil, nil
	}
	// A string, not []byte: the database connection sends []byte in
	// binary format (db.Open), which jsonb does not take as JSON text.
	b, err := json.Marshal(j.V)
	return string(b), err
}

// ScanList reads a jsonb array into a named slice type (IDList,
// Deliveries): NULL reads as an empty list, never nil, so the record's
// view writes [] rather than null.
func ScanList[T any](src any, dst *[]T, name string) error {
	var raw []byte
	switch v := src.(type) {
	case nil:
		*dst = []T{}
		return nil
	case []byte:
		raw = v
	case string:
		raw = []byte(v)
	default:
		return fmt.Errorf("domain.%s: cannot scan %T", name, src)
	}
	return json.Unmarshal(raw, dst)
}

// ListValue writes a named slice type as a jsonb array (a nil list as [];
// as text: jsonb takes no binary JSON, see JSONB.Value).
func ListValue[T any](l []T) (driver.Value, error) {
	if l == nil {
		l = []T{}
	}
	b, err := json.Marshal(l)
	return string(b), err
}
