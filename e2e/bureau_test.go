package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/jangada/jangada/api"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/domain/store"
)

const bureauPDF = "%PDF-1.4\n% nota fiscal\n"

// bureauMerchant is a verified merchant with the credit bureau on, funded.
func (e *env) bureauMerchant() merchant {
	e.t.Helper()
	m := e.merchant()
	e.enable(m, domain.FeatureCreditBureau)
	if r := e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"verified": true}); r.Status != 200 {
		e.t.Fatalf("verify: %d %s", r.Status, r.Message)
	}
	e.fund(m, 100)
	return m
}

// overdueBilling makes a boleto billing of amount and has the sandbox
// take it past due.
func (e *env) overdueBilling(m merchant, amount float64) string {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/billings/create", map[string]any{"method": "BOLETO", "amount": amount,
		"customer": map[string]any{"name": "Devedor Silva", "taxId": "529.982.247-25"}})
	if r.Status != 200 {
		e.t.Fatalf("billing: %d %s", r.Status, r.Message)
	}
	id := r.m(e.t)["id"].(string)
	if r := e.call(m.Key, "POST", "/v1/sandbox/billings/"+id+"/overdue", nil); r.Status != 200 {
		e.t.Fatalf("overdue: %d %s", r.Status, r.Message)
	}
	eventually(e.t, "billing "+id+" OVERDUE", func() bool {
		return e.call(m.Key, "GET", "/v1/billings/get/"+id, nil).m(e.t)["status"] == billing.BillingOverdue
	})
	return id
}

