package domain

import "strings"

// Webhook endpoint statuses.
const (
	EndpointActive   = "ACTIVE"
	EndpointDisabled = "DISABLED"
)

// MaxEndpoints bounds the webhook endpoints of one account.
const MaxEndpoints = 16

// EndpointRequest is the body of POST /webhooks/create, PATCH
// /webhooks/update/{id} and the admin API's dashboard endpoint create.
type EndpointRequest struct {
	URL         *string  `json:"url" jsonschema:"required,maxLength=2048"`
	Events      []string `json:"events" jsonschema:"required,minItems=1,maxItems=50,description=event types or patterns (payment.paid, payment.*, *)"`
	Description *string  `json:"description" jsonschema:"maxLength=255"`
	Status      *string  `json:"status"`
}

// EndpointStatuses are an endpoint's status values, read in any case.
var EndpointStatuses = Folded(EndpointActive, EndpointDisabled)

// Enums are the request's closed sets.
func (EndpointRequest) Enums() map[string]Enum { return map[string]Enum{"status": EndpointStatuses} }

// EndpointPatch is a validated endpoint request: nil leaves a field alone.
// Whether the URL may point to a private address is deployment policy,
// checked by the use case (service.Webhooks).
type EndpointPatch struct {
	URL         *string
	Events      []string
	Description *string
	Status      *string
}

// Validate checks a create: url and events are required.
func (b EndpointRequest) Validate() (EndpointPatch, error) { return b.validate(true) }

// ValidatePatch checks an update: only what is sent.
func (b EndpointRequest) ValidatePatch() (EndpointPatch, error) { return b.validate(false) }

func (b EndpointRequest) validate(create bool) (EndpointPatch, error) {
	var p EndpointPatch
	if b.URL != nil || create {
		u, err := Text("url", b.URL, 1, 2048, true)
		if err != nil {
			return p, err
		}
		p.URL = &u
	}
	if b.Events != nil || create {
		evs, err := endpointEvents(b.Events)
		if err != nil {
			return p, err
		}
		p.Events = evs
	}
	if b.Description != nil {
		d, err := Text("description", b.Description, 0, 255, false)
		if err != nil {
			return p, err
		}
		p.Description = &d
	}
	if b.Status != nil {
		st, ok := EndpointStatuses.Match(*b.Status)
		if !ok {
			return p, Invalid("status", "must be %s", EndpointStatuses)
		}
		p.Status = &st
	}
	return p, nil
}

// endpointEvents checks an events list: catalog event types or patterns
// matching at least one ("*", "payment.*"), deduplicated in order.
func endpointEvents(list []string) ([]string, error) {
	if len(list) == 0 {
		return nil, Invalid("events", "must list at least one event type or pattern (such as payment.paid, payment.* or *)")
	}
	if len(list) > 50 {
		return nil, Invalid("events", "must list at most 50 entries")
	}
	seen := map[string]bool{}
	out := []string{}
	for _, e := range list {
		e = strings.TrimSpace(e)
		if !KnownPattern(e) {
			return nil, Invalid("events", "has %q, which is not an event of the catalog nor a pattern matching one", e)
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out, nil
}
