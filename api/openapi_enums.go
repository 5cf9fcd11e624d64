package api

import (
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/domain/subaccount"
)

// A field's enum in the document is the domain's own list (domain.Enum),
// read from the type's Enums: the list its Validate checks, or its
// builder writes. Each value is listed once, in its canonical case; a set
// the server also reads in another case says so in the description.

var enumeratedType = reflect.TypeFor[domain.Enumerated]()

// enumsOf answers a struct type's sets by JSON field name (nil: none).
func enumsOf(t reflect.Type) map[string]domain.Enum {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	if sets, ok := sharedEnums[t]; ok {
		return sets
	}
	switch {
	case t.Implements(enumeratedType):
		return reflect.Zero(t).Interface().(domain.Enumerated).Enums()
	case reflect.PointerTo(t).Implements(enumeratedType):
		return reflect.New(t).Interface().(domain.Enumerated).Enums()
	}
	return nil
}

// transactionTypes and transactionStatuses are what a transaction record
// may say: each product writes its own types and statuses into the one
// transactions table (a MED's and a PIX automatic instruction's statuses
// beside the PIX ones), so the union is taken here, where every product's
// package may be named.
var (
	transactionTypes = domain.Union(domain.TransactionTypes, subaccount.MoveTypes,
		[]string{billing.TypeBilling, billing.TypeBillingRefund})
	transactionStatuses = domain.Union(domain.Statuses, med.MedStatuses, pixauto.InstructionStatuses)
	payCurrencies       = domain.Exact(crypto.CurrencyEnum.Values...)
	transactionEnums    = map[string]domain.Enum{"type": transactionTypes, "status": transactionStatuses,
		"pixKeyType": domain.Exact(domain.PixKeyTypes.Values...), "payCurrency": payCurrencies}
	webhookEnums = map[string]domain.Enum{"status": domain.Exact(domain.EndpointStatuses.Values...),
		"scope": domain.Exact(scopeKey, scopeAccount)}
)

// sharedEnums are the sets of the answer types that several products
// share (a transaction), and of the api's own answer types.
var sharedEnums = map[reflect.Type]map[string]domain.Enum{
	reflect.TypeFor[domain.PublicTransaction](): transactionEnums,
	reflect.TypeFor[domain.Lean]():              {"status": transactionStatuses},
	reflect.TypeFor[schedule.RunResult]():       transactionEnums,
	reflect.TypeFor[chargeCreated]():            {"status": transactionStatuses},
	reflect.TypeFor[domain.PublicRefund]():      {"status": domain.Exact(domain.Statuses...), "nature": domain.Exact(domain.RefundNatures...)},
	reflect.TypeFor[domain.PublicReview]():      {"decision": domain.Decisions},
	reflect.TypeFor[unlocked](): {"lockMode": subaccount.ShownLockModes,
		"status": domain.Exact(subaccount.Statuses.Values...)},
	reflect.TypeFor[webhookView]():              webhookEnums,
	reflect.TypeFor[createdWebhook]():           webhookEnums,
	reflect.TypeFor[portalReady]():              {"mode": domain.Exact(modePortalReady)},
	reflect.TypeFor[crypto.PublicCryptoQuote](): {"payCurrency": payCurrencies},
	reflect.TypeFor[checkoutView](): {"status": domain.Exact(checkout.SessionStatuses...),
		"method": domain.Exact(checkout.Methods.Values...), "payCurrency": payCurrencies},
}

// fieldTypes are a struct's JSON fields' Go types, embedded structs
// flattened (as jsonFields names them).
func fieldTypes(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		ft := f.Type
		if f.Anonymous && name == "" {
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range fieldTypes(ft) {
					out[k] = v
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = ft
	}
	return out
}

// enumInline sets the enums of an inline (request or query) schema of
// type t, at every depth: a nested struct, a list of them, a pointer.
func enumInline(t reflect.Type, s *jsonschema.Schema) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
		if s != nil && s.Items != nil {
			s = s.Items
		}
	}
	if t.Kind() != reflect.Struct || s == nil || s.Properties == nil {
		return
	}
	sets := enumsOf(t)
	for name, ft := range fieldTypes(t) {
		p, ok := s.Properties.Get(name)
		if !ok {
			continue
		}
		if e, ok := sets[name]; ok {
			setEnum(p, e, true)
			continue
		}
		enumInline(ft, p)
	}
}

// enumComponents sets the enums of the answer components, each from its
// own type's Enums (a nested type is a component of its own).
func (d *apiDoc) enumComponents() {
	for name, t := range d.types {
		s := d.schemas[name]
		if s == nil || s.Properties == nil {
			continue
		}
		for field, e := range enumsOf(t) {
			if p, ok := s.Properties.Get(field); ok {
				setEnum(p, e, false)
			}
		}
	}
}

// setEnum puts e on a property: on its string, the strings of its list, or
// the non-null member of a nullable one. A request's set read in any case
// says so in the description (an answer is always canonical).
func setEnum(p *jsonschema.Schema, e domain.Enum, request bool) {
	if len(p.AnyOf) > 0 {
		for _, alt := range p.AnyOf {
			if alt.Type != "null" {
				setEnum(alt, e, request)
			}
		}
		return
	}
	if p.Type == "array" && p.Items != nil {
		setEnum(p.Items, e, request)
		return
	}
	p.Enum = make([]any, 0, len(e.Values))
	for _, v := range e.Values {
		p.Enum = append(p.Enum, v)
	}
	if request && e.AnyCase {
		caseInsensitive(p)
	}
}

// caseInsensitive adds "case-insensitive" to a schema's description.
func caseInsensitive(p *jsonschema.Schema) {
	switch {
	case p.Description == "":
		p.Description = "case-insensitive"
	case !strings.Contains(p.Description, "case-insensitive"):
		p.Description = "case-insensitive; " + p.Description
	}
}
