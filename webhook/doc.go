// Package webhook is the outbound side of webhook delivery: the envelope
// every event is sent in (and every WebSocket frame carries), the two
// signatures, endpoint secrets and delivery ids, and the safe HTTP sender
// that refuses non-public addresses. Package webhook/verify is its public
// counterpart for receivers.
package webhook
