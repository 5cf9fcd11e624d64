package api

import (
	"bytes"
	"encoding/base64"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/med"
)

// Evidence fixtures: the first bytes of a real PDF and PNG (what
// http.DetectContentType sniffs), and a text file.
var (
	pdfBytes  = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n")
	pngBytes  = append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 32)...)
	textBytes = []byte("just some text, not a document")
)

// TestHandlerMEDEvidenceJSON: a JSON evidence reaches the use case with
// each attachment decoded, its type sniffed from its bytes and its hash;
// bad attachments are 400s naming the field, and the use case is not called.
func TestHandlerMEDEvidenceJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t).authorized("meds/evidence")
	f.meds.EXPECT().Evidence(gomock.Any(), gomock.Any(), "med_1", gomock.Any()).DoAndReturn(
		func(_, _ any, _ string, in med.NewEvidence) (domain.Transaction, error) {
			if in.Description != "Venda regular: nota fiscal anexa." || len(in.Files) != 2 ||
				in.Files[0].ContentType != "application/pdf" || in.Files[1].ContentType != "image/png" ||
				in.Files[0].Name != "nota.pdf" || len(in.Files[0].SHA256) != 64 || !bytes.Equal(in.Files[1].Bytes, pngBytes) {
				t.Errorf("evidence %+v", in)
			}
			return routeMED, nil
		})
	body := `{"description":"Venda regular: nota fiscal anexa.","attachments":[` +
		`{"name":"nota.pdf","contentBase64":"` + base64.StdEncoding.EncodeToString(pdfBytes) + `"},` +
		`{"name":"tela.png","contentBase64":"` + base64.StdEncoding.EncodeToString(pngBytes) + `"}]}`
	if w := f.merchant("POST", "/v1/meds/med_1/evidence", body); w.Code != 200 {
		t.Fatalf("evidence: %d %s", w.Code, w.Body)
	}

	big := base64.StdEncoding.EncodeToString(append(append([]byte{}, pdfBytes...), make([]byte, med.MaxEvidenceFile)...))
	for name, c := range map[string]struct{ body, message string }{
		"no description":   {`{"attachments":[]}`, "description is required"},
		"short":            {`{"description":"curta"}`, "description must have from 10"},
		"not base64":       {`{"description":"Venda regular, ok.","attachments":[{"name":"a.pdf","contentBase64":"%%%"}]}`, "attachments[0].contentBase64 must be standard base64"},
		"no name":          {`{"description":"Venda regular, ok.","attachments":[{"contentBase64":"` + base64.StdEncoding.EncodeToString(pdfBytes) + `"}]}`, "attachments[0].name is required"},
		"text file":        {`{"description":"Venda regular, ok.","attachments":[{"name":"a.txt","contentBase64":"` + base64.StdEncoding.EncodeToString(textBytes) + `"}]}`, "attachments[0] must be a PDF, PNG or JPEG"},
		"too big":          {`{"description":"Venda regular, ok.","attachments":[{"name":"a.pdf","contentBase64":"` + big + `"}]}`, "attachments[0] must be at most 262144 bytes"},
		"attachments kind": {`{"description":"Venda regular, ok.","attachments":"x"}`, "attachments must be a list"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t).authorized("meds/evidence") // the use case must not be called
			expectFail(t, f.merchant("POST", "/v1/meds/med_1/evidence", c.body), http.StatusBadRequest, c.message)
		})
	}
}

// multipartBody builds a multipart evidence with description and files.
func multipartBody(t *testing.T, description string, files map[string][]byte) (*bytes.Buffer, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	if description != "" {
		w.WriteField("description", description)
	}
	for name, content := range files {
		fw, err := w.CreateFormFile("files", name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(content)
	}
	w.Close()
	return &b, w.FormDataContentType()
}

func serveMultipart(f *fixture, body *bytes.Buffer, ct string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/v1/meds/med_1/evidence", body)
	r.Header.Set("Content-Type", ct)
	r.Header.Set("X-API-Key", testSecret)
	w := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(w, r)
	return w
}

// TestHandlerMEDEvidenceMultipart: the same rules through multipart.
func TestHandlerMEDEvidenceMultipart(t *testing.T) {
	t.Parallel()
	f := newFixture(t).authorized("meds/evidence")
	f.meds.EXPECT().Evidence(gomock.Any(), gomock.Any(), "med_1", gomock.Any()).DoAndReturn(
		func(_, _ any, _ string, in med.NewEvidence) (domain.Transaction, error) {
			if len(in.Files) != 1 || in.Files[0].ContentType != "application/pdf" || in.Files[0].Name != "nota.pdf" {
				t.Errorf("evidence %+v", in)
			}
			return routeMED, nil
		})
	body, ct := multipartBody(t, "Venda regular: nota fiscal anexa.", map[string][]byte{"nota.pdf": pdfBytes})
	if w := serveMultipart(f, body, ct); w.Code != 200 {
		t.Fatalf("evidence: %d %s", w.Code, w.Body)
	}
	big := append(append([]byte{}, pngBytes...), make([]byte, med.MaxEvidenceFile)...)
	for name, c := range map[string]struct {
		description string
		files       map[string][]byte
		message     string
	}{
		"text file":      {"Venda regular, ok.", map[string][]byte{"a.txt": textBytes}, "files[0] must be a PDF, PNG or JPEG"},
		"too big":        {"Venda regular, ok.", map[string][]byte{"a.png": big}, "files[0] must be at most 262144 bytes"},
		"no description": {"", map[string][]byte{"a.pdf": pdfBytes}, "description is required"},
		"too many": {"Venda regular, ok.", map[string][]byte{"a.pdf": pdfBytes, "b.pdf": pdfBytes, "c.pdf": pdfBytes, "d.pdf": pdfBytes},
			"files must hold at most 3 files"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t).authorized("meds/evidence")
			body, ct := multipartBody(t, c.description, c.files)
			expectFail(t, serveMultipart(f, body, ct), http.StatusBadRequest, c.message)
		})
	}
}

// TestHandlerMEDRefusals: the use case's refusals map to their statuses
// (403 under the automatic contest, 400 closed, 404 another account's),
// and the list's status filter is checked.
func TestHandlerMEDRefusals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err    error
		status int
	}{
		{domain.Forbidden("the automatic contest is on"), http.StatusForbidden},
		{domain.Invalidf("MED med_1 is ACCEPTED: evidence is accepted only while it is OPEN"), http.StatusBadRequest},
		{domain.NotFound("MED"), http.StatusNotFound},
	} {
		f := newFixture(t).authorized("meds/evidence")
		f.meds.EXPECT().Evidence(gomock.Any(), gomock.Any(), "med_1", gomock.Any()).Return(domain.Transaction{}, c.err)
		expectFail(t, f.merchant("POST", "/v1/meds/med_1/evidence", `{"description":"Venda regular, ok."}`), c.status, c.err.Error())
	}
	f := newFixture(t).authorized("meds/list")
	expectFail(t, f.merchant("GET", "/v1/meds/list?status=PENDING", ""), http.StatusBadRequest, "status must be one of OPEN")
	f = newFixture(t).authorized("meds/get")
	if w := f.merchant("GET", "/v1/meds/list", ""); w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "meds/list") {
		t.Fatalf("list without its permission: %d %s", w.Code, w.Body)
	}
}
