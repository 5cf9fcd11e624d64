// Package codec encrypts every payload Jangada hands to Temporal —
// workflow and activity inputs and results, signals, updates, memo — with
// AES-256-GCM, so that payer documents, PIX keys and descriptions never
// rest in clear in Temporal's history or visibility stores. Ops find
// workflows by search attributes (ids, amount, status), which stay clear;
// the Web UI shows payloads through the codec endpoint (Handler) in dev.
package codec

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"
)

// Metadata of an encrypted payload.
const (
	EncodingEncrypted = "binary/encrypted"
	metaEncoding      = "encoding"
	metaKeyID         = "encryption-key-id"
)

// AESGCM is a converter.PayloadCodec that seals each payload (the whole
// proto, metadata included) with AES-256-GCM under a random nonce.
// Payloads that are not encrypted pass through Decode unchanged, so
// histories written before encryption stay readable.
type AESGCM struct {
	aead  cipher.AEAD
	keyID string
}

var _ converter.PayloadCodec = (*AESGCM)(nil)

// New builds the codec from a 32-byte key.
func New(key []byte) (*AESGCM, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("codec: the payload key must be 32 bytes, got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(key)
	return &AESGCM{aead: aead, keyID: hex.EncodeToString(sum[:4])}, nil
}

// FromBase64 builds the codec from the standard base64 of a 32-byte key
// (JANGADA_PAYLOAD_KEY).
func FromBase64(s string) (*AESGCM, error) {
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("codec: the payload key is not base64: %w", err)
	}
	return New(key)
}

// NewKey is a fresh random key in the form FromBase64 reads.
func NewKey() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("codec: no randomness: " + err.Error())
	}
	return base64.StdEncoding.EncodeToString(b)
}

// DataConverter is the SDK's default converter with payloads sealed by c.
func (c *AESGCM) DataConverter() converter.DataConverter {
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)
}

// Encode seals each payload.
func (c *AESGCM) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		nonce := make([]byte, c.aead.NonceSize())
		if _, err := rand.Read(nonce); err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{metaEncoding: []byte(EncodingEncrypted), metaKeyID: []byte(c.keyID)},
			Data:     c.aead.Seal(nonce, nonce, plain, nil),
		}
	}
	return out, nil
}

// Decode opens each sealed payload and passes the others through.
func (c *AESGCM) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[metaEncoding]) != EncodingEncrypted {
			out[i] = p
			continue
		}
		if id := string(p.GetMetadata()[metaKeyID]); id != c.keyID {
			return nil, fmt.Errorf("codec: payload sealed with key %s, this process holds %s", id, c.keyID)
		}
		n := c.aead.NonceSize()
		if len(p.Data) < n {
			return nil, errors.New("codec: sealed payload too short")
		}
		plain, err := c.aead.Open(nil, p.Data[:n], p.Data[n:], nil)
		if err != nil {
			return nil, fmt.Errorf("codec: open payload: %w", err)
		}
		var q commonpb.Payload
		if err := proto.Unmarshal(plain, &q); err != nil {
			return nil, err
		}
		out[i] = &q
	}
	return out, nil
}

// Handler is the remote codec endpoint the Temporal Web UI calls
// (POST /encode, /decode) to show payloads; only for a development UI on
// this machine: a browser may call it from one of allowOrigins.
func (c *AESGCM) Handler(allowOrigins ...string) http.Handler {
	h := converter.NewPayloadCodecHTTPHandler(c)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && !slices.Contains(allowOrigins, origin) {
			http.Error(w, "origin not allowed", http.StatusForbidden)
			return
		}
		if origin != "" {
			w.Header().Set("Access-Control-Allow-Origin", origin)
		}
		w.Header().Set("Access-Control-Allow-Methods", "POST, OPTIONS")
		w.Header().Set("Access-Control-Allow-Headers", "Content-Type, X-Namespace")
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}
