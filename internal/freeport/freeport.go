// Package freeport picks TCP ports for servers that bind them later.
package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// Pick finds an unused TCP port on ip for a server that binds it later
// (another process, or Temporal's services, which panic in a goroutine on
// a port lost in between). The port is taken below the kernel's ephemeral
// range: outgoing connections (every PostgreSQL and gRPC client of the
// machine) and ":0" listeners (another test's servers) only ever take ports
// from that range, which is how a port picked by ":0" was once lost while
// tests ran in parallel. Only an explicit bind to the same random port can
// still take it.
func Pick(ip string) (int, error) {
	const floor = 10000
	if top := ephemeralLow(); top-floor >= 1000 {
		for range 100 {
			port := floor + rand.IntN(top-floor)
			if l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port))); err == nil {
				l.Close()
				return port, nil
			}
		}
	}
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		return 0, fmt.Errorf("freeport: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ephemeralLow is the first port of the kernel's ephemeral range (Linux;
// 32768, its default, elsewhere or when unreadable).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 32768
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 32768
	}
	return n
}
