package subaccount

// Outcomes of a portal login attempt, as recorded.
const (
	LoginSucceeded = "succeeded"
	LoginFailed    = "failed"
	LoginCodeAsked = "code_asked"
	LoginThrottled = "throttled"
)

// CanLogIn reports whether the holder of s's portal may log in: a live,
// active sub-account whose portal is active and has a password. The
// legacy states and a disabled portal are set up again by the merchant.
func (s Subaccount) CanLogIn() bool {
	return s.Status == StatusActive && s.PortalState == PortalActive && s.PortalPasswordHash != nil
}

// EndPortalSessions ends every open session of s's portal: each carries
// the epoch it was opened under, and a session whose epoch is not the
// sub-account's has ended (checked on each of its requests).
func (s *Subaccount) EndPortalSessions() { s.PortalEpoch++ }

// SessionLive reports whether a portal session opened under epoch may go
// on: its holder can still log in and nothing has ended it since.
func (s Subaccount) SessionLive(epoch int64) bool {
	return s.CanLogIn() && s.PortalEpoch == epoch
}
