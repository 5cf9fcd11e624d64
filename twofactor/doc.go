// Package twofactor holds the rules of a human user's second factor, with
// no I/O: TOTP secrets and codes (RFC 6238, 30-second steps, one step of
// clock skew either way) that cannot be replayed, and single-use recovery
// codes stored only as hashes. The portal and the dashboard store what it
// returns and pass it back.
package twofactor
