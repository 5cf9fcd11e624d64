package codec

import (
	"bytes"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

func TestPayloadsAreSealedAndOpened(t *testing.T) {
	t.Parallel()
	c, err := FromBase64(NewKey())
	if err != nil {
		t.Fatal(err)
	}
	dc := c.DataConverter()
	secret := map[string]string{"document": "52998224725", "pixKey": "ana@example.com", "description": "Pedido 1001"}
	p, err := dc.ToPayload(secret)
	if err != nil {
		t.Fatal(err)
	}
	for _, clear := range []string{"52998224725", "ana@example.com", "Pedido 1001", "json/plain"} {
		if bytes.Contains(p.Data, []byte(clear)) || strings.Contains(p.String(), clear) {
			t.Fatalf("sealed payload shows %q", clear)
		}
	}
	var back map[string]string
	if err := dc.FromPayload(p, &back); err != nil || back["document"] != "52998224725" {
		t.Fatalf("open: %v %v", back, err)
	}
	// A payload written before encryption still reads.
	plain, _ := converter.GetDefaultDataConverter().ToPayload("legacy")
	var s string
	if err := dc.FromPayload(plain, &s); err != nil || s != "legacy" {
		t.Fatalf("clear payload: %q %v", s, err)
	}
	// Another key cannot open it, nor can a tampered one be opened.
	other, _ := FromBase64(NewKey())
	if _, err := other.Decode([]*commonpb.Payload{p}); err == nil {
		t.Fatal("another key opened the payload")
	}
	p.Data[len(p.Data)-1] ^= 1
	if _, err := c.Decode([]*commonpb.Payload{p}); err == nil {
		t.Fatal("a tampered payload opened")
	}
	if _, err := New([]byte("short")); err == nil {
		t.Fatal("a short key was accepted")
	}
}
