package domain

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestChildID(t *testing.T) {
	parent := NewID("cs_")
	child := ChildID("", parent, "charge of "+parent)

	t.Run("stable", func(t *testing.T) {
		if again := ChildID("", parent, "charge of "+parent); again != child {
			t.Fatalf("ChildID changed between calls: %s then %s", child, again)
		}
		if other := ChildID("", parent, "deposit of "+parent); other == child {
			t.Fatalf("two names under one parent gave one id %s", child)
		}
	})

	t.Run("keeps a new parent's time, as a valid v8 UUID", func(t *testing.T) {
		p := uuid.MustParse(strings.TrimPrefix(parent, "cs_"))
		c, err := uuid.Parse(child)
		if err != nil {
			t.Fatalf("child %q is not a UUID: %v", child, err)
		}
		if c.Version() != 8 || c.Variant() != uuid.RFC4122 {
			t.Fatalf("child %s: version %d variant %v, want 8 and RFC 4122", child, c.Version(), c.Variant())
		}
		if string(c[:6]) != string(p[:6]) {
			t.Fatalf("child %s does not start with parent %s's time", child, parent)
		}
	})

	t.Run("children sort as their parents were made", func(t *testing.T) {
		var parents, children []string
		ms := time.Now().UnixMilli()
		for i := int64(0); i < 3; i++ {
			u := uuid.Must(uuid.NewV7())
			at := ms + i // parents made a millisecond apart
			for b := 5; b >= 0; b-- {
				u[b], at = byte(at), at>>8
			}
			p := u.String()
			parents = append(parents, p)
			children = append(children, ChildID("bil_", p, "billing charge "+p))
		}
		if !sort.StringsAreSorted(children) {
			t.Fatalf("children of parents made in order %v are not in order: %v", parents, children)
		}
	})

	t.Run("any other parent gives DerivedID", func(t *testing.T) {
		for _, p := range []string{DerivedID("cs_", "an idempotency key"), "not-a-uuid", "", "pix_" + uuid.NewString()} {
			if got, want := ChildID("x_", p, "name"), DerivedID("x_", "name"); got != want {
				t.Errorf("ChildID under %q = %s, want DerivedID's %s (ids made before ChildID stay)", p, got, want)
			}
		}
	})
}
