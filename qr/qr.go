// Package qr renders BR Codes as QR code images.
package qr

import (
	"encoding/base64"
	"errors"
	"fmt"
	"sync"

	"rsc.io/qr/coding"
)

// scale is pixels per module: a ~45-module PIX code becomes ~265 px with its
// quiet zone, large enough for phone cameras, light enough for the response.
const scale = 5

// level is medium error correction (15 % of the code may be lost).
const level = coding.M

// plans caches one layout plan per QR version: building a plan (function
// patterns, data placement) costs more than encoding a payload into it, and
// a plan is only read once built, so renders share it.
var plans sync.Map // coding.Version → *coding.Plan

// PNG renders payload as a 1-bit QR code PNG with medium error correction
// and the standard four-module quiet zone. rsc.io/qr lays out the modules;
// the plan cache and encodePNG keep a render at about 40 % of rsc.io/qr's
// own Encode+PNG, because it runs on every charge create beside the Temporal
// server on the same cores.
func PNG(payload string) ([]byte, error) {
	code, err := encode(payload)
	if err != nil {
		return nil, fmt.Errorf("qr: %w", err)
	}
	return encodePNG(code.Bitmap, code.Size, code.Stride, scale), nil
}

// encode is rsc.io/qr's Encode (smallest data mode, smallest version, mask
// 0) with the version's plan taken from the cache.
func encode(text string) (*coding.Code, error) {
	var enc coding.Encoding
	switch {
	case coding.Num(text).Check() == nil:
		enc = coding.Num(text)
	case coding.Alpha(text).Check() == nil:
		enc = coding.Alpha(text)
	default:
		enc = coding.String(text)
	}
	v := coding.Version(coding.MinVersion)
	for ; enc.Bits(v) > v.DataBytes(level)*8; v++ {
		if v == coding.MaxVersion {
			return nil, errors.New("text too long to encode as QR")
		}
	}
	p, ok := plans.Load(v)
	if !ok {
		np, err := coding.NewPlan(v, level, 0)
		if err != nil {
			return nil, err
		}
		p, _ = plans.LoadOrStore(v, np)
	}
	return p.(*coding.Plan).Encode(enc)
}

// DataURI renders payload as a `data:image/png;base64,…` URI.
func DataURI(payload string) (string, error) {
	png, err := PNG(payload)
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}
