// Package codec encrypts every payload Jangada hands to Temporal —
// workflow and activity inputs and results, signals, updates, memo — with
// AES-256-GCM, so that payer documents, PIX keys and descriptions never
// rest in clear in Temporal's history or visibility stores. Ops find
// workflows by search attributes (ids, amount, status), which stay clear;
// the Web UI shows payloads through the codec endpoint (Handler) in dev.
//
// Sealing is also what makes a payload Jangada's: AES-GCM authenticates
// what it seals, and Decode refuses every payload that is not sealed with
// the key (clear, sealed with another key, or altered). A client of the
// Temporal frontend that holds no key cannot hand the worker a workflow
// input, a signal, an update or an activity result it would act on: a
// forged `processor-notice` saying "paid" is dropped, never settled.
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
	"log/slog"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"
)

// Metadata of an encrypted payload.
const (
	EncodingEncrypted = "binary/encrypted"
	metaEncoding      = "encoding"
	metaKeyID         = "encryption-key-id"
)

// ErrNotSealed is the error Decode returns (wrapped) for a payload that is
// not sealed with this process's key: in clear, sealed with another key,
// or altered after sealing.
var ErrNotSealed = errors.New("codec: payload not sealed with the payload key")

// Refused counts the payloads Decode refused, by reason ("clear", "key",
// "tampered"): in a worker, each one is a payload someone handed Temporal
// without the key — a forged signal or input, or a process configured
// with another JANGADA_PAYLOAD_KEY.
var Refused = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "jangada_temporal_payloads_refused_total",
	Help: "Temporal payloads the codec refused to open: not sealed with the payload key (clear, another key, tampered).",
}, []string{"reason"})

func init() {
	prometheus.MustRegister(Refused)
	// On /metrics from the start, at 0 (the Grafana dashboard rates it).
	for _, reason := range []string{"clear", "key", "tampered"} {
		Refused.WithLabelValues(reason)
	}
}

// AESGCM is a converter.PayloadCodec that seals each payload (the whole
// proto, metadata included) with AES-256-GCM under a random nonce, and
// opens only payloads it sealed: Decode refuses the others (ErrNotSealed).
// Histories written in clear, before payloads were sealed, no longer
// replay: docs/security.md says how to upgrade from such a version.
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

// FailureConverter turns errors into Temporal failures with their message
// and stack trace moved into an attribute payload sealed by c: an error's
// text can carry merchant data (a recipient, an amount, a key), and the
// history keeps it. Only the failure's type and "Encoded failure" stay in
// clear; the client and the worker (and the UI through the codec endpoint)
// read the rest back. A failure written before, with no encoded attributes,
// reads as it was.
func (c *AESGCM) FailureConverter() converter.FailureConverter {
	return temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter: c.DataConverter(), EncodeCommonAttributes: true,
	})
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

// Decode opens each sealed payload and refuses every other one with an
// error wrapping ErrNotSealed, so that nothing a client without the key
// wrote reaches workflow code: the SDK drops a signal it cannot decode
// (logging "Corrupted signal received"), fails the workflow task or the
// activity whose input it cannot decode, and the update. Only an empty
// payload (no metadata, no data: what the server records for an absent
// value) passes through; it carries nothing to act on, and the data
// converter refuses to read it as a value.
func (c *AESGCM) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if empty(p) {
			out[i] = p
			continue
		}
		q, err := c.open(p)
		if err != nil {
			slog.Warn("codec: refused a Temporal payload not sealed with the payload key", "error", err)
			return nil, err
		}
		out[i] = q
	}
	return out, nil
}

// open opens one sealed payload, counting a refusal in Refused.
func (c *AESGCM) open(p *commonpb.Payload) (*commonpb.Payload, error) {
	refuse := func(reason string, err error) (*commonpb.Payload, error) {
		Refused.WithLabelValues(reason).Inc()
		return nil, fmt.Errorf("%w: %w", ErrNotSealed, err)
	}
	if enc := string(p.GetMetadata()[metaEncoding]); enc != EncodingEncrypted {
		return refuse("clear", fmt.Errorf("encoding %q, not %s", enc, EncodingEncrypted))
	}
	if id := string(p.GetMetadata()[metaKeyID]); id != c.keyID {
		return refuse("key", fmt.Errorf("sealed with key %q, this process holds %s", id, c.keyID))
	}
	n := c.aead.NonceSize()
	if len(p.Data) < n {
		return refuse("tampered", errors.New("sealed payload too short"))
	}
	plain, err := c.aead.Open(nil, p.Data[:n], p.Data[n:], nil)
	if err != nil {
		return refuse("tampered", err)
	}
	var q commonpb.Payload
	if err := proto.Unmarshal(plain, &q); err != nil {
		return refuse("tampered", err)
	}
	return &q, nil
}

// empty reports a payload with nothing in it.
func empty(p *commonpb.Payload) bool {
	return p == nil || (len(p.GetMetadata()) == 0 && len(p.GetData()) == 0)
}

// display is the codec the Web UI's endpoint uses: it seals like c (so an
// operator's signal or reset from the UI is one the worker accepts), and
// shows clear payloads as they are instead of failing the whole page — a
// forged payload was never secret, and the operator investigating a
// refusal needs to see what it said. Nothing the worker runs decodes
// through it.
type display struct{ c *AESGCM }

func (d display) Encode(p []*commonpb.Payload) ([]*commonpb.Payload, error) { return d.c.Encode(p) }

func (d display) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[metaEncoding]) != EncodingEncrypted {
			out[i] = p
			continue
		}
		q, err := d.c.open(p)
		if err != nil {
			return nil, err
		}
		out[i] = q
	}
	return out, nil
}

// Handler is the remote codec endpoint the Temporal Web UI calls
// (POST /encode, /decode) to show payloads and to seal an operator's
// signal, reset or terminate details: whoever reaches it can make payloads
// the worker accepts, so it is served only behind the operator's access —
// in dev on a loopback-only listener of its own (app.Options.CodecListener),
// in production by `jangada codec` on the operator's side, behind the
// operator's access (docs/security.md). Serve is how it is served. A
// browser may call it from one of allowOrigins.
func (c *AESGCM) Handler(allowOrigins ...string) http.Handler {
	h := converter.NewPayloadCodecHTTPHandler(display{c})
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

// Serve serves Handler(allowOrigins...) on l, which must listen on a
// loopback address only (not a wildcard such as 0.0.0.0): whoever reaches
// the endpoint holds the payload key's power — it seals what the worker
// then accepts as Jangada's own (a "paid" notice, an input) and opens
// every sealed payload. The listener itself is the gate, never the
// caller's address (behind a same-host proxy every caller is loopback),
// so the endpoint is never on the merchant port. Shutdown or Close the
// returned server to stop.
func (c *AESGCM) Serve(l net.Listener, allowOrigins ...string) (*http.Server, error) {
	if tcp, ok := l.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		return nil, fmt.Errorf("codec endpoint on %s: it listens on a loopback address only", l.Addr())
	}
	srv := &http.Server{Handler: c.Handler(allowOrigins...), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("codec endpoint stopped", "addr", l.Addr().String(), "error", err)
		}
	}()
	return srv, nil
}
