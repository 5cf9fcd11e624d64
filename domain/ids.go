package domain

import "github.com/google/uuid"

// Every id Jangada mints comes from here: NewID for a fresh resource, and
// DerivedID for a record that must exist once whoever writes it (a retried
// activity, the API racing its own workflow), so it is computed from what
// it derives from rather than drawn at random.

// NewID is a fresh, time-ordered id (UUID v7) behind an optional prefix
// ("whe_", "evt_"; transactions have none).
func NewID(prefix string) string { return prefix + uuid.Must(uuid.NewV7()).String() }

// DerivedID is the stable id (UUID v5) of name, behind an optional prefix:
// DerivedID("", "split:"+chargeID) is always the same id.
func DerivedID(prefix, name string) string {
	return prefix + uuid.NewSHA1(uuid.NameSpaceURL, []byte(name)).String()
}
