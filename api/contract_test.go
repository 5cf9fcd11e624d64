package api

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pb33f/libopenapi"
	oasvalidator "github.com/pb33f/libopenapi-validator"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/api/apimock"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// The request contract: what the served document says of a request body
// is what the server does with it. For every route with a body (both
// APIs), each of its examples answers 2xx through the use case (no 400
// from binding or validation) and is valid against the document; each
// field the document calls required, left out, is a 400 whose message
// names it; and no other field's absence is a 400 naming it. The rules
// and the document's required lists come from one source
// (requiredFields); this test is what keeps a handler from binding or
// validating beside it.

// counting is a gomock matcher that matches anything and counts the calls
// it sees: the use case was reached.
type counting struct{ calls *atomic.Int32 }

// Matches counts the call and accepts any argument.
func (c counting) Matches(any) bool { c.calls.Add(1); return true }

// String is how gomock names the matcher in its reports.
func (c counting) String() string { return "anything (counted)" }

// useCases are f's use case mocks but Auth (the key the test sends) and
// Idempotency (no contract request sends a key).
func (f *fixture) useCases() []any {
	return []any{f.charges, f.transfers, f.refunds, f.internal, f.schedules, f.webhooks, f.sandbox, f.subs, f.txs,
		f.accounts, f.links, f.pixauto, f.customers, f.checkouts, f.products, f.billings, f.coupons, f.meds,
		f.recharges, f.crypto, f.subscriptions, f.bureau, f.portal, f.dashPeople, f.dashKeys, f.dashMoney}
}

// answerAnything lets every use case of f (useCases) take any call, any
// number of times, answering zero values, and counts the calls in calls: the
// contract is the binding and validation layer's, whatever a use case
// would answer.
func (f *fixture) answerAnything(calls *atomic.Int32) {
	f.t.Helper()
	mocks := 0
	ft := reflect.TypeFor[fixture]()
	for i := range ft.NumField() {
		if t := ft.Field(i).Type; t.Kind() == reflect.Pointer && t.Elem().PkgPath() == reflect.TypeFor[apimock.MockAuth]().PkgPath() {
			mocks++
		}
	}
	if uc := f.useCases(); len(uc)+2 != mocks {
		f.t.Fatalf("the fixture has %d mocks, useCases lists %d (and Auth, Idempotency): add the new one", mocks, len(uc))
	}
	for _, m := range f.useCases() {
		rec := reflect.ValueOf(m).MethodByName("EXPECT").Call(nil)[0]
		for j := range rec.NumMethod() {
			method := rec.Method(j)
			// One matcher per parameter; a variadic one's matches the
			// whole list.
			args := make([]reflect.Value, method.Type().NumIn())
			args[0] = reflect.ValueOf(counting{calls})
			for k := 1; k < len(args); k++ {
				args[k] = reflect.ValueOf(gomock.Any())
			}
			method.Call(args)[0].Interface().(*gomock.Call).AnyTimes()
		}
	}
}

// realAnswers set, before answerAnything, by "api METHOD /path", the use
// case answers a route cannot render from a zero value (a charge's answer is its BR Code and
// its expiry): gomock matches the earlier expectation first.
var realAnswers = map[string]func(f *fixture, reached gomock.Matcher){
	"merchant POST /payment-pix/create": func(f *fixture, reached gomock.Matcher) {
		code := "000201"
		f.charges.EXPECT().Create(reached, gomock.Any(), gomock.Any(), gomock.Any()).
			Return(service.CreatedCharge{Charge: domain.Transaction{ID: "tx_1", CopyPaste: &code, ExpiresAt: &routeTime}}, nil).AnyTimes()
	},
}

// contractAPI is one API under the request contract.
type contractAPI struct {
	name, docPath string
	routes        []Route
	docs          map[string]Doc
	// cases give each route's path with its parameters filled.
	cases map[string]routeCase
	// credential is the header that authenticates a request.
	credential [2]string
}

var contractAPIs = []contractAPI{
	{"merchant", "/v1/openapi.json", Routes(), merchantDocs, routeCases, [2]string{"X-API-Key", testSecret}},
	{"admin", "/admin/v1/openapi.json", adminRoutes(), adminDocs, adminRouteCases, [2]string{"X-Admin-Token", testAdminToken}},
}

// servedRequestSchemas reads an API's document as the server serves it
// and returns each operation's JSON request schema by "METHOD /path" (the
// route table's spelling).
func servedRequestSchemas(t *testing.T, api contractAPI) (doc []byte, schemas map[string]requestSchema) {
	t.Helper()
	w := newFixture(t).serve(http.MethodGet, api.docPath, "")
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d", api.docPath, w.Code)
	}
	doc = w.Body.Bytes()
	ops := openAPIOps(t, doc)
	schemas = map[string]requestSchema{}
	for _, r := range api.routes {
		op := ops[r.Method+" "+openAPIPath(r.Path)]
		b, _ := json.Marshal(op["requestBody"])
		var rb struct {
			Content map[string]struct {
				Schema requestSchema `json:"schema"`
			} `json:"content"`
		}
		if err := json.Unmarshal(b, &rb); err == nil {
			schemas[docKey(r)] = rb.Content["application/json"].Schema
		}
	}
	return doc, schemas
}

// requestSchema is as much of a request body's schema as the contract
// reads: its required fields, and those of its object fields.
type requestSchema struct {
	Required   []string `json:"required"`
	Properties map[string]struct {
		Required []string `json:"required"`
	} `json:"properties"`
}

