package pixkey

import "errors"

// Sentinels for errors.Is. The errors Normalize returns carry their own
// human-readable message and wrap one of these.
var (
	// ErrInvalidKey means the key does not fit its declared type.
	ErrInvalidKey = errors.New("invalid pix key")
	// ErrUnknownType means the key type itself is not recognised.
	ErrUnknownType = errors.New("unknown pix key type")
)

// keyError keeps the message free of the sentinel's text, so the API can
// return "pixKey is not a valid CPF" as is, while errors.Is still works.
type keyError struct {
	msg  string
	kind error
}

func (e *keyError) Error() string { return e.msg }
func (e *keyError) Unwrap() error { return e.kind }

func invalid(msg string) error { return &keyError{msg: msg, kind: ErrInvalidKey} }
