package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
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

// A payload the worker did not seal is refused, whatever it says: a client
// of the Temporal frontend without the key (here, the SDK's plain
// converter) cannot forge a processor notice, an input or an update.
// Before, Decode passed clear payloads through and the forged "paid"
// notice settled the charge.
func TestUnsealedAndTamperedPayloadsAreRefused(t *testing.T) {
	t.Parallel()
	c, err := FromBase64(NewKey())
	if err != nil {
		t.Fatal(err)
	}
	dc := c.DataConverter()
	notice := map[string]string{"outcome": "paid", "endToEndId": "E00000000202611231200forged00000"}
	forged, _ := converter.GetDefaultDataConverter().ToPayload(notice)
	sealed, err := dc.ToPayload(notice)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := FromBase64(NewKey())
	otherSealed, _ := other.DataConverter().ToPayload(notice)
	flipped := clone(sealed)
	flipped.Data[len(flipped.Data)-1] ^= 1
	short := clone(sealed)
	short.Data = short.Data[:4]
	// A payload claiming to be sealed under this key id, with data made by
	// someone who knows the id (it is in every history) but not the key.
	guessed := clone(sealed)
	guessed.Data = bytes.Repeat([]byte{7}, len(sealed.Data))
	// A clear payload that names this key id but not the encoding.
	relabelled := clone(forged)
	relabelled.Metadata[metaKeyID] = sealed.Metadata[metaKeyID]
	nullPayload, _ := converter.GetDefaultDataConverter().ToPayload(nil)

	for name, p := range map[string]*commonpb.Payload{
		"clear json (the forged notice)": forged, "clear null": nullPayload, "clear relabelled": relabelled,
		"another key": otherSealed, "tampered": flipped, "truncated": short, "made without the key": guessed,
	} {
		before := refusals(reasonOf(name))
		if _, err := c.Decode([]*commonpb.Payload{sealed, p}); !errors.Is(err, ErrNotSealed) {
			t.Errorf("%s: Decode = %v, want ErrNotSealed", name, err)
		}
		var got map[string]string
		if err := dc.FromPayload(p, &got); err == nil {
			t.Errorf("%s: the data converter read %v", name, got)
		}
		if refusals(reasonOf(name)) <= before {
			t.Errorf("%s: the refusal was not counted", name)
		}
	}
	// What the key sealed opens, and so does what the server records for
	// an absent value: a signal with no argument, an empty payload list.
	var back map[string]string
	if err := dc.FromPayload(sealed, &back); err != nil || back["outcome"] != "paid" {
		t.Fatalf("sealed: %v %v", back, err)
	}
	for name, ps := range map[string][]*commonpb.Payload{"none": nil, "nil payload": {nil}, "empty payload": {{}}} {
		out, err := c.Decode(ps)
		if err != nil || len(out) != len(ps) {
			t.Errorf("%s: Decode = %v, %v", name, out, err)
		}
	}
	if err := dc.FromPayloads(nil); err != nil {
		t.Errorf("no arguments: %v", err)
	}
}

