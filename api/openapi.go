package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
)

// Doc documents one row of a route table in the OpenAPI document. The row
// gives the method, the path, the permission (x-permission), the feature
// (x-feature) and whether it is a sandbox route; the Doc gives the rest,
// as Go types that the document reflects (so the schema is the code's).
// A product documents its rows in api/openapi_<product>.go:
//
//	var _ = documents(merchantDocs, map[string]Doc{
//		"POST /things/create": {Summary: "Create a thing", Body: domain.ThingRequest{}, Data: thingView{}},
//	})
//
// TestEveryRouteIsDocumented fails for a row without its Doc, and for a Doc
// without its row.
type Doc struct {
	Summary     string
	Description string
	// Body is the JSON request body's type, as a zero value
	// (domain.ChargeRequest{}); nil: the route reads no body. Its required
	// fields are those its Validate refuses the Example without
	// (requiredFields), and those tagged `jsonschema:"required"` (which
	// TestRequiredTagsAgreeWithValidate holds to Validate); bounds are
	// `jsonschema:"minimum=1,maximum=100"` tags; enums are the type's
	// Enums (domain.Enumerated: the lists its Validate reads), never tags.
	Body any
	// Query is a struct (zero value) whose json-tagged fields are the query
	// parameters (listQuery for the common list filters).
	Query any
	// Data is the type of the success envelope's data (zero value); nil: the
	// envelope has none.
	Data any
	// List says data is a page of Data: {items, page, pageSize, total, pages}.
	List bool
	// OneOrList says data is either one Data (the query selects one) or a
	// page of Data (it does not), as GET /subaccount/portal/status answers.
	OneOrList bool
	// Patch says the body is a partial update: no field of Body is required.
	Patch bool
	// Example is an example request body (marshalled as JSON): a realistic,
	// valid request. Every route with a Body has one
	// (TestEveryBodyHasAnExample): the document's required fields are derived
	// from it (requiredFields) and the contract test sends it.
	Example any
	// Alternatives are other valid shapes of the body, by name (a transfer
	// to a BR Code instead of a PIX key): a field that one shape needs and
	// another does without is not required. The document lists them beside
	// Example.
	Alternatives map[string]any
	// Raw is the media type of a success answer that is not an envelope
	// (a profile); "" for the envelope.
	Raw string
	// OperationID overrides the derived operation id.
	OperationID string
	// Form says the route also reads multipart/form-data (openapi_multipart.go).
	Form *formDoc
}

// merchantDocs and adminDocs hold the Doc of each row of Routes() and
// adminRoutes(), keyed "METHOD /path" exactly as the row writes it.
var (
	merchantDocs = map[string]Doc{}
	adminDocs    = map[string]Doc{}
)

// documents adds a product's Docs to a table's; a key given twice is a
// programming error.
func documents(table map[string]Doc, docs map[string]Doc) bool {
	for k, d := range docs {
		if _, dup := table[k]; dup {
			panic("api: route documented twice: " + k)
		}
		table[k] = d
	}
	return true
}

// docKey is a row's key in its Doc table.
func docKey(r Route) string { return r.Method + " " + r.Path }

// listQuery is the query of the list routes over transactions (listFilter).
type listQuery struct {
	Page              int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize          int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	Status            string `json:"status"`
	DateFrom          string `json:"dateFrom" jsonschema:"description=from this date (YYYY-MM-DD) or instant (RFC 3339)"`
	DateTo            string `json:"dateTo" jsonschema:"description=up to this date (inclusive) or instant"`
	ExternalReference string `json:"externalReference"`
	Search            string `json:"search"`
	SubaccountID      string `json:"subaccountId" jsonschema:"description=only this sub-account's (routes that have sub-accounts)"`
}

// Enums are the query's closed sets, the lists' own (listFilter).
func (listQuery) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Folded(domain.Statuses...)}
}

// pageQuery is the query of the list routes that take only a page.
type pageQuery struct {
	Page     int `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize int `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
}

// apiDoc is one OpenAPI document under construction.
type apiDoc struct {
	schemas map[string]*jsonschema.Schema
	// types remembers which Go type each component name stands for, so
	// that two types of the same name in two packages are told apart.
	types map[string]reflect.Type
	req   *jsonschema.Reflector
	resp  *jsonschema.Reflector
}

// The documents are built once, on first use, from the tables.
var (
	merchantOnce, adminOnce sync.Once
	merchantMap, adminMap   map[string]any
	merchantJSON, adminJSON []byte
)

// MerchantOpenAPI is the merchant API's OpenAPI 3.1 document, its server
// the default public URL's /v1 (an instance serves MerchantOpenAPIAt its
// own).
func MerchantOpenAPI() []byte {
	merchantOnce.Do(func() {
		merchantMap = buildOpenAPI(merchantAPI)
		merchantJSON = mustJSON(merchantMap)
	})
	return merchantJSON
}

