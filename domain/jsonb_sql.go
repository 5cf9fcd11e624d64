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
