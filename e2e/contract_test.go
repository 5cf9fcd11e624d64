package e2e

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	oasvalidator "github.com/pb33f/libopenapi-validator"
	oaserrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"

	"github.com/jangada/jangada/api"
)

// contract validates real requests and answers against the served OpenAPI
// documents, so that the documents cannot drift from the code. Every
// request a test sends with env.request (and the Go client's, through
// env.httpClient) passes through it.
type contract struct {
	merchant, admin oasvalidator.Validator
}

var (
	contractOnce sync.Once
	contractV    *contract
	contractErr  error
)

func openAPIContract(t testing.TB) *contract {
	t.Helper()
	contractOnce.Do(func() {
		build := func(doc []byte) oasvalidator.Validator {
			d, err := libopenapi.NewDocument(doc)
			if err != nil {
				contractErr = err
				return nil
			}
			v, errs := oasvalidator.NewValidator(d)
			if len(errs) > 0 {
				contractErr = errs[0]
			}
			return v
		}
		contractV = &contract{merchant: build(api.MerchantOpenAPI()), admin: build(api.AdminOpenAPI())}
	})
	if contractErr != nil {
		t.Fatalf("openapi validator: %v", contractErr)
	}
	return contractV
}

// checked is an HTTP transport that validates each exchange with the API
// against the contract and fails t on a mismatch: the answer always (an
// error answer must be the documented error envelope), the request when
// the server accepted it (2xx) — a test that sends bad input on purpose
// gets its 400 validated, not its input; a hostile-input test whose bad
// input the server may accept (env.negatives) gets its answers validated
// only. Paths outside the documents (the
// QR images, pages, /metrics, a route a test invents) are not checked:
// TestEveryRouteIsDocumented proves every route documented.
type checked struct {
	t    testing.TB
	next http.RoundTripper
	// answersOnly skips the requests' check (env.negatives).
	answersOnly bool
}

func (c checked) RoundTrip(req *http.Request) (*http.Response, error) {
	var v oasvalidator.Validator
	k := openAPIContract(c.t)
	switch p := req.URL.Path; {
	case strings.HasPrefix(p, "/admin/v1/"):
		v = k.admin
	case strings.HasPrefix(p, "/v1/"):
		v = k.merchant
	default:
		return c.next.RoundTrip(req)
	}
	var sent []byte
	if req.Body != nil {
		sent, _ = io.ReadAll(req.Body)
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(sent))
	}
	res, err := c.next.RoundTrip(req)
	if err != nil {
		return res, err
	}
	got, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	// The validator reads both bodies again; the caller reads the answer.
	again := req.Clone(req.Context())
	again.Body = io.NopCloser(bytes.NewReader(sent))
	res.Body = io.NopCloser(bytes.NewReader(got))
	var ok bool
	var errs []*oaserrors.ValidationError
	if res.StatusCode < 300 && !c.answersOnly {
		ok, errs = v.ValidateHttpRequestResponse(again, res)
	} else {
		ok, errs = v.ValidateHttpResponse(again, res)
	}
	res.Body = io.NopCloser(bytes.NewReader(got))
	if !ok {
		for _, ve := range errs {
			if ve.ValidationType == helpers.PathValidation {
				continue // not a documented path (see above)
			}
			c.t.Errorf("%s %s → %d breaks the OpenAPI document: %s (%s)\n    request: %.300s\n    answer: %.300s",
				req.Method, req.URL.RequestURI(), res.StatusCode, ve.Message, ve.Reason, sent, got)
			for _, se := range ve.SchemaValidationErrors {
				c.t.Errorf("    %s at %s", se.Reason, se.FieldPath)
			}
		}
	}
	return res, nil
}

// httpClient is the client of a test's API traffic: every exchange checked
// against the OpenAPI documents (checked), its requests too unless the test
// sends bad input on purpose (env.negatives).
func (e *env) httpClient() *http.Client {
	return &http.Client{Transport: checked{t: e.t, next: http.DefaultTransport, answersOnly: e.negatives}}
}
