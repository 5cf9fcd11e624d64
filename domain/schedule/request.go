package schedule

import (
	"errors"
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/money"
)

// RuleRequest is a recurrence rule as a request gives it.
type RuleRequest struct {
	Interval   *string `json:"interval"`
	Time       *string `json:"time"`
	Timezone   *string `json:"timezone"`
	DayOfWeek  *int    `json:"dayOfWeek"`
	DayOfMonth *int    `json:"dayOfMonth"`
	CustomDays *int    `json:"customDays"`
}

func (b *RuleRequest) rule() (*Rule, error) {
	r := Rule{DayOfWeek: b.DayOfWeek, DayOfMonth: b.DayOfMonth, CustomDays: b.CustomDays}
	if b.Interval == nil {
		return nil, domain.Invalid("recurrenceRule.interval", "is required (daily, weekly, monthly or custom_days)")
	}
	if b.Time == nil {
		return nil, domain.Invalid("recurrenceRule.time", "is required (local time HH:MM)")
	}
	r.Interval, _ = Intervals.Match(*b.Interval)
	r.Time = strings.TrimSpace(*b.Time)
	if b.Timezone != nil {
		r.Timezone = strings.TrimSpace(*b.Timezone)
	}
	if err := r.Validate("recurrenceRule."); err != nil {
		return nil, err
	}
	return &r, nil
}

// PayloadRequest is the transfer a schedule runs, as a request gives it.
type PayloadRequest struct {
	Method         *string      `json:"method" jsonschema:"description=pix_padrao: a PIX out (pixKey and pixKeyType); interna: an internal transfer (recipientEmail); cripto: a crypto withdrawal quoted and sent at each run (address and payCurrency; needs the account's crypto feature)"`
	Amount         *money.Cents `json:"amount"`
	Description    *string      `json:"description"`
	CoverFee       *bool        `json:"coverFee"`
	PixKey         *string      `json:"pixKey"`
	PixKeyType     *string      `json:"pixKeyType"`
	SubaccountID   *string      `json:"subaccountId"`
	RecipientEmail *string      `json:"recipientEmail"`
	Address        *string      `json:"address" jsonschema:"description=cripto: the destination address of payCurrency"`
	PayCurrency    *string      `json:"payCurrency" jsonschema:"description=cripto: BTC, ETH, USDT or XRP"`
	ExtraID        *string      `json:"extraId" jsonschema:"description=cripto: the destination tag (required for XRP)"`
	PixRail        any          `json:"pixRail" jsonschema:"-"`
}

// Enums are the payload's closed sets.
func (PayloadRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"method": Methods, "pixKeyType": domain.PixKeyTypes, "payCurrency": crypto.CurrencyEnum}
}

// Enums are the rule's closed sets.
func (RuleRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"interval": Intervals}
}

// Enums are the create's closed sets (the payload's and the rule's are
// their own types').
func (CreateRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"triggerType": Triggers}
}

// Enums are the update's closed sets.
func (UpdateRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": UpdateStatuses}
}

// payload validates a run's transfer with the very rules of
// /transfer-pix/create, /transfer-internal/create and
// /transfer-crypto-auto/create, so that a schedule cannot hold a transfer
// the API would refuse.
func (b *PayloadRequest) payload() (Payload, error) {
	var p Payload
	if b.Method == nil {
		return p, domain.Invalid("payload.method", "is required (pix_padrao, interna or cripto)")
	}
	p.Method, _ = Methods.Match(*b.Method)
	switch p.Method {
	case MethodPix:
		n, err := domain.TransferRequest{Amount: b.Amount, Description: b.Description, PixKey: b.PixKey, PixKeyType: b.PixKeyType,
			CoverFee: b.CoverFee, SubaccountID: b.SubaccountID, PixRail: b.PixRail}.Validate()
		if err != nil {
			return p, inPayload(err)
		}
		p.Amount, p.Description, p.CoverFee, p.PixKey, p.PixKeyType = n.Amount, n.Description, n.CoverFee, n.PixKey, n.PixKeyType
		p.SubaccountID = n.SubaccountID
	case MethodInternal:
		n, err := domain.InternalRequest{Amount: b.Amount, RecipientEmail: b.RecipientEmail, Description: b.Description}.Validate()
		if err != nil {
			return p, inPayload(err)
		}
		p.Amount, p.Description, p.RecipientEmail = n.Amount, n.Description, n.RecipientEmail
		p.CoverFee = b.CoverFee != nil && *b.CoverFee
	case MethodCrypto:
		if b.SubaccountID != nil {
			// A crypto withdrawal leaves the main account's withdrawable
			// money; no sub-account has a crypto balance to debit.
			return p, domain.Invalid("payload.subaccountId", "applies only to pix_padrao: crypto withdrawals leave the main account")
		}
		n, err := crypto.CryptoWithdrawalRequest{Address: b.Address, PayCurrency: b.PayCurrency, Amount: b.Amount,
			ExtraID: b.ExtraID, Description: b.Description}.Validate()
		if err != nil {
			return p, inPayload(err)
		}
		p.Amount, p.Description, p.Address, p.PayCurrency, p.ExtraID = n.Amount, n.Description, n.Address, n.Currency.Code, n.ExtraID
		p.CoverFee = b.CoverFee != nil && *b.CoverFee
	default:
		return p, domain.Invalid("payload.method", "must be %s", Methods)
	}
	return p, nil
}

