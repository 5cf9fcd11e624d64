package qr

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

const sample = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406150.255802BR5909Loja Demo6009SAO PAULO62360532019f0c0de00007000800000000000163041D3D"

// decode reads a QR image back with an independent decoder.
func decode(t *testing.T, img image.Image) string {
	t.Helper()
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.GetText()
}

// TestDataURIDecodesToPayload reads every image back with an independent
// decoder: payloads of three QR versions (each its own cached plan), each
// rendered twice, so a plan reused from the cache is checked too.
func TestDataURIDecodesToPayload(t *testing.T) {
	for _, payload := range []string{sample, sample[:60], sample + sample[:90], sample} {
		checkDecodes(t, payload)
	}
}

func checkDecodes(t *testing.T, payload string) {
	t.Helper()
	uri, err := DataURI(payload)
	if err != nil {
		t.Fatal(err)
	}
	raw, ok := strings.CutPrefix(uri, "data:image/png;base64,")
	if !ok {
		t.Fatalf("prefix: %.30s", uri)
	}
	b, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() < 200 {
		t.Fatalf("image too small for cameras: %v", img.Bounds())
	}
	if got := decode(t, img); got != payload {
		t.Fatalf("decoded %q", got)
	}
}

func BenchmarkDataURI(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DataURI(sample); err != nil {
			b.Fatal(err)
		}
	}
}