// AdminOpenAPI is the admin API's OpenAPI 3.1 document, its server the
// default operators' listener (an instance serves AdminOpenAPIAt its own).
func AdminOpenAPI() []byte {
	adminOnce.Do(func() {
		adminMap = buildOpenAPI(adminAPI)
		adminJSON = mustJSON(adminMap)
	})
	return adminJSON
}

func mustJSON(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic("api: openapi document: " + err.Error())
	}
	return b
}

// apiSpec says what differs between the two documents.
type apiSpec struct {
	title, description, base string
	// origin is the default scheme and host of the servers' URL
	// (configuration's defaults); an instance names its own (servers.go).
	origin   string
	routes   []Route
	docs     map[string]Doc
	security map[string]any
	admin    bool
}

var merchantAPI = apiSpec{
	title: "Jangada merchant API",
	description: "PIX charges, transfers, refunds, sub-accounts and webhooks. Every answer is an envelope " +
		"`{success, message, data, requestId}`; amounts are JSON numbers in BRL with at most two decimal places " +
		"(`format: decimal`, `x-decimal-places: 2`: 10.001 is a 400 naming the field). The rail comes from the API key: " +
		"a body with `pixRail` is a 400. Enums list each value once in its canonical case; one described as " +
		"case-insensitive is also read in any other case. " +
		"A `POST …/create` is safe to retry with the same `Idempotency-Key`. Each operation's `x-permission` is the " +
		"API key permission it needs (empty: any valid key). Events: the `webhooks` section is every catalog event as " +
		"the signed POST an endpoint receives; the WebSocket gateway (its own listener, path `/v1`) sends the same " +
		"envelope `{id, event, createdAt, data}` as its event frames (`id` the delivery id of the event to the connection's API key) once a client sent `{\"action\":\"authenticate\",\"apiKey\":…}` " +
		"and `{\"action\":\"subscribe\",\"pattern\":…}`, and answers `{\"action\":\"ack\",\"id\":…}` and `{\"action\":\"ping\"}`.",
	base:   "/v1",
	origin: config.DefaultPublicURL,
	security: map[string]any{
		"apiKey": map[string]any{"type": "apiKey", "in": "header", "name": "X-API-Key"},
		"bearer": map[string]any{"type": "http", "scheme": "bearer", "description": "the API key as a bearer token"},
	},
}

var adminAPI = apiSpec{
	title: "Jangada admin API",
	description: "The back office: accounts, API keys, adjustments, security reviews, the ledger check and webhook " +
		"deliveries. Header `X-Admin-Token`. Same envelopes as the merchant API.",
	base:     "/admin/v1",
	origin:   adminOrigin(config.DefaultAdminAddr),
	security: map[string]any{"adminToken": map[string]any{"type": "apiKey", "in": "header", "name": "X-Admin-Token"}},
	admin:    true,
}

func init() {
	merchantAPI.routes, merchantAPI.docs = Routes(), merchantDocs
	adminAPI.routes, adminAPI.docs = adminRoutes(), adminDocs
}

// buildOpenAPI makes the document of one API from its route table and Docs.
// A row without a Doc is still listed (with a summary saying so): the
// completeness test, not the server, refuses it.
func buildOpenAPI(spec apiSpec) map[string]any {
	d := &apiDoc{schemas: map[string]*jsonschema.Schema{}, types: map[string]reflect.Type{}}
	d.req = d.reflector(true)
	d.resp = d.reflector(false)
	paths := map[string]map[string]any{}
	ids := operationIDs(spec.routes, spec.docs)
	for _, r := range spec.routes {
		p := openAPIPath(r.Path)
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		paths[p][strings.ToLower(r.Method)] = d.operation(spec, r, ids[docKey(r)])
	}
	var secReq []any
	for name := range spec.security {
		secReq = append(secReq, map[string]any{name: []string{}})
	}
	sort.Slice(secReq, func(i, j int) bool { return fmt.Sprint(secReq[i]) < fmt.Sprint(secReq[j]) })
	var hooks, ws map[string]any
	if !spec.admin {
		hooks, ws = d.webhooks(), d.wsSchemas()
	}
	schemas := map[string]any{"Envelope": envelopeSchema(), "Error": errorSchema()}
	for name, s := range d.schemas {
		schemas[name] = s
	}
	for name, s := range ws {
		schemas[name] = s
	}
	doc := map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info":              map[string]any{"title": spec.title, "version": "1", "description": spec.description},
		"servers":           servers(spec.origin + spec.base),
		"security":          secReq,
		"paths":             paths,
		"components": map[string]any{
			"schemas":         schemas,
			"securitySchemes": spec.security,
			"responses":       errorResponses(),
			"headers":         headerComponents(),
		},
	}
	if hooks != nil {
		doc["webhooks"] = hooks
	}
	return doc
}