// inPayload prefixes a field error of the transfer rules with "payload.".
func inPayload(err error) error {
	var de *domain.Error
	if errors.As(err, &de) && errors.Is(err, domain.ErrInvalid) {
		return &domain.Error{Kind: de.Kind, Message: "payload." + de.Message}
	}
	return err
}

// CreateRequest is the body of POST /transfer-scheduled/create.
type CreateRequest struct {
	TriggerType      *string         `json:"triggerType"`
	ScheduledAt      *string         `json:"scheduledAt"`
	RecurrenceRule   *RuleRequest    `json:"recurrenceRule"`
	BalanceThreshold *money.Cents    `json:"balanceThreshold"`
	MaxRuns          *int            `json:"maxRuns"`
	Label            *string         `json:"label"`
	Payload          *PayloadRequest `json:"payload"`
}

// NewSchedule is a validated create request.
type NewSchedule struct {
	// IdempotencyKey is the request's Idempotency-Key header, set by the
	// handler: the resource's id is derived from it, so that a retry after
	// an ambiguous failure converges on the first attempt's resource.
	IdempotencyKey string
	// CreatedFrom is the caller's address, set by the handler.
	CreatedFrom string
	Label       string
	Trigger     string
	At          *time.Time
	Rule        *Rule
	Threshold   money.Cents
	MaxRuns     int
	Payload     Payload
}

// Validate checks the request now.
func (b CreateRequest) Validate() (NewSchedule, error) { return b.ValidateAt(time.Now()) }

// ValidateAt checks the request as of now (scheduledAt must lie after it).
func (b CreateRequest) ValidateAt(now time.Time) (NewSchedule, error) {
	var n NewSchedule
	if b.TriggerType == nil {
		return n, domain.Invalid("triggerType", "is required (ONCE, RECURRING or BALANCE_THRESHOLD)")
	}
	n.Trigger, _ = Triggers.Match(*b.TriggerType)
	switch n.Trigger {
	case Once:
		at, err := futureTime("scheduledAt", b.ScheduledAt, now, true)
		if err != nil {
			return n, err
		}
		n.At = at
	case Recurring:
		if b.RecurrenceRule == nil {
			return n, domain.Invalid("recurrenceRule", "is required with triggerType RECURRING")
		}
		r, err := b.RecurrenceRule.rule()
		if err != nil {
			return n, err
		}
		n.Rule = r
	case BalanceThreshold:
		th, err := threshold(b.BalanceThreshold, true)
		if err != nil {
			return n, err
		}
		n.Threshold = th
	default:
		return n, domain.Invalid("triggerType", "must be %s", Triggers)
	}
	var err error
	if n.MaxRuns, err = maxRuns(b.MaxRuns); err != nil {
		return n, err
	}
	if n.Label, err = domain.Text("label", b.Label, 0, MaxLabel, false); err != nil {
		return n, err
	}
	if b.Payload == nil {
		return n, domain.Invalid("payload", "is required")
	}
	n.Payload, err = b.Payload.payload()
	return n, err
}

// futureTime parses an ISO 8601 instant that must lie ahead.
func futureTime(field string, v *string, now time.Time, required bool) (*time.Time, error) {
	if v == nil {
		if required {
			return nil, domain.Invalid(field, "is required (ISO 8601, in the future)")
		}
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(*v))
	if err != nil {
		return nil, domain.Invalid(field, "must be an ISO 8601 date-time with a time zone, e.g. 2026-03-15T09:00:00-03:00")
	}
	if !t.After(now) {
		return nil, domain.Invalid(field, "must be in the future")
	}
	t = t.UTC()
	return &t, nil
}

