package schedule

import (
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/pixkey"
)

// Record is the public scheduled transfer of the specification.
type Record struct {
	ID            string      `json:"id"`
	Label         string      `json:"label"`
	Amount        money.Cents `json:"amount"`
	Method        string      `json:"method"`
	Destination   string      `json:"destination"`
	TriggerType   string      `json:"triggerType"`
	ScheduleLabel string      `json:"scheduleLabel"`
	NextRunAt     string      `json:"nextRunAt"`
	LastRunAt     *string     `json:"lastRunAt,omitempty"`
	RunCount      int         `json:"runCount"`
	Status        string      `json:"status"`
	CoverFee      bool        `json:"coverFee"`
	// Extras beyond the specification's fields (consumers ignore unknown fields).
	MaxRuns     int         `json:"maxRuns,omitempty"`
	Description string      `json:"description,omitempty"`
	LastError   string      `json:"lastError,omitempty"`
	CreatedAt   domain.Time `json:"createdAt"`
	// Run is the run that run-now just made; only on that answer.
	Run *RunResult `json:"run,omitempty"`
}

// MethodLabels are a record's method values, as people read them
// (MethodLabel of each payload method).
var MethodLabels = []string{MethodLabel(MethodPix), MethodLabel(MethodInternal), MethodLabel(MethodCrypto)}

// Enums are the record's closed sets: its trigger type in lower case.
func (Record) Enums() map[string]domain.Enum {
	lower := make([]string, len(Triggers.Values))
	for i, t := range Triggers.Values {
		lower[i] = strings.ToLower(t)
	}
	return map[string]domain.Enum{"method": domain.Exact(MethodLabels...), "triggerType": domain.Exact(lower...), "status": Statuses}
}

// RunResult is one run's outcome: the transfer it created.
type RunResult struct {
	RunNumber     int         `json:"runNumber"`
	TransactionID string      `json:"transactionId"`
	Type          string      `json:"type"`
	Status        string      `json:"status"`
	Amount        money.Cents `json:"amount"`
}

// Dash is nextRunAt when no run is planned.
const Dash = "-"

// Public renders the record; no account or key ids leave the service.
func (s Schedule) Public() Record {
	r := Record{
		ID: s.ID, Label: s.Label, Amount: s.Payload.Amount, Method: MethodLabel(s.Payload.Method),
		Destination: s.Payload.Destination(), TriggerType: strings.ToLower(s.Trigger), ScheduleLabel: s.ScheduleLabel(),
		NextRunAt: Dash, RunCount: s.RunCount, Status: s.Status, CoverFee: s.Payload.CoverFee,
		MaxRuns: s.MaxRuns, Description: s.Payload.Description, LastError: s.LastError, CreatedAt: domain.NewTime(s.CreatedAt),
	}
	if s.NextRunAt != nil && !s.Closed() {
		r.NextRunAt = iso(*s.NextRunAt)
	}
	if s.LastRunAt != nil {
		v := iso(*s.LastRunAt)
		r.LastRunAt = &v
	}
	return r
}

func iso(t time.Time) string { return domain.NewTime(t).ISO() }

// MethodLabel is the payload method as people read it.
func MethodLabel(m string) string {
	switch m {
	case MethodPix:
		return "PIX"
	case MethodInternal:
		return "Transferência interna"
	case MethodCrypto:
		return "Cripto"
	}
	return m
}

// Destination is the masked destination: the PIX key as receipts show it,
// the recipient's e-mail with most of its local part hidden, or the
// currency and the ends of a crypto address (what a wallet shows to tell
// addresses apart).
func (p Payload) Destination() string {
	switch p.Method {
	case MethodPix:
		return pixkey.Mask(pixkey.Type(p.PixKeyType), p.PixKey)
	case MethodInternal:
		return pixkey.Mask(pixkey.EMAIL, p.RecipientEmail)
	case MethodCrypto:
		if a := p.Address; len(a) > 10 {
			return p.PayCurrency + " " + a[:6] + "…" + a[len(a)-4:]
		}
	}
	return "***"
}
