// Package schedule holds the pure rules of scheduled transfers: triggers,
// recurrence rules and their next run in a time zone, the Portuguese label
// of a rule, and the public record with its masked destination. It does no
// I/O, so that the schedule workflow can compute its timers from it
// deterministically.
package schedule

import (
	"time"

	// Embedded zone data: the next run of a rule must not depend on the
	// host's zoneinfo (CI images and distroless containers have none).
	_ "time/tzdata"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Trigger types as the API receives them.
const (
	Once             = "ONCE"
	Recurring        = "RECURRING"
	BalanceThreshold = "BALANCE_THRESHOLD"
)

// Statuses of a schedule. Completed and failed are closed for good.
const (
	StatusActive    = "active"
	StatusPaused    = "paused"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// Payload methods.
const (
	MethodPix      = "pix_padrao"
	MethodInternal = "interna"
	MethodCrypto   = "cripto"
)

// The closed sets of a schedule's fields: what its requests' Validate
// reads (in any case) and its record shows.
var (
	// Triggers are the create's triggerType values.
	Triggers = domain.Folded(Once, Recurring, BalanceThreshold)
	// Intervals are a recurrence rule's interval values.
	Intervals = domain.Folded(Daily, Weekly, Monthly, CustomDays)
	// Methods are a payload's method values.
	Methods = domain.Folded(MethodPix, MethodInternal, MethodCrypto)
	// UpdateStatuses are what an update's status may ask for.
	UpdateStatuses = domain.Folded("ACTIVE", "PAUSED")
	// Statuses are a record's status values.
	Statuses = domain.Exact(StatusActive, StatusPaused, StatusCompleted, StatusFailed)
)

// Limits of the specification.
const (
	MaxActivePerAccount = 20
	MaxRunsLimit        = 9999
	MaxLabel            = 120
	// MaxConsecutiveFailures closes a schedule as failed: after this many
	// automatic runs in a row failed, the merchant must look at it.
	MaxConsecutiveFailures = 3
)

// DefaultTimezone is where a rule's local time is read when none is given.
const DefaultTimezone = "America/Sao_Paulo"

// Payload is what each run sends. It never changes after creation.
type Payload struct {
	Method         string      `json:"method"`
	Amount         money.Cents `json:"amount"`
	Description    string      `json:"description,omitempty"`
	CoverFee       bool        `json:"coverFee"`
	PixKey         string      `json:"pixKey,omitempty"`
	PixKeyType     string      `json:"pixKeyType,omitempty"`
	RecipientEmail string      `json:"recipientEmail,omitempty"`
	// SubaccountID debits each run's PIX out from that sub-account, under
	// its lock mode and limits as they stand at run time.
	SubaccountID string `json:"subaccountId,omitempty"`
	// Address, PayCurrency and ExtraID are a cripto run's destination: each
	// run quotes the amount in that currency at the rate of the moment.
	Address     string `json:"address,omitempty"`
	PayCurrency string `json:"payCurrency,omitempty"`
	ExtraID     string `json:"extraId,omitempty"`
}

// Schedule is a stored scheduled transfer: its definition (trigger and
// payload), what may change (label, timing, maxRuns, status) and the run
// counters the workflow keeps in sync.
type Schedule struct {
	ID        string      `json:"id"`
	AccountID string      `json:"accountId"`
	APIKeyID  string      `json:"apiKeyId"`
	Label     string      `json:"label"`
	Trigger   string      `json:"trigger"`
	At        *time.Time  `json:"scheduledAt,omitempty"`
	Rule      *Rule       `json:"rule,omitempty"`
	Threshold money.Cents `json:"threshold,omitempty"`
	MaxRuns   int         `json:"maxRuns,omitempty"`
	Payload   Payload     `json:"payload"`
	Status    string      `json:"status"`
	NextRunAt *time.Time  `json:"nextRunAt,omitempty"`
	LastRunAt *time.Time  `json:"lastRunAt,omitempty"`
	RunCount  int         `json:"runCount"`
	Failures  int         `json:"failures"`
	LastError string      `json:"lastError,omitempty"`
	CreatedAt time.Time   `json:"createdAt"`
	// CreatedFrom is the client address the schedule was created from: each
	// run acts for the key from there, so the key's allowlist must still
	// admit it at run time. Internal: never in the public record.
	CreatedFrom string `json:"createdFrom,omitempty"`
}

// Permission is the key permission a run of this payload needs: the
// permission of the create route it stands for.
func (p Payload) Permission() string {
	switch p.Method {
	case MethodInternal:
		return "transfer-internal/create"
	case MethodCrypto:
		// Each run quotes and sends in one step, as that route does.
		return "transfer-crypto-auto/create"
	}
	return "transfer-pix/create"
}

// Feature is the account feature a run of this payload needs, or "" when
// the product is open to every account.
func (p Payload) Feature() string {
	if p.Method == MethodCrypto {
		return domain.FeatureCrypto
	}
	return ""
}

// ActsFor checks that key may make the runs of a schedule created from
// address from, as the key stands now: not revoked, holding the payload's
// permission, and its allowlist still admitting from.
func ActsFor(key domain.APIKey, p Payload, from string) error {
	switch {
	case key.RevokedAt != nil:
		return domain.Forbidden("the API key that created this schedule was revoked")
	case !key.Allows(p.Permission()):
		return domain.Forbidden("the API key of this schedule does not have permission %s", p.Permission())
	case from != "" && !key.AllowsIP(from):
		return domain.Forbidden("the API key of this schedule no longer allows requests from %s", from)
	}
	return nil
}

// Closed reports whether the schedule can no longer change.
func (s Schedule) Closed() bool { return s.Status == StatusCompleted || s.Status == StatusFailed }

// Next is when the schedule runs next, strictly after after, or nil when
// no timer drives it (a threshold schedule, or a one-off that already ran).
// A one-off whose time has passed without running runs at once (after).
func (s Schedule) Next(after time.Time) *time.Time {
	switch s.Trigger {
	case Once:
		if s.RunCount > 0 || s.At == nil {
			return nil
		}
		t := *s.At
		if t.Before(after) {
			t = after
		}
		return &t
	case Recurring:
		if s.Rule == nil {
			return nil
		}
		t := s.Rule.Next(after, s.CreatedAt)
		return &t
	}
	return nil
}

// Patch is a validated update: nil fields stay as they are.
type Patch struct {
	Status    *string      `json:"status,omitempty"`
	At        *time.Time   `json:"scheduledAt,omitempty"`
	Rule      *Rule        `json:"rule,omitempty"`
	Threshold *money.Cents `json:"threshold,omitempty"`
	MaxRuns   *int         `json:"maxRuns,omitempty"`
	Label     *string      `json:"label,omitempty"`
}

// Apply returns s with the patch applied.
func (p Patch) Apply(s Schedule) Schedule {
	if p.Status != nil {
		s.Status = *p.Status
	}
	if p.At != nil {
		t := *p.At
		s.At = &t
	}
	if p.Rule != nil {
		r := *p.Rule
		s.Rule = &r
	}
	if p.Threshold != nil {
		s.Threshold = *p.Threshold
	}
	if p.MaxRuns != nil {
		s.MaxRuns = *p.MaxRuns
	}
	if p.Label != nil {
		s.Label = *p.Label
	}
	return s
}