// TestRequestContract proves the request contract (above) for every route
// with a body, of both APIs.
func TestRequestContract(t *testing.T) {
	t.Parallel()
	for _, api := range contractAPIs {
		t.Run(api.name, func(t *testing.T) {
			t.Parallel()
			doc, schemas := servedRequestSchemas(t, api)
			parsed, err := libopenapi.NewDocument(doc)
			if err != nil {
				t.Fatal(err)
			}
			validator, errs := oasvalidator.NewValidator(parsed)
			if len(errs) > 0 {
				t.Fatalf("validator: %v", errs)
			}
			c := &contractCheck{api: api, validator: validator, schemas: schemas}
			for _, r := range api.routes {
				if api.docs[docKey(r)].Body == nil {
					continue
				}
				t.Run(docKey(r), func(t *testing.T) {
					t.Parallel()
					c.route(t, r)
				})
			}
		})
	}
}

// contractCheck checks the routes of one API against its served document.
type contractCheck struct {
	api       contractAPI
	validator oasvalidator.Validator
	// validating serialises the validator, not documented as safe for
	// concurrent use.
	validating sync.Mutex
	schemas    map[string]requestSchema
}

// send sends body to route r through fresh mocks that answer anything,
// and tells how many use case calls it made.
func (c *contractCheck) send(t *testing.T, r Route, body map[string]json.RawMessage) (*httptest.ResponseRecorder, int32) {
	t.Helper()
	f := newFixture(t).withAllFeatures("*")
	calls := new(atomic.Int32)
	if real, ok := realAnswers[c.api.name+" "+docKey(r)]; ok {
		real(f, counting{calls})
	}
	f.answerAnything(calls)
	raw, _ := json.Marshal(body)
	return f.serve(r.Method, c.api.cases[docKey(r)].path, string(raw), c.api.credential[0], c.api.credential[1]), calls.Load()
}

// valid checks a request body against the document.
func (c *contractCheck) valid(t *testing.T, r Route, name string, body map[string]json.RawMessage) {
	t.Helper()
	raw, _ := json.Marshal(body)
	req := httptest.NewRequest(r.Method, c.api.cases[docKey(r)].path, strings.NewReader(string(raw)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(c.api.credential[0], c.api.credential[1])
	c.validating.Lock()
	ok, errs := c.validator.ValidateHttpRequest(req)
	c.validating.Unlock()
	if ok {
		return
	}
	for _, ve := range errs {
		t.Errorf("%s breaks the document: %s (%s)", name, ve.Message, ve.Reason)
		for _, se := range ve.SchemaValidationErrors {
			t.Errorf("    %s at %s", se.Reason, se.FieldPath)
		}
	}
}

// route checks one route: its examples, then each field of its Example
// left out.
func (c *contractCheck) route(t *testing.T, r Route) {
	doc := c.api.docs[docKey(r)]
	if _, ok := c.api.cases[docKey(r)]; !ok {
		t.Fatal("no route case: its path is taken from routeCases/adminRouteCases")
	}
	examples := map[string]any{"example": doc.Example}
	maps.Copy(examples, doc.Alternatives)
	shapes := map[string]map[string]json.RawMessage{}
	for name, ex := range examples {
		fields, err := exampleFields(ex)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		shapes[name] = fields
		if w, calls := c.send(t, r, fields); w.Code/100 != 2 || calls == 0 {
			t.Errorf("%s: %d, %d use case calls; want 2xx through the use case: %s", name, w.Code, calls, w.Body)
		}
		c.valid(t, r, name, fields)
	}
	schema := c.schemas[docKey(r)]
	main := shapes["example"]
	for _, field := range slices.Sorted(maps.Keys(main)) {
		without := maps.Clone(main)
		delete(without, field)
		w, _ := c.send(t, r, without)
		msg := message(w)
		refused := w.Code == http.StatusBadRequest && namesField(msg, field)
		switch {
		case slices.Contains(schema.Required, field) && !refused:
			t.Errorf("the document requires %s, but leaving it out answers %d %q", field, w.Code, msg)
		case !slices.Contains(schema.Required, field) && refused && !doneWithout(shapes, field):
			t.Errorf("the document does not require %s, but leaving it out is a 400 naming it: %q", field, msg)
		}
		for _, inner := range schema.Properties[field].Required {
			obj, _ := objectOf(main[field])
			if _, sent := obj[inner]; !sent {
				continue
			}
			delete(obj, inner)
			with := maps.Clone(main)
			with[field], _ = json.Marshal(obj)
			w, _ := c.send(t, r, with)
			if path := field + "." + inner; w.Code != http.StatusBadRequest || !namesField(message(w), path) {
				t.Errorf("the document requires %s, but leaving it out answers %d %q", path, w.Code, message(w))
			}
		}
	}
}

// doneWithout says whether another shape of the body (an alternative
// example, which the contract sends too) does without field: then the
// example's refusal without it is that shape's rule, not a requirement.
func doneWithout(shapes map[string]map[string]json.RawMessage, field string) bool {
	for name, s := range shapes {
		if _, has := s[field]; name != "example" && !has {
			return true
		}
	}
	return false
}

// message is an answer's envelope message ("" when it has none).
func message(w *httptest.ResponseRecorder) string {
	var env struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &env)
	return env.Message
}

// namesField says whether an error message is about field (names does the
// same for the document's derivation).
func namesField(msg, field string) bool {
	return strings.HasPrefix(msg, field+" ") || strings.HasPrefix(msg, field+".")
}
