package brcode

import (
	"fmt"
	"strings"
	"testing"
)

// A consent-only Pix Automático code as a PSP's documentation publishes it
// ("jornada 2"): field 26 holds only the GUI, field 80 the recurrence URL.
const publishedRecurrence = "00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***" +
	"80740014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac1200026304F2DA"

func TestRecurrencePublished(t *testing.T) {
	t.Parallel()
	p, err := Parse(publishedRecurrence)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if p.RecurrenceURL != "pix.example.com/rec/2353c790eefb11eaadc10242ac120002" || p.Key != "" || p.URL != "" || p.Amount != 0 {
		t.Fatalf("parsed %+v", p)
	}
	got, err := Encode(p)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	if got != publishedRecurrence {
		t.Fatalf("re-encoded\n%s\nwant\n%s", got, publishedRecurrence)
	}
}

func TestRecurrenceWithFirstPayment(t *testing.T) {
	t.Parallel()
	in := Payload{Key: "7d9f0335-8dcc-4054-9bf9-0dbd61d36906", Amount: 4990, MerchantName: "Academia", MerchantCity: "SAO PAULO",
		TxID: "0197a1b2c3d4e5f6a7b8c9d0e1f2a3b4", RecurrenceURL: "pix.jangada.test/rec/RN9999990820261125ABCDEFGHIJK"}
	code, err := Encode(in)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	field80 := fmt.Sprintf("80%02d0014br.gov.bcb.pix25%02d%s", 22+len(in.RecurrenceURL), len(in.RecurrenceURL), in.RecurrenceURL)
	if !strings.Contains(code, "5405"+"49.90") || !strings.Contains(code, field80+"6304") {
		t.Fatalf("code %s lacks the amount or field 80 before the CRC", code)
	}
	out, err := Parse(code)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if out.RecurrenceURL != in.RecurrenceURL || out.Amount != in.Amount || out.Key != in.Key || out.TxID != in.TxID {
		t.Fatalf("round trip %+v, want %+v", out, in)
	}
	for _, bad := range []Payload{
		{MerchantName: "A", MerchantCity: "B", RecurrenceURL: strings.Repeat("x", 78)},
		{MerchantName: "A", MerchantCity: "B", RecurrenceURL: "pix.example.com/rec/é"},
	} {
		if _, err := Encode(bad); err == nil {
			t.Errorf("Encode(%+v) succeeded, want an error", bad)
		}
	}
}

// BenchmarkEncodeConsent encodes a consent QR with its first payment ("jornada 3").
func BenchmarkEncodeConsent(b *testing.B) {
	p := Payload{Key: "7d9f0335-8dcc-4054-9bf9-0dbd61d36906", Amount: 4990, MerchantName: "Academia", MerchantCity: "SAO PAULO",
		TxID: "0197a1b2c3d4e5f6a7b8c9d0e1f2a3b4", RecurrenceURL: "pix.jangada.test/rec/RR9999990820261125ABCDEFGHIJK"}
	for b.Loop() {
		if _, err := Encode(p); err != nil {
			b.Fatal(err)
		}
	}
}
