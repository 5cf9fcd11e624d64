package domain

import (
	"strings"

	"github.com/google/uuid"
)

// Every id Jangada mints comes from here: NewID for a fresh resource, and
// DerivedID (or ChildID) for a record that must exist once whoever writes it
// (a retried activity, the API racing its own workflow), so it is computed
// from what it derives from rather than drawn at random.

// NewID is a fresh, time-ordered id (UUID v7) behind an optional prefix
// ("whe_", "evt_"; transactions have none).
func NewID(prefix string) string { return prefix + uuid.Must(uuid.NewV7()).String() }

// DerivedID is the stable id (UUID v5) of name, behind an optional prefix:
// DerivedID("", "split:"+chargeID) is always the same id.
func DerivedID(prefix, name string) string {
	return prefix + uuid.NewSHA1(uuid.NameSpaceURL, []byte(name)).String()
}

// ChildID is the stable id of name, a record made for parent (a checkout
// session's charge, a PIX billing's). When parent is time-ordered (a NewID)
// the child keeps parent's 48-bit creation time in front of name's hash
// (the UUID v8 layout of RFC 9562): every index that holds children (the
// transactions' and events' in PostgreSQL, Temporal's visibility by
// workflow id and resource) then takes each new one beside the last, as it
// does for their parents, instead of at a random leaf. Any other parent
// gives DerivedID(prefix, name), the id such children always had, so an id
// computed before this rule is computed the same after it.
func ChildID(prefix, parent, name string) string {
	id := uuid.NewSHA1(uuid.NameSpaceURL, []byte(name))
	p, err := uuid.Parse(parent[strings.LastIndexByte(parent, '_')+1:])
	if err != nil || p.Version() != 7 {
		return prefix + id.String()
	}
	copy(id[:6], p[:6])
	id[6] = id[6]&0x0f | 0x80 // version 8; NewSHA1 set the variant
	return prefix + id.String()
}