// dunning posts a dunning's multipart form for the billing.
func (e *env) dunning(key, payment string) resp {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range map[string]string{"payment": payment, "type": "CREDIT_BUREAU", "description": "Mensalidade em atraso",
		"customerName": "Devedor Silva", "customerCpfCnpj": "529.982.247-25", "customerPrimaryPhone": "(11) 98765-4321",
		"customerEmail": "devedor@example.com", "customerPostalCode": "01310-100", "customerAddress": "Av. Paulista",
		"customerAddressNumber": "1000", "customerProvince": "Bela Vista", "customerCity": "São Paulo", "customerState": "SP"} {
		w.WriteField(k, v)
	}
	fw, _ := w.CreateFormFile("documents", "nota.pdf")
	fw.Write([]byte(bureauPDF))
	w.Close()
	req, _ := http.NewRequest("POST", e.base+"/v1/bureau/dunnings/create", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("X-API-Key", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := resp{Status: res.StatusCode}
	if err := json.Unmarshal(raw, &r); err != nil {
		e.t.Fatalf("dunning: %q", raw)
	}
	return r
}

// simulate asks whether the billing can be dunned.
func (e *env) simulate(key, payment string) bureau.DunningSimulation {
	e.t.Helper()
	var sim bureau.DunningSimulation
	e.call(key, "GET", "/v1/bureau/dunnings/simulate?payment="+payment, nil).into(e.t, &sim)
	return sim
}

// available is m's available balance in centavos.
func (e *env) available(m merchant) int64 {
	e.t.Helper()
	return int64(math.Round(e.balance(m)["available"].(float64) * 100))
}

// Credit bureau: eligibility (only an OVERDUE billing of the
// account, with no dunning yet, from a verified account), the R$ 12.90 fee
// debited with the dunning, the bureau's processing in the sandbox, the
// spec's list envelope, the fee returned on a denial; reports at R$ 19.90
// for a customer of the store. Ledger checked.
func TestBureauDunningEligibilityFeeAndProcessing(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.bureauMerchant()
	pending := e.call(m.Key, "POST", "/v1/billings/create", map[string]any{"method": "BOLETO", "amount": 80,
		"customer": map[string]any{"name": "Devedor Silva", "taxId": "529.982.247-25"}}).m(t)["id"].(string)
	overdue := e.overdueBilling(m, 250)

	sim := e.simulate(m.Key, pending)
	if sim.CanBeRequested || !strings.HasPrefix(sim.Reason, "the billing is PENDING") || sim.Fee != bureau.DunningFee || sim.Value != 8000 {
		t.Fatalf("pending billing: %+v", sim)
	}
	if r := e.dunning(m.Key, pending); r.Status != 400 || !strings.HasPrefix(r.Message, "payment cannot be sent to the credit bureau") {
		t.Fatalf("dunning of a pending billing: %d %s", r.Status, r.Message)
	}
	sim = e.simulate(m.Key, overdue)
	if !sim.CanBeRequested || sim.Reason != "" || sim.Fee != 1290 || sim.Value != 25000 || sim.Payment != overdue {
		t.Fatalf("overdue billing: %+v", sim)
	}
	before := e.available(m)
	r := e.dunning(m.Key, overdue)
	if r.Status != 200 {
		t.Fatalf("dunning: %d %s", r.Status, r.Message)
	}
	d := r.m(t)
	if d["status"] != bureau.DunningPending || d["type"] != "CREDIT_BUREAU" || d["payment"] != overdue || d["fee"] != 12.9 ||
		d["value"] != 250.0 || d["customerCpfCnpj"] != "52998224725" || d["dateCreated"] == nil {
		t.Fatalf("dunning %v", d)
	}
	if after := e.available(m); after != before-1290 {
		t.Fatalf("available %v → %v, want the fee of 12.90 debited", before, after)
	}
	id := d["id"].(string)
	eventually(t, "the bureau processes the dunning", func() bool {
		return e.call(m.Key, "GET", "/v1/bureau/dunnings/get/"+id, nil).m(t)["status"] == bureau.DunningProcessed
	})
	sim = e.simulate(m.Key, overdue)
	if sim.CanBeRequested || !strings.HasPrefix(sim.Reason, "the billing already has dunning "+id) {
		t.Fatalf("second simulation: %+v", sim)
	}
	if r := e.dunning(m.Key, overdue); r.Status != 400 {
		t.Fatalf("second dunning: %d %s", r.Status, r.Message)
	}

	// A billing of R$ x,77 is denied by the sandbox bureau: the fee returns.
	denied := e.overdueBilling(m, 30.77)
	before = e.available(m)
	did := e.dunning(m.Key, denied).m(t)["id"].(string)
	eventually(t, "the bureau denies the dunning", func() bool {
		return e.call(m.Key, "GET", "/v1/bureau/dunnings/get/"+did, nil).m(t)["status"] == bureau.DunningDenied
	})
	if after := e.available(m); after != before {
		t.Fatalf("available %v → %v: a denied dunning's fee must return", before, after)
	}

	// The spec's list envelope, paged by offset and limit, filtered.
	var list struct {
		Object     string           `json:"object"`
		HasMore    bool             `json:"hasMore"`
		TotalCount int              `json:"totalCount"`
		Limit      int              `json:"limit"`
		Offset     int              `json:"offset"`
		Data       []map[string]any `json:"data"`
	}
	e.call(m.Key, "GET", "/v1/bureau/dunnings/list?limit=1", nil).into(t, &list)
	if list.Object != "list" || !list.HasMore || list.TotalCount != 2 || list.Limit != 1 || list.Offset != 0 || len(list.Data) != 1 || list.Data[0]["id"] != did {
		t.Fatalf("list %+v", list)
	}
	e.call(m.Key, "GET", "/v1/bureau/dunnings/list?offset=1&limit=1", nil).into(t, &list)
	if list.HasMore || len(list.Data) != 1 || list.Data[0]["id"] != id {
		t.Fatalf("second page %+v", list)
	}
	e.call(m.Key, "GET", "/v1/bureau/dunnings/list?status=DENIED&payment="+denied, nil).into(t, &list)
	if list.TotalCount != 1 || list.Data[0]["id"] != did {
		t.Fatalf("filtered %+v", list)
	}

	// Reports: a customer of the store and a valid CPF/CNPJ; R$ 19.90.
	cust, err := db.InsertCustomer(context.Background(), e.app.DB, store.Customer{ID: domain.NewID("cus_"), AccountID: m.ID,
		Name: "Cliente Consultado", Document: "11222333000181"})
	if err != nil {
		t.Fatal(err)
	}
	if r := e.call(m.Key, "POST", "/v1/bureau/reports/create", map[string]any{"customer": "cus_nobody", "cpfCnpj": "11222333000181"}); r.Status != 400 ||
		!strings.HasPrefix(r.Message, "customer is not a customer of this account") {
		t.Fatalf("unknown customer: %d %s", r.Status, r.Message)
	}
	before = e.available(m)
	rep := e.call(m.Key, "POST", "/v1/bureau/reports/create", map[string]any{"customer": cust.ID, "cpfCnpj": "11.222.333/0001-81"})
	rm := rep.m(t)
	if rep.Status != 200 || rm["status"] != bureau.ReportCompleted || rm["customer"] != cust.ID || rm["cpfCnpj"] != "11222333000181" ||
		rm["fee"] != 19.9 || rm["createdAt"] == nil {
		t.Fatalf("report: %d %v", rep.Status, rm)
	}
	if after := e.available(m); after != before-1990 {
		t.Fatalf("available %v → %v, want the report fee of 19.90 debited", before, after)
	}
	if g := e.call(m.Key, "GET", "/v1/bureau/reports/get/"+rm["id"].(string), nil).m(t); g["score"] != rm["score"] {
		t.Fatalf("get report %v", g)
	}
	var reports struct {
		Total int `json:"total"`
	}
	e.call(m.Key, "GET", "/v1/bureau/reports/list", nil).into(t, &reports)
	if reports.Total != 1 {
		t.Fatalf("reports %+v", reports)
	}
	e.verifyLedger()
}

// With the feature off every bureau route is a 403; another account's
// dunnings, billings and reports are 404s; an unverified account cannot
// request a dunning.
func TestBureauGatedScopedAndVerified(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	owner := e.bureauMerchant()
	off := e.merchant()
	other := e.bureauMerchant()
	overdue := e.overdueBilling(owner, 40)
	r := e.dunning(owner.Key, overdue)
	if r.Status != 200 {
		t.Fatalf("dunning: %d %s", r.Status, r.Message)
	}
	id := r.m(t)["id"].(string)
	n := 0
	for _, rt := range api.Routes() {
		if !strings.HasPrefix(rt.Path, "/bureau/") {
			continue
		}
		n++
		if rt.Feature != domain.FeatureCreditBureau {
			t.Errorf("%s %s is not gated by creditBureau", rt.Method, rt.Path)
		}
		got := e.call(off.Key, rt.Method, "/v1"+strings.ReplaceAll(rt.Path, ":id", id), "{}")
		if got.Status != 403 || !strings.HasPrefix(got.Message, "the feature creditBureau is not enabled") {
			t.Errorf("feature off %s %s: %d %s", rt.Method, rt.Path, got.Status, got.Message)
		}
	}
	if n != 7 {
		t.Fatalf("%d bureau routes, want 7", n)
	}
	for _, path := range []string{"/v1/bureau/dunnings/get/" + id, "/v1/bureau/dunnings/simulate?payment=" + overdue, "/v1/bureau/reports/get/rep_x"} {
		if got := e.call(other.Key, "GET", path, nil); got.Status != 404 {
			t.Errorf("other account %s: %d %s", path, got.Status, got.Message)
		}
	}
	if got := e.dunning(other.Key, overdue); got.Status != 404 {
		t.Errorf("other account's billing dunned: %d %s", got.Status, got.Message)
	}
	var list struct {
		TotalCount int `json:"totalCount"`
	}
	e.call(other.Key, "GET", "/v1/bureau/dunnings/list", nil).into(t, &list)
	if list.TotalCount != 0 {
		t.Errorf("other account lists %d dunnings", list.TotalCount)
	}
	// An unverified account: simulate says why, create refuses.
	unverified := e.merchant()
	e.enable(unverified, domain.FeatureCreditBureau)
	e.fund(unverified, 100)
	uo := e.overdueBilling(unverified, 40)
	sim := e.simulate(unverified.Key, uo)
	if sim.CanBeRequested || !strings.HasPrefix(sim.Reason, "the account is not verified") {
		t.Fatalf("unverified simulation %+v", sim)
	}
	if got := e.dunning(unverified.Key, uo); got.Status != 400 {
		t.Fatalf("unverified dunning: %d %s", got.Status, got.Message)
	}
	e.verifyLedger()
}
