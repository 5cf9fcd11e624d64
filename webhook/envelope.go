package webhook

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"

	"github.com/jangada/jangada/domain"
)

// Envelope is the body of every webhook delivery and every WebSocket event
// frame: {id, event, createdAt, data}. Data is the stored lean record.
type Envelope struct {
	ID        string          `json:"id"`
	Event     string          `json:"event"`
	CreatedAt domain.Time     `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

// Encode renders the envelope of ev with the given delivery id. Webhooks
// and WebSocket frames both come from here, so their data is the same bytes.
func Encode(id string, ev domain.Event) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	data := ev.Data
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	if err := enc.Encode(Envelope{ID: id, Event: ev.Type, CreatedAt: ev.CreatedAt, Data: data}); err != nil {
		// Data came from a jsonb column: it is valid JSON.
		panic("webhook: encode envelope: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// DeliveryID is the id of the delivery of an event to an endpoint: the same
// pair always gives the same id, which is what makes a duplicate dispatch
// find the workflow that already runs instead of starting another.
func DeliveryID(eventID, endpointID string) string {
	return domain.DerivedID("dlv_", "delivery:"+eventID+"\x00"+endpointID)
}

// SocketDeliveryID is the id of the delivery of an event to an API key's
// WebSocket connections, the envelope id of its frame. It is derived from
// the key rather than the connection so that every connection of the key,
// on any API process and after any reconnect, sees one id for one event:
// a client that dedupes on it (as the specification asks of deliveries)
// drops the copy a second connection got, and the id never equals a
// webhook endpoint's delivery id of the same event.
func SocketDeliveryID(eventID, keyID string) string {
	return domain.DerivedID("dlv_", "socket:"+eventID+"\x00"+keyID)
}

// SecretPrefix starts every endpoint signing secret.
const SecretPrefix = "whsec_"

// NewSecret is a fresh endpoint secret: whsec_ + base64 of 32 random bytes.
func NewSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("webhook: no randomness: " + err.Error())
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(b)
}
