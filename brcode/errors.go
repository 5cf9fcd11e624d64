package brcode

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error Parse returns, so callers can tell
// a malformed code from other failures.
var ErrInvalid = errors.New("invalid BR Code")

// ErrBadCRC reports a checksum mismatch, usually a code that was mistyped
// or truncated while being copied. It wraps ErrInvalid.
var ErrBadCRC = fmt.Errorf("%w: CRC does not match", ErrInvalid)

// ErrEncode is wrapped by every error Encode returns; it always means the
// Payload breaks a BR Code rule, never an internal failure.
var ErrEncode = errors.New("cannot encode BR Code")

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

func encodef(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrEncode}, args...)...)
}
