package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	oasvalidator "github.com/pb33f/libopenapi-validator"

	"github.com/jangada/jangada/api"
)

// contract validates real requests and answers against the served OpenAPI
// documents, so that the documents cannot drift from the code.
type contract struct {
	merchant, admin oasvalidator.Validator
}

var (
	contractOnce sync.Once
	contractV    *contract
	contractErr  error
)

func openAPIContract(t *testing.T) *contract {
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

// do sends a request through the contract: the answer must be the one the
// document describes for that operation and status, and a request the
// server accepted must be one the document allows.
func (k *contract) do(e *env, method, path string, headers map[string]string, body any) resp {
	e.t.Helper()
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	req, _ := http.NewRequest(method, e.base+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	for h, v := range headers {
		req.Header.Set(h, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	v := k.merchant
	if strings.HasPrefix(path, "/admin/v1/") {
		v = k.admin
	}
	// The validator reads both bodies again.
	req.Body = io.NopCloser(bytes.NewReader(raw))
	res.Body = io.NopCloser(bytes.NewReader(out))
	if res.StatusCode < 300 {
		if ok, errs := v.ValidateHttpRequestResponse(req, res); !ok {
			for _, ve := range errs {
				e.t.Errorf("%s %s → %d breaks the OpenAPI document: %s (%s)", method, path, res.StatusCode, ve.Message, ve.Reason)
				for _, se := range ve.SchemaValidationErrors {
					e.t.Errorf("    %s at %s", se.Reason, se.FieldPath)
				}
			}
		}
	} else if ok, errs := v.ValidateHttpResponse(req, res); !ok {
		for _, ve := range errs {
			e.t.Errorf("%s %s → %d: the error answer breaks the document: %s (%s)", method, path, res.StatusCode, ve.Message, ve.Reason)
		}
	}
	r := resp{Status: res.StatusCode, Header: res.Header}
	_ = json.Unmarshal(out, &r)
	return r
}

// TestFirstChargeAsTheReadmeSays walks README.md's "A first charge" as a
// newcomer does, every request and answer checked against the OpenAPI
// documents: the account found through the admin list, a key made for it,
// a charge whose QR URL serves the PNG, paid in the sandbox, COMPLETED a
// moment later and its QR URL then saying why it is not payable; then the
// funding step a PIX out needs, and the PIX out COMPLETED a moment later.
func TestFirstChargeAsTheReadmeSays(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	k := openAPIContract(t)
	m := e.merchant()
	admin := map[string]string{"X-Admin-Token": adminToken}

	list := k.do(e, "GET", "/admin/v1/accounts?search="+m.Email, admin, nil)
	var page struct {
		Items []struct{ ID string } `json:"items"`
		Total int                   `json:"total"`
	}
	list.into(t, &page)
	if list.Status != 200 || page.Total != 1 || page.Items[0].ID != m.ID {
		t.Fatalf("admin list by e-mail: %d %s", list.Status, list.Data)
	}
	created := k.do(e, "POST", "/admin/v1/accounts/"+m.ID+"/keys", admin, map[string]any{"name": "readme", "permissions": []string{"*"}})
	key, _ := created.m(t)["key"].(string)
	if created.Status != 200 || key == "" {
		t.Fatalf("create key: %d %s", created.Status, created.Message)
	}
	auth := map[string]string{"X-API-Key": key}

	c := k.do(e, "POST", "/v1/payment-pix/create", auth, map[string]any{"amount": 25.90, "description": "Pedido 1"})
	charge := c.m(t)
	id, _ := charge["id"].(string)
	if c.Status != 200 || charge["status"] != "PENDING" || id == "" {
		t.Fatalf("create charge: %d %s", c.Status, c.Data)
	}
	qr := strings.Replace(charge["qrcodeUrl"].(string), "http://jangada.test", e.base, 1)
	if res, err := http.Get(qr); err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("QR of a pending charge: %v %v", res, err)
	}
	if p := k.do(e, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", auth, nil); p.Status != 200 {
		t.Fatalf("sandbox pay: %d %s", p.Status, p.Message)
	}
	eventually(t, "the charge COMPLETED a moment later", func() bool {
		s := k.do(e, "GET", "/v1/payment-pix/status/"+id, auth, nil)
		return s.Status == 200 && s.m(t)["status"] == "COMPLETED"
	})
	res, err := http.Get(qr)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusConflict || !strings.Contains(string(b), "charge is no longer payable: it is COMPLETED") {
		t.Fatalf("QR of a paid charge: %d %s", res.StatusCode, b)
	}

	// The funding step: received PIX is locked for 24 h, an adjustment is
	// withdrawable at once.
	if a := k.do(e, "POST", "/admin/v1/accounts/"+m.ID+"/adjustments", admin, map[string]any{"amount": 100, "description": "Saldo inicial"}); a.Status != 200 {
		t.Fatalf("adjust: %d %s", a.Status, a.Message)
	}
	out := k.do(e, "POST", "/v1/transfer-pix/create", auth, map[string]any{"amount": 10, "pixKey": "pagamentos@example.com", "pixKeyType": "EMAIL"})
	tid, _ := out.m(t)["id"].(string)
	if out.Status != 200 || tid == "" {
		t.Fatalf("PIX out: %d %s", out.Status, out.Message)
	}
	// The shared app does not settle by itself (JANGADA_SANDBOX_AUTO_SETTLE
	// off in the harness): the sandbox route does what make run's timer does.
	if st := k.do(e, "POST", "/v1/sandbox/transfer-pix/"+tid+"/settle", auth, nil); st.Status != 200 {
		t.Fatalf("sandbox settle: %d %s", st.Status, st.Message)
	}
	eventually(t, "the PIX out COMPLETED a moment later", func() bool {
		s := k.do(e, "GET", "/v1/transfer-pix/status/"+tid, auth, nil)
		return s.Status == 200 && s.m(t)["status"] == "COMPLETED"
	})
	for _, p := range []string{"/v1/payment-pix/get/" + id, "/v1/transfer-pix/get/" + tid, "/v1/account/balance", "/v1/account/transactions?pageSize=5"} {
		if r := k.do(e, "GET", p, auth, nil); r.Status != 200 {
			t.Errorf("GET %s: %d %s", p, r.Status, r.Message)
		}
	}
	// An error answer is in the document too.
	if r := k.do(e, "GET", "/v1/payment-pix/get/nope", auth, nil); r.Status != 404 {
		t.Errorf("unknown charge: %d", r.Status)
	}
	e.verifyLedger()
}
