package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	meddom "github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/money"
)

// MED disputes end to end: the sandbox reports an infraction,
// the MEDWorkflow blocks the value, takes the defence and books the
// decision, with exact balances (main account and sub-account).

// Evidence files: the first bytes of real PDF and PNG files.
var (
	medPDF = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n")
	medPNG = append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
)

// openMED reports an infraction against the PIX id and returns the dispute's id.
func (e *env) openMED(m merchant, id string, amount float64) string {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/sandbox/meds", map[string]any{"transactionId": id, "amount": amount, "reason": "golpe do falso vendedor"})
	if r.Status != 200 {
		e.t.Fatalf("open MED: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)["id"].(string)
}

// waitMED waits for the dispute to reach status (and cond, when given).
func (e *env) waitMED(m merchant, id, status string) map[string]any {
	e.t.Helper()
	var got map[string]any
	eventually(e.t, "MED "+id+" to be "+status, func() bool {
		r := e.call(m.Key, "GET", "/v1/meds/get/"+id, nil)
		got = r.m(e.t)
		return r.Status == 200 && got["status"] == status
	})
	return got
}

func (e *env) resolveMED(m merchant, id, status string) {
	e.t.Helper()
	if r := e.call(m.Key, "POST", "/v1/sandbox/meds/"+id+"/resolve", map[string]any{"status": status}); r.Status != 200 {
		e.t.Fatalf("resolve %s: %d %s", status, r.Status, r.Message)
	}
}

// lockedLedger is the balance of the wallet's MED block ("<id>:locked").
func (e *env) lockedLedger(wallet string) float64 {
	e.t.Helper()
	var b money.Cents
	if err := e.app.DB.GetContext(context.Background(), &b,
		`SELECT coalesce((SELECT balance FROM ledger_accounts WHERE id = $1), 0)`, wallet+":locked"); err != nil {
		e.t.Fatal(err)
	}
	return float64(b) / 100
}

func medBlock(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	b, ok := v["med"].(map[string]any)
	if !ok {
		t.Fatalf("MED record without its med block: %v", v)
	}
	return b
}

func (e *env) evidenceMultipart(key, id, description string, files map[string][]byte) resp {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.WriteField("description", description)
	for name, content := range files {
		fw, _ := w.CreateFormFile("files", name)
		fw.Write(content)
	}
	w.Close()
	req, _ := http.NewRequest("POST", e.base+"/v1/meds/"+id+"/evidence", &buf)
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
		e.t.Fatalf("bad JSON %q", raw)
	}
	return r
}

// TestMEDMainAccountLifecycle: a dispute above R$ 50 with the automatic
// contest (default) blocks the value (the deposit's own locked money
// first), refuses the merchant's evidence (403) and defends itself;
// REJECTED releases it. A dispute of R$ 30 takes JSON evidence once and,
// ACCEPTED, returns the value to the payer, never to available. Another
// account's dispute is 404; bad reports are 400s.
func TestMEDMainAccountLifecycle(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	dep, _ := e.paidCharge(m, 100) // net 99.50, locked 24 h
	e.fund(m, 10)
	wantBalance(t, e, m, 109.5, 0, 10)

	if r := e.call(m.Key, "POST", "/v1/sandbox/meds", map[string]any{"transactionId": dep, "amount": 100.01, "reason": "golpe"}); r.Status != 400 || !strings.HasPrefix(r.Message, "amount") {
		t.Fatalf("dispute above the deposit: %d %s", r.Status, r.Message)
	}
	pending := e.createCharge(m, map[string]any{"amount": 5, "description": "Pedido"})["id"].(string)
	if r := e.call(m.Key, "POST", "/v1/sandbox/meds", map[string]any{"transactionId": pending, "reason": "golpe"}); r.Status != 400 {
		t.Fatalf("dispute of an unpaid charge: %d %s", r.Status, r.Message)
	}

	id := e.openMED(m, dep, 100)
	got := e.waitMED(m, id, "UNDER_REVIEW") // the automatic contest
	med := medBlock(t, got)
	if med["blockedAmount"] != 100.0 || med["shortfallAmount"] != 0.0 || med["autoContest"] != true || got["protocol"] == nil || got["infractionId"] == nil {
		t.Fatalf("dispute %v", got)
	}
	if ev, _ := med["evidence"].(map[string]any); ev == nil || ev["automatic"] != true {
		t.Fatalf("automatic defence %v", med["evidence"])
	}
	wantBalance(t, e, m, 9.5, 0, 9.5)
	if e.lockedLedger(m.ID) != 100 {
		t.Fatalf("locked %v, want 100", e.lockedLedger(m.ID))
	}
	if r := e.call(m.Key, "POST", "/v1/meds/"+id+"/evidence", map[string]any{"description": "Venda regular, nota anexa."}); r.Status != 403 {
		t.Fatalf("evidence under the automatic contest: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "GET", "/v1/meds/get/"+got["protocol"].(string), nil); r.Status != 200 || r.m(t)["id"] != id {
		t.Fatalf("get by protocol: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "POST", "/v1/sandbox/meds", map[string]any{"transactionId": dep, "reason": "outro golpe"}); r.Status != 400 {
		t.Fatalf("a second dispute of one PIX: %d %s", r.Status, r.Message)
	}
	other := e.merchant()
	for _, r := range []resp{
		e.call(other.Key, "GET", "/v1/meds/get/"+id, nil),
		e.call(other.Key, "POST", "/v1/meds/"+id+"/evidence", map[string]any{"description": "Venda regular, nota anexa."}),
		e.call(other.Key, "POST", "/v1/sandbox/meds/"+id+"/resolve", map[string]any{"status": "ACCEPTED"}),
		e.call(other.Key, "POST", "/v1/sandbox/meds", map[string]any{"transactionId": dep, "reason": "golpe"}),
	} {
		if r.Status != 404 {
			t.Errorf("another account's dispute: %d %s", r.Status, r.Message)
		}
	}

	e.resolveMED(m, id, "REJECTED")
	e.waitMED(m, id, "REJECTED")
	wantBalance(t, e, m, 109.5, 0, 10) // the deposit's money is locked again until its 24 h end
	if r := e.call(m.Key, "POST", "/v1/sandbox/meds/"+id+"/resolve", map[string]any{"status": "ACCEPTED"}); r.Status != 400 {
		t.Fatalf("resolving a closed dispute: %d %s", r.Status, r.Message)
	}
	if got := eventTypes(t, e, id); strings.Join(got, ",") != "med.created,med.evidence_sent,med.updated" {
		t.Fatalf("events %v", got)
	}

	// R$ 30: the automatic contest does not apply; the merchant defends.
	dep2, _ := e.paidCharge(m, 40) // net 39.50
	id2 := e.openMED(m, dep2, 30)
	e.waitMED(m, id2, "OPEN")
	wantBalance(t, e, m, 119, 0, 10)
	r := e.call(m.Key, "POST", "/v1/meds/"+id2+"/evidence", map[string]any{"description": "Venda regular, nota fiscal anexa.",
		"attachments": []map[string]any{{"name": "nota.pdf", "contentBase64": base64.StdEncoding.EncodeToString(medPDF)}}})
	if r.Status != 200 || r.m(t)["status"] != "UNDER_REVIEW" {
		t.Fatalf("evidence: %d %s", r.Status, r.Message)
	}
	ev := medBlock(t, r.m(t))["evidence"].(map[string]any)
	files := ev["files"].([]any)
	if ev["automatic"] != false || len(files) != 1 || files[0].(map[string]any)["contentType"] != "application/pdf" || len(files[0].(map[string]any)["sha256"].(string)) != 64 {
		t.Fatalf("evidence %v", ev)
	}
	if r := e.call(m.Key, "POST", "/v1/meds/"+id2+"/evidence", map[string]any{"description": "Mais uma prova da venda."}); r.Status != 400 {
		t.Fatalf("evidence on an UNDER_REVIEW dispute: %d %s", r.Status, r.Message)
	}
	e.resolveMED(m, id2, "ACCEPTED")
	done := e.waitMED(m, id2, "ACCEPTED")
	if medBlock(t, done)["returnedAmount"] != 30.0 {
		t.Fatalf("returned %v", medBlock(t, done))
	}
	wantBalance(t, e, m, 119, 0, 10) // the block went to the payer: available is as it was under the block
	if e.lockedLedger(m.ID) != 0 {
		t.Fatalf("locked %v after the decisions", e.lockedLedger(m.ID))
	}
	if r := e.call(m.Key, "POST", "/v1/meds/"+id2+"/evidence", map[string]any{"description": "Prova depois da decisão."}); r.Status != 400 {
		t.Fatalf("evidence on a closed dispute: %d %s", r.Status, r.Message)
	}
	l := e.lenient().call(m.Key, "GET", "/v1/meds/list?status=accepted", nil) // any case
	var page struct {
		Items []map[string]any
		Total int
	}
	l.into(t, &page)
	if l.Status != 200 || page.Total != 1 || page.Items[0]["id"] != id2 {
		t.Fatalf("list ACCEPTED: %d %v", l.Status, page)
	}
	if l := e.call(m.Key, "GET", "/v1/meds/list", nil); l.Status != 200 || l.m(t)["total"] != 2.0 {
		t.Fatalf("list: %d %s", l.Status, l.Data)
	}
	e.verifyLedger()
}

// TestMEDSubaccountAndShortfall: a dispute of a deposit credited to a
// sub-account blocks the sub-account's money (availablePadrao →
// lockedPadrao) and takes multipart evidence; CANCELED gives it back. A
// dispute on money already spent blocks nothing, records the shortfall,
// and ACCEPTED returns what arrived since; no balance goes negative.
func TestMEDSubaccountAndShortfall(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, sub := e.pixSubMerchant()
	if r := e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"features": map[string]any{domain.FeatureAutoContest: false}}); r.Status != 200 {
		t.Fatalf("autoContest off: %d %s", r.Status, r.Message)
	}
	c := e.createCharge(m, map[string]any{"amount": 100, "description": "Venda", "subaccountId": sub})["id"].(string)
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+c+"/pay", nil)
	e.waitStatus(m, c, "COMPLETED")
	wantSubBalance(t, e, m, sub, 0, 99.25, 0, 0)

	id := e.openMED(m, c, 100)
	got := e.waitMED(m, id, "OPEN")
	if b := medBlock(t, got); b["blockedAmount"] != 99.25 || b["shortfallAmount"] != 0.75 || got["subaccountId"] != sub {
		t.Fatalf("dispute %v", got)
	}
	wantSubBalance(t, e, m, sub, 0, 0, 99.25, 0)
	wantBalance(t, e, m, 0, 0, 0)
	if r := e.evidenceMultipart(m.Key, id, "Venda regular, comprovante anexo.", map[string][]byte{"tela.txt": []byte("plain text")}); r.Status != 400 || !strings.Contains(r.Message, "PDF, PNG or JPEG") {
		t.Fatalf("a text file as evidence: %d %s", r.Status, r.Message)
	}
	big := append(append([]byte{}, medPNG...), make([]byte, meddom.MaxEvidenceFile)...)
	if r := e.evidenceMultipart(m.Key, id, "Venda regular, comprovante anexo.", map[string][]byte{"big.png": big}); r.Status != 400 || !strings.Contains(r.Message, "at most") {
		t.Fatalf("a file over the cap: %d %s", r.Status, r.Message)
	}
	if r := e.evidenceMultipart(m.Key, id, "Venda regular, comprovante anexo.", map[string][]byte{"tela.png": medPNG}); r.Status != 200 || r.m(t)["status"] != "UNDER_REVIEW" {
		t.Fatalf("multipart evidence: %d %s", r.Status, r.Message)
	}
	e.resolveMED(m, id, "CANCELED")
	e.waitMED(m, id, "CANCELED")
	wantSubBalance(t, e, m, sub, 0, 99.25, 0, 0)

	// Money already spent: the deposit's net left through an adjustment.
	s := e.merchant()
	dep, _ := e.paidCharge(s, 20)
	e.fund(s, -19.5)
	sid := e.openMED(s, dep, 20)
	got = e.waitMED(s, sid, "OPEN")
	if b := medBlock(t, got); b["blockedAmount"] != 0.0 || b["shortfallAmount"] != 20.0 {
		t.Fatalf("dispute on spent money %v", got)
	}
	e.fund(s, 5)
	e.resolveMED(s, sid, "ACCEPTED")
	got = e.waitMED(s, sid, "ACCEPTED")
	if b := medBlock(t, got); b["returnedAmount"] != 5.0 || b["shortfallAmount"] != 15.0 {
		t.Fatalf("returned with a shortfall %v", got)
	}
	wantBalance(t, e, s, 0, 0, 0)
	e.verifyLedger()
}