// operation is one route's OpenAPI operation.
func (d *apiDoc) operation(spec apiSpec, r Route, id string) map[string]any {
	doc, documented := spec.docs[docKey(r)]
	if !documented {
		doc.Summary = "(undocumented)"
	}
	op := map[string]any{
		"operationId":  id,
		"summary":      doc.Summary,
		"tags":         []string{tagOf(r)},
		"x-permission": r.Permission,
	}
	if doc.Description != "" {
		op["description"] = doc.Description
	}
	if r.Feature != "" {
		op["x-feature"] = r.Feature
	}
	if r.Sandbox {
		op["x-sandbox"] = true
	}
	params := pathParams(r.Path)
	if doc.Query != nil {
		params = append(params, d.queryParams(doc.Query)...)
	}
	if idempotentRoute(r) && !spec.admin {
		params = append(params, map[string]any{
			"name": "Idempotency-Key", "in": "header", "required": false,
			"description": "retry-safe create: the same key (per API key) answers with what the first attempt did",
			"schema":      map[string]any{"type": "string", "maxLength": 255},
		})
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	if doc.Body != nil {
		body := d.inline(doc.Body)
		if doc.Patch {
			body.Required = nil
		} else {
			// Required is what Validate refuses to do without, not
			// only what the tags say (api/openapi_required.go).
			applyRequired(body, doc)
		}
		media := map[string]any{"schema": body}
		switch {
		case len(doc.Alternatives) > 0:
			// OpenAPI allows example or examples, not both.
			examples := map[string]any{"example": map[string]any{"value": doc.Example}}
			for name, v := range doc.Alternatives {
				examples[name] = map[string]any{"value": v}
			}
			media["examples"] = examples
		case doc.Example != nil:
			media["example"] = doc.Example
		}
		// An empty body reads as {} (bind): it is required only when a
		// field of it is, or one of its shapes' (applyRequired).
		content := map[string]any{"application/json": media}
		if doc.Form != nil {
			content["multipart/form-data"] = multipartMedia(body, doc.Form)
		}
		op["requestBody"] = map[string]any{"required": len(body.Required) > 0 || len(body.AllOf) > 0, "content": content}
	}
	content := map[string]any{"application/json": map[string]any{"schema": d.success(doc)}}
	if doc.Raw != "" {
		content = map[string]any{doc.Raw: map[string]any{}}
	}
	responses := map[string]any{"200": map[string]any{"description": "success", "content": content, "headers": successHeaders(r, spec.admin)}}
	for _, code := range errorCodes(spec.admin, r, doc) {
		responses[code] = map[string]any{"$ref": "#/components/responses/" + code}
	}
	op["responses"] = responses
	return op
}

// envelopeSchema is the success envelope; each operation adds its data.
func envelopeSchema() map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []string{"success", "message", "requestId"},
		"properties": map[string]any{
			"success":   map[string]any{"const": true},
			"message":   map[string]any{"type": "string"},
			"requestId": map[string]any{"type": "string", "description": "equal to the X-Request-Id header"},
		},
	}
}

// errorSchema is the error envelope (api/respond.go: fail).
func errorSchema() map[string]any {
	return map[string]any{
		"type":                 "object",
		"required":             []string{"success", "message", "requestId"},
		"additionalProperties": false,
		"properties": map[string]any{
			"success":   map[string]any{"const": false},
			"message":   map[string]any{"type": "string"},
			"requestId": map[string]any{"type": "string"},
		},
	}
}

// success is the 200 schema: the envelope with the route's data.
func (d *apiDoc) success(doc Doc) map[string]any {
	if doc.Data == nil {
		return map[string]any{"$ref": "#/components/schemas/Envelope"}
	}
	one := d.named(doc.Data)
	data := one
	if doc.List || doc.OneOrList {
		data = map[string]any{
			"type":                 "object",
			"required":             []string{"items", "page", "pageSize", "total", "pages"},
			"additionalProperties": false,
			"properties": map[string]any{
				"items":    map[string]any{"type": "array", "items": one},
				"page":     map[string]any{"type": "integer", "minimum": 1},
				"pageSize": map[string]any{"type": "integer", "minimum": 1},
				"total":    map[string]any{"type": "integer", "minimum": 0},
				"pages":    map[string]any{"type": "integer", "minimum": 0},
			},
		}
	}
	if doc.OneOrList {
		data = map[string]any{"anyOf": []any{one, data}}
	}
	return map[string]any{"allOf": []any{
		map[string]any{"$ref": "#/components/schemas/Envelope"},
		map[string]any{"type": "object", "required": []string{"data"}, "properties": map[string]any{"data": data}},
	}}
}

func openAPIPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
			segs[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(segs, "/")
}

// pathParams are a path's parameters, all required strings.
func pathParams(p string) []any {
	var out []any
	for _, s := range strings.Split(p, "/") {
		if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
			out = append(out, map[string]any{"name": s[1:], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
	}
	return out
}

// tagOf groups a route by its product: the first segment of its path
// (the sandbox routes under "sandbox").
func tagOf(r Route) string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(r.Path, "/"), "/")
	return seg
}
