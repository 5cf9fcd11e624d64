package freeport

import (
	"net"
	"strconv"
	"testing"
	"time"
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

// A claimed port is not handed out again, by this process or another,
// until its claim is released: a port is bound some time after its pick.
func TestAClaimedPortIsNotClaimedTwice(t *testing.T) {
	port := 10000 + int(time.Now().UnixNano()%20000)
	release, ok := claim(port)
	if !ok {
		t.Skipf("port %d is claimed by another process", port)
	}
	if _, again := claim(port); again {
		t.Fatalf("port %d claimed twice", port)
	}
	release()
	release2, ok := claim(port)
	if !ok {
		t.Fatalf("port %d not claimable after its release", port)
	}
	release2()
}

// Picks never repeat a port while the first pick's claim holds.
func TestPicksAreDistinct(t *testing.T) {
	seen := map[int]bool{}
	for range 200 {
		port, err := Pick("127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		if seen[port] {
			t.Fatalf("port %d picked twice", port)
		}
		seen[port] = true
	}
}