func threshold(v *money.Cents, required bool) (money.Cents, error) {
	if v == nil {
		if required {
			return 0, domain.Invalid("balanceThreshold", "is required with triggerType BALANCE_THRESHOLD")
		}
		return 0, nil
	}
	if *v < 1 || *v > 100_000_000_000 {
		return 0, domain.Invalid("balanceThreshold", "must be a positive amount in BRL")
	}
	return *v, nil
}

func maxRuns(v *int) (int, error) {
	if v == nil {
		return 0, nil
	}
	if *v < 1 || *v > MaxRunsLimit {
		return 0, domain.Invalid("maxRuns", "must be an integer from 1 to %d", MaxRunsLimit)
	}
	return *v, nil
}

// UpdateRequest is the body of PATCH /transfer-scheduled/update/{id}.
type UpdateRequest struct {
	Status           *string      `json:"status"`
	ScheduledAt      *string      `json:"scheduledAt"`
	RecurrenceRule   *RuleRequest `json:"recurrenceRule"`
	BalanceThreshold *money.Cents `json:"balanceThreshold"`
	MaxRuns          *int         `json:"maxRuns"`
	Label            *string      `json:"label"`
	Payload          any          `json:"payload"`
	TriggerType      any          `json:"triggerType"`
}

// Validate checks the patch now.
func (b UpdateRequest) Validate() (Patch, error) { return b.ValidateAt(time.Now()) }

// ValidateAt checks the patch as of now (scheduledAt must lie after it).
func (b UpdateRequest) ValidateAt(now time.Time) (Patch, error) {
	var p Patch
	if b.Payload != nil {
		return p, domain.Invalid("payload", "cannot change: cancel the schedule and create a new one")
	}
	if b.TriggerType != nil {
		return p, domain.Invalid("triggerType", "cannot change: cancel the schedule and create a new one")
	}
	if b.Status == nil && b.ScheduledAt == nil && b.RecurrenceRule == nil && b.BalanceThreshold == nil && b.MaxRuns == nil && b.Label == nil {
		return p, domain.Invalidf("send at least one of status, scheduledAt, recurrenceRule, balanceThreshold, maxRuns, label")
	}
	if b.Status != nil {
		v, ok := UpdateStatuses.Match(*b.Status)
		if !ok {
			return p, domain.Invalid("status", "must be %s", UpdateStatuses)
		}
		st := strings.ToLower(v) // the record's status: active or paused
		p.Status = &st
	}
	var err error
	if p.At, err = futureTime("scheduledAt", b.ScheduledAt, now, false); err != nil {
		return p, err
	}
	if b.RecurrenceRule != nil {
		if p.Rule, err = b.RecurrenceRule.rule(); err != nil {
			return p, err
		}
	}
	if b.BalanceThreshold != nil {
		th, err := threshold(b.BalanceThreshold, true)
		if err != nil {
			return p, err
		}
		p.Threshold = &th
	}
	if b.MaxRuns != nil {
		n, err := maxRuns(b.MaxRuns)
		if err != nil {
			return p, err
		}
		p.MaxRuns = &n
	}
	if b.Label != nil {
		l, err := domain.Text("label", b.Label, 0, MaxLabel, false)
		if err != nil {
			return p, err
		}
		p.Label = &l
	}
	return p, nil
}

// CheckPatch refuses a patch that does not apply to the schedule as it
// stands: fields of another trigger, a maxRuns not above the runs made (the
// request's own rules, such as scheduledAt in the future, are
// UpdateRequest.Validate's). The API checks it before asking the workflow,
// and the workflow again against its own state.
func (sc Schedule) CheckPatch(p Patch) error {
	if p.At != nil && sc.Trigger != Once {
		return domain.Invalid("scheduledAt", "applies only to ONCE schedules")
	}
	if p.Rule != nil && sc.Trigger != Recurring {
		return domain.Invalid("recurrenceRule", "applies only to RECURRING schedules")
	}
	if p.Threshold != nil && sc.Trigger != BalanceThreshold {
		return domain.Invalid("balanceThreshold", "applies only to BALANCE_THRESHOLD schedules")
	}
	if p.MaxRuns != nil && *p.MaxRuns <= sc.RunCount {
		return domain.Invalid("maxRuns", "must be greater than the %d runs made so far", sc.RunCount)
	}
	return nil
}