// refusals reads Refused as /metrics shows it.
func refusals(reason string) float64 {
	families, _ := prometheus.DefaultGatherer.Gather()
	for _, f := range families {
		if f.GetName() != "jangada_temporal_payloads_refused_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "reason" && l.GetValue() == reason {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

func reasonOf(name string) string {
	switch {
	case strings.HasPrefix(name, "clear"):
		return "clear"
	case name == "another key":
		return "key"
	}
	return "tampered"
}

func clone(p *commonpb.Payload) *commonpb.Payload {
	q := &commonpb.Payload{Metadata: map[string][]byte{}, Data: bytes.Clone(p.Data)}
	for k, v := range p.Metadata {
		q.Metadata[k] = bytes.Clone(v)
	}
	return q
}

// The Web UI's endpoint seals what the operator sends (so the worker
// accepts it) and shows clear payloads as they are instead of failing the
// page, while a tampered one is still an error.
func TestHandlerSealsAndShows(t *testing.T) {
	t.Parallel()
	c, _ := FromBase64(NewKey())
	srv := httptest.NewServer(c.Handler("http://localhost:8233"))
	defer srv.Close()
	post := func(path string, ps ...*commonpb.Payload) (int, []*commonpb.Payload) {
		body, _ := protojson.Marshal(&commonpb.Payloads{Payloads: ps})
		req, _ := http.NewRequest("POST", srv.URL+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://localhost:8233")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		var out commonpb.Payloads
		if res.StatusCode == 200 {
			if err := protojson.Unmarshal(raw, &out); err != nil {
				t.Fatalf("%s: %s: %v", path, raw, err)
			}
		}
		return res.StatusCode, out.Payloads
	}
	notice, _ := json.Marshal(map[string]string{"outcome": "failed"})
	clear := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: notice}
	code, sealed := post("/encode", clear)
	if code != 200 || len(sealed) != 1 {
		t.Fatalf("encode: %d %v", code, sealed)
	}
	if out, err := c.Decode(sealed); err != nil || !bytes.Equal(out[0].Data, notice) {
		t.Fatalf("the worker cannot open what the UI sealed: %v %v", out, err)
	}
	if code, shown := post("/decode", sealed[0], clear); code != 200 || !bytes.Equal(shown[0].Data, notice) || !bytes.Equal(shown[1].Data, notice) {
		t.Fatalf("decode: %d %v", code, shown)
	}
	bad := clone(sealed[0])
	bad.Data[len(bad.Data)-1] ^= 1
	if code, _ := post("/decode", bad); code == 200 {
		t.Fatal("the endpoint opened a tampered payload")
	}
}

// The endpoint is served only on a loopback listener of its own: a
// wildcard or another host's address is refused, whatever the caller.
func TestServeOnlyOnLoopback(t *testing.T) {
	t.Parallel()
	c, _ := FromBase64(NewKey())
	for _, addr := range []string{"0.0.0.0:0", "[::]:0"} {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			continue // no such stack here
		}
		if srv, err := c.Serve(l); err == nil {
			srv.Close()
			t.Errorf("served on %s", l.Addr())
		}
		l.Close()
	}
	if _, err := c.Serve(fakeListener{&net.TCPAddr{IP: net.ParseIP("10.0.0.5"), Port: 8234}}); err == nil {
		t.Error("served on 10.0.0.5")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := c.Serve(l)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	body, _ := protojson.Marshal(&commonpb.Payloads{Payloads: []*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"approve"`)}}})
	res, err := http.Post("http://"+l.Addr().String()+"/encode", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("encode on loopback: %d", res.StatusCode)
	}
}

type fakeListener struct{ addr net.Addr }

func (f fakeListener) Accept() (net.Conn, error) { return nil, net.ErrClosed }
func (f fakeListener) Close() error              { return nil }
func (f fakeListener) Addr() net.Addr            { return f.addr }

// A failure's message and stack trace travel sealed: the history keeps only
// its type and "Encoded failure", and the converter of the same key reads
// the message back. Another key cannot.
func TestFailuresAreSealed(t *testing.T) {
	t.Parallel()
	c, err := FromBase64(NewKey())
	if err != nil {
		t.Fatal(err)
	}
	secret := "recipient ana@example.com has no PIX key for R$ 1.234,56"
	f := c.FailureConverter().ErrorToFailure(temporal.NewApplicationError(secret, "Invalid"))
	raw, err := protojson.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "ana@example.com") || f.GetMessage() == secret {
		t.Fatalf("the failure keeps the message in clear: %s", raw)
	}
	if f.GetApplicationFailureInfo().GetType() != "Invalid" {
		t.Fatalf("the type must stay readable (the service maps it): %s", raw)
	}
	// FailureToError writes what it decodes into the failure it is given:
	// each reader gets its own copy of the stored failure.
	other, _ := FromBase64(NewKey())
	if got := other.FailureConverter().FailureToError(proto.Clone(f).(*failurepb.Failure)); strings.Contains(got.Error(), "ana@example.com") {
		t.Fatalf("another key read the message: %v", got)
	}
	back := c.FailureConverter().FailureToError(proto.Clone(f).(*failurepb.Failure))
	var app *temporal.ApplicationError
	if !errors.As(back, &app) || app.Message() != secret || app.Type() != "Invalid" {
		t.Fatalf("read back: %v", back)
	}
}
