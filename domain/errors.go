// Package domain holds Jangada's business types and rules: accounts, keys,
// transactions, events and the errors that cross layers. It does no I/O.
package domain

import (
	"errors"
	"fmt"
)

// Business errors. Adapters return them (wrapped with context); the HTTP edge
// maps each to a status code in exactly one place.
var (
	ErrNotFound            = errors.New("not found")
	ErrInvalid             = errors.New("invalid request")
	ErrUnauthorized        = errors.New("missing or invalid API key")
	ErrForbidden           = errors.New("forbidden")
	ErrInsufficientBalance = errors.New("insufficient balance")
	ErrConflict            = errors.New("conflict")
	ErrUnavailable         = errors.New("service temporarily unavailable")
	// ErrKeyReused is an Idempotency-Key that names a resource another
	// request made (the key was reused after its answer window, with
	// another body): answering with that resource would tell the caller
	// its request went ahead when nothing was done for it.
	ErrKeyReused = errors.New("idempotency key reused")
)

// Error is a business error with a message meant for the API caller.
type Error struct {
	Kind    error
	Message string
}

// Error implements error.
func (e *Error) Error() string { return e.Message }

// Unwrap lets errors.Is match the kind.
func (e *Error) Unwrap() error { return e.Kind }

// Invalid reports a bad field; the message always names the field.
func Invalid(field, format string, args ...any) error {
	return &Error{Kind: ErrInvalid, Message: field + " " + fmt.Sprintf(format, args...)}
}

// Invalidf reports a bad request whose message is given whole.
func Invalidf(format string, args ...any) error {
	return &Error{Kind: ErrInvalid, Message: fmt.Sprintf(format, args...)}
}

// NotFound reports a missing record of the named kind.
func NotFound(what string) error {
	return &Error{Kind: ErrNotFound, Message: what + " not found"}
}

// Forbidden reports an action the caller may not take.
func Forbidden(format string, args ...any) error {
	return &Error{Kind: ErrForbidden, Message: fmt.Sprintf(format, args...)}
}

// Insufficient reports a debit larger than the balance that may pay it.
func Insufficient(format string, args ...any) error {
	return &Error{Kind: ErrInsufficientBalance, Message: fmt.Sprintf(format, args...)}
}

// KeyReused reports an Idempotency-Key whose resource belongs to another
// request; the message names the header.
func KeyReused() error {
	return &Error{Kind: ErrKeyReused, Message: "Idempotency-Key was already used by another request, whose resource it names: " +
		"nothing was done for this one; send it with a new key"}
}
