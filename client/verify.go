package client

import "github.com/jangada/jangada/webhook/verify"

// Webhook verification, re-exported from webhook/verify so that a merchant
// who imports the client has it at hand: Verify checks both signatures of
// a delivery over its raw body and its timestamp against replays.
var (
	// Verify checks a delivery with the endpoint's whsec_ secret (verify.Verify).
	Verify = verify.Verify
	// VerifyAt is Verify with the current time given (verify.VerifyAt).
	VerifyAt = verify.VerifyAt
)

// DefaultTolerance is the replay window Verify uses for a zero tolerance.
const DefaultTolerance = verify.DefaultTolerance

// The errors Verify returns; compare with errors.Is.
var (
	ErrMissingHeader = verify.ErrMissingHeader
	ErrBadSecret     = verify.ErrBadSecret
	ErrSignature     = verify.ErrSignature
	ErrTimestamp     = verify.ErrTimestamp
)
