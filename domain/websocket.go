package domain

// The WebSocket gateway's protocol words (ws/ speaks them; the API's
// document describes its frames with them, api/openapi_ws.go).

// WSProtocolVersion is the version the authenticated frame carries.
const WSProtocolVersion = 1

// WSActions are the actions a client frame may carry.
var WSActions = []string{"authenticate", "subscribe", "unsubscribe", "ack", "ping"}

// WSErrorCodes are the codes of the gateway's error frames
// ({event: error, code, message}).
var WSErrorCodes = []string{"BAD_REQUEST", "UNAUTHENTICATED", "UNAUTHORIZED", "UNAVAILABLE", "TOO_MANY_CONNECTIONS",
	"INVALID_PATTERN", "FORBIDDEN", "SUBSCRIPTION_LIMIT", "RATE_LIMIT"}
