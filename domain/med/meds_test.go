package med

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

func TestAutoContests(t *testing.T) {
	for _, c := range []struct {
		f      domain.Features
		amount money.Cents
		want   bool
	}{
		{domain.DefaultFeatures(), 5001, true},
		{domain.DefaultFeatures(), 5000, false}, // "above R$ 50"
		{domain.Features{}, 100_000, false},
	} {
		if got := AutoContests(c.f, c.amount); got != c.want {
			t.Errorf("AutoContests(%+v, %d) = %v", c.f, c.amount, got)
		}
	}
}

func TestMedDeadlines(t *testing.T) {
	if MedDefenceWindow >= MedAnalysisWindow || MedOpeningLimit >= MedReturnLimit {
		t.Fatal("the defence must close before the analysis ends, and opening before the return limit")
	}
	p := MedProtocol("6f1c1c9e-0000-5000-8000-000000000001", time.Date(2026, 11, 25, 23, 0, 0, 0, time.UTC))
	if !regexp.MustCompile(`^MED20261125\d{10}$`).MatchString(p) {
		t.Fatalf("protocol %q", p)
	}
	if MedID("dep_1") != MedID("dep_1") || MedID("dep_1") == MedID("dep_2") {
		t.Fatal("MedID is not derived from the deposit")
	}
}

func TestMedOpeningAndResolveValidate(t *testing.T) {
	str := func(s string) *string { return &s }
	amt := func(c money.Cents) *money.Cents { return &c }
	for _, c := range []struct {
		r    MedOpeningRequest
		want string
	}{
		{MedOpeningRequest{Reason: str("golpe")}, "transactionId is required"},
		{MedOpeningRequest{TransactionID: str("t"), Reason: str("go")}, "reason must have from 3"},
		{MedOpeningRequest{TransactionID: str("t"), Amount: amt(0), Reason: str("golpe")}, "amount must be between"},
		{MedOpeningRequest{TransactionID: str("t"), Reason: str("golpe")}, ""},
	} {
		_, err := c.r.Validate()
		if (err == nil) != (c.want == "") || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.r, err, c.want)
		}
	}
	if s, err := (MedResolveRequest{Status: str("rejected")}).Validate(); err != nil || s != MedRejected {
		t.Errorf("rejected: %q %v", s, err)
	}
	if _, err := (MedResolveRequest{Status: str("UNDER_REVIEW")}).Validate(); err == nil {
		t.Error("UNDER_REVIEW is not an outcome")
	}
}

func TestEvidenceValidate(t *testing.T) {
	str := func(s string) *string { return &s }
	pdf := []byte("%PDF-1.4 minimal")
	jpeg := append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, []byte("JFIF\x00")...)
	b64 := func(b []byte) *string { return str(base64.StdEncoding.EncodeToString(b)) }
	desc := str("Venda regular ao cliente.")
	for _, c := range []struct {
		name string
		r    EvidenceRequest
		want string
	}{
		{"no files", EvidenceRequest{Description: desc}, ""},
		{"json pdf", EvidenceRequest{Description: desc, Attachments: []EvidenceAttachment{{Name: str("a.pdf"), ContentBase64: b64(pdf)}}}, ""},
		{"multipart jpeg", EvidenceRequest{Description: desc, Files: []UploadedFile{{Name: "a.jpg", Bytes: jpeg}}}, ""},
		{"both", EvidenceRequest{Description: desc, Files: []UploadedFile{{Name: "a.jpg", Bytes: jpeg}},
			Attachments: []EvidenceAttachment{{Name: str("a.pdf"), ContentBase64: b64(pdf)}}}, "send attachments"},
		{"html", EvidenceRequest{Description: desc, Files: []UploadedFile{{Name: "a.pdf", Bytes: []byte("<html><body>x</body></html>")}}}, "files[0] must be a PDF, PNG or JPEG"},
		{"empty", EvidenceRequest{Description: desc, Files: []UploadedFile{{Name: "a.pdf"}}}, "files[0] is empty"},
		{"too big", EvidenceRequest{Description: desc, Files: []UploadedFile{{Name: "a.pdf", Bytes: pdf, TooBig: true}}}, "files[0] must be at most"},
		{"path name", EvidenceRequest{Description: desc, Files: []UploadedFile{{Name: "../a.pdf", Bytes: pdf}}}, "files[0].name"},
		{"no description", EvidenceRequest{}, "description is required"},
	} {
		n, err := c.r.Validate()
		if (err == nil) != (c.want == "") || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if err == nil {
			for _, f := range n.Files {
				if len(f.SHA256) != 64 || f.Size != len(f.Bytes) {
					t.Errorf("%s: file %+v", c.name, f.EvidenceFile)
				}
			}
		}
	}
}
