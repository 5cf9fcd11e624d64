package api

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	bureaudom "github.com/jangada/jangada/domain/bureau"
)

// dunningPDF is the start of a PDF file: its type is detected from these bytes.
const dunningPDF = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"

// dunningJSON is a valid dunning in its JSON form (documents in base64).
const dunningJSON = `{"payment":"bil_1","type":"CREDIT_BUREAU","customerName":"Maria Silva","customerCpfCnpj":"529.982.247-25",` +
	`"customerPostalCode":"01310-100","customerAddress":"Av. Paulista","customerAddressNumber":"1000","customerProvince":"Bela Vista",` +
	`"customerCity":"São Paulo","customerState":"sp","documents":{"name":"nota.pdf","contentBase64":"JVBERi0xLjQK"}}`

// dunningFields are a valid dunning form's fields.
func dunningFields() map[string]string {
	return map[string]string{"payment": "bil_1", "type": "CREDIT_BUREAU", "description": "Mensalidade", "customerName": "Maria Silva",
		"customerCpfCnpj": "529.982.247-25", "customerPrimaryPhone": "(11) 98765-4321", "customerEmail": "maria@example.com",
		"customerPostalCode": "01310100", "customerAddress": "Av. Paulista", "customerAddressNumber": "1000",
		"customerComplement": "ap 1", "customerProvince": "Bela Vista", "customerCity": "São Paulo", "customerState": "SP"}
}

// dunningMultipart builds the multipart body of a dunning create.
func dunningMultipart(t *testing.T, fields map[string]string, file []byte) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if file != nil {
		fw, err := w.CreateFormFile("documents", "nota.pdf")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	w.Close()
	return buf.String(), w.FormDataContentType()
}

func (f *fixture) postMultipart(path, body, contentType string) *httptest.ResponseRecorder {
	f.t.Helper()
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("X-API-Key", testSecret)
	w := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(w, r)
	return w
}

// The multipart create reads every CONTRACTS.md field and the documents
// file, whose type is taken from its bytes.
func TestHandlerDunningCreateMultipart(t *testing.T) {
	t.Parallel()
	f := newFixture(t).withAllFeatures("bureau/dunnings/create")
	f.bureau.EXPECT().CreateDunning(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_, _ any, in bureaudom.NewDunning) (bureaudom.DunningView, error) {
			d := in.Debtor
			if in.Payment != "bil_1" || in.Description != "Mensalidade" || d.Name != "Maria Silva" || d.CpfCnpj != "52998224725" ||
				*d.PrimaryPhone != "11987654321" || *d.Email != "maria@example.com" || d.PostalCode != "01310100" || d.State != "SP" ||
				*d.Complement != "ap 1" || in.DocumentType != "application/pdf" || in.DocumentName != "nota.pdf" || string(in.Document) != dunningPDF {
				t.Errorf("use case got %+v / %+v", in, d)
			}
			return bureaudom.DunningView{ID: "dun_1", Status: bureaudom.DunningPending, Type: bureaudom.DunningTypeCreditBureau, Payment: "bil_1",
				Value: 10000, Fee: bureaudom.DunningFee, Debtor: d}, nil
		})
	body, ct := dunningMultipart(t, dunningFields(), []byte(dunningPDF))
	data := expectOK(t, f.postMultipart("/v1/bureau/dunnings/create", body, ct), "Dunning requested")
	expectFields(t, data, map[string]string{"id": `"dun_1"`, "status": `"PENDING"`, "type": `"CREDIT_BUREAU"`, "payment": `"bil_1"`,
		"customerName": `"Maria Silva"`, "customerCpfCnpj": `"52998224725"`, "fee": `12.90`, "value": `100.00`})
}

