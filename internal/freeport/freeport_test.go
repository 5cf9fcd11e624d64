package freeport

import (
	"net"
	"strconv"
	"testing"
)

// A picked port lies below the ephemeral range, where no outgoing
// connection or ":0" listener can take it, and can be bound.
func TestPickIsBelowTheEphemeralRangeAndFree(t *testing.T) {
	low := ephemeralLow()
	for range 20 {
		port, err := Pick("127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		if low-10000 >= 1000 && (port < 10000 || port >= low) {
			t.Fatalf("port %d outside [10000, %d)", port, low)
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			t.Fatalf("picked port %d cannot be bound: %v", port, err)
		}
		l.Close()
	}
}
