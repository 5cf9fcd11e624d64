// Package qr renders BR Codes as QR code images.
package qr

import (
	"encoding/base64"
	"fmt"

	qrcode "github.com/skip2/go-qrcode"
)

// size in pixels: large enough for phone cameras, small enough to keep the
// create response light.
const size = 256

// PNG renders payload as a QR code PNG with medium error correction.
func PNG(payload string) ([]byte, error) {
	png, err := qrcode.Encode(payload, qrcode.Medium, size)
	if err != nil {
		return nil, fmt.Errorf("qr: %w", err)
	}
	return png, nil
}

// DataURI renders payload as a `data:image/png;base64,…` URI.
func DataURI(payload string) (string, error) {
	png, err := PNG(payload)
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}