// Each bad field is a 400 naming it, and no use case is called.
func TestHandlerDunningCreateRefusals(t *testing.T) {
	t.Parallel()
	with := func(k, v string) map[string]string { m := dunningFields(); m[k] = v; return m }
	without := func(k string) map[string]string { m := dunningFields(); delete(m, k); return m }
	cases := []struct {
		name   string
		fields map[string]string
		file   []byte
		want   string
	}{
		{"no payment", without("payment"), []byte(dunningPDF), "payment is required"},
		{"other type", with("type", "PROTEST"), []byte(dunningPDF), "type must be CREDIT_BUREAU"},
		{"bad cpf", with("customerCpfCnpj", "529.982.247-24"), []byte(dunningPDF), "customerCpfCnpj must be a valid CPF or CNPJ"},
		{"bad cep", with("customerPostalCode", "0131"), []byte(dunningPDF), "customerPostalCode"},
		{"bad state", with("customerState", "XX"), []byte(dunningPDF), "customerState"},
		{"no city", without("customerCity"), []byte(dunningPDF), "customerCity is required"},
		{"bad email", with("customerEmail", "maria"), []byte(dunningPDF), "customerEmail must be an e-mail"},
		{"bad phone", with("customerPrimaryPhone", "123"), []byte(dunningPDF), "customerPrimaryPhone"},
		{"no documents", dunningFields(), nil, "documents is required"},
		{"a text file", dunningFields(), []byte("not a pdf at all"), "documents must be a PDF, PNG or JPEG file"},
		{"too big", dunningFields(), append([]byte(dunningPDF), make([]byte, bureaudom.MaxDunningDocument)...), "documents must have"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).withAllFeatures("bureau/dunnings/create")
			body, ct := dunningMultipart(t, c.fields, c.file)
			expectFail(t, f.postMultipart("/v1/bureau/dunnings/create", body, ct), http.StatusBadRequest, c.want)
		})
	}
	f := newFixture(t).withAllFeatures("bureau/dunnings/create")
	expectFail(t, f.merchant(http.MethodPost, "/v1/bureau/dunnings/create",
		strings.Replace(dunningJSON, "JVBERi0xLjQK", "***", 1)), http.StatusBadRequest, "documents.contentBase64 must be standard base64")
}

// The list answers the spec's own envelope, pages by offset and limit (at
// most 100) and filters; bad filters are 400s.
func TestHandlerDunningList(t *testing.T) {
	t.Parallel()
	f := newFixture(t).withAllFeatures("bureau/dunnings/list")
	f.bureau.EXPECT().ListDunnings(gomock.Any(), gomock.Any(), bureaudom.DunningFilter{Offset: 2, Limit: 2, Status: bureaudom.DunningProcessed,
		Type: bureaudom.DunningTypeCreditBureau, Payment: "bil_1"}).Return([]bureaudom.Dunning{{ID: "dun_3"}, {ID: "dun_4"}}, 5, nil)
	data := expectOK(t, f.merchant(http.MethodGet, "/v1/bureau/dunnings/list?offset=2&limit=2&status=processed&type=CREDIT_BUREAU&payment=bil_1", ""), "Dunnings")
	expectFields(t, data, map[string]string{"object": `"list"`, "hasMore": `true`, "totalCount": `5`, "limit": `2`, "offset": `2`})
	if !strings.Contains(string(data["data"]), `"dun_3"`) {
		t.Errorf("data %s", data["data"])
	}
	for q, want := range map[string]string{"limit=101": "limit must be an integer from 1 to 100", "offset=-1": "offset",
		"status=DONE": "status must be one of", "type=PROTEST": "type must be CREDIT_BUREAU"} {
		expectFail(t, f.merchant(http.MethodGet, "/v1/bureau/dunnings/list?"+q, ""), http.StatusBadRequest, want)
	}
}

// Simulate needs the billing; another account's record is a 404; a report
// needs a valid CPF/CNPJ.
func TestHandlerBureauErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t).withAllFeatures("*")
	expectFail(t, f.merchant(http.MethodGet, "/v1/bureau/dunnings/simulate", ""), http.StatusBadRequest, "payment is required")
	f.bureau.EXPECT().GetDunning(gomock.Any(), gomock.Any(), "dun_other").Return(bureaudom.DunningView{}, domain.NotFound("dunning"))
	expectFail(t, f.merchant(http.MethodGet, "/v1/bureau/dunnings/get/dun_other", ""), http.StatusNotFound, "dunning not found")
	f.bureau.EXPECT().Simulate(gomock.Any(), gomock.Any(), "bil_other").Return(bureaudom.DunningSimulation{}, domain.NotFound("billing"))
	expectFail(t, f.merchant(http.MethodGet, "/v1/bureau/dunnings/simulate?payment=bil_other", ""), http.StatusNotFound, "billing not found")
	expectFail(t, f.merchant(http.MethodPost, "/v1/bureau/reports/create", `{"customer":"cus_1","cpfCnpj":"11222333000180"}`),
		http.StatusBadRequest, "cpfCnpj must be a valid CPF or CNPJ")
	expectFail(t, f.merchant(http.MethodPost, "/v1/bureau/reports/create", `{"cpfCnpj":"52998224725"}`), http.StatusBadRequest, "customer is required")
	// The feature off: 403 before any use case.
	off := newFixture(t).authorized("*")
	expectFail(t, off.merchant(http.MethodGet, "/v1/bureau/reports/list", ""), http.StatusForbidden, "the feature creditBureau is not enabled")
}
