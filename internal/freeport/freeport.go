// Package freeport picks TCP ports for servers that bind them later.
package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Pick finds an unused TCP port on ip for a server that binds it later
// (another process, or Temporal's services, which panic in a goroutine on
// a port lost in between). The port is taken below the kernel's ephemeral
// range: outgoing connections (every PostgreSQL and gRPC client of the
// machine) and ":0" listeners (another test's servers) only ever take ports
// from that range, which is how a port picked by ":0" was once lost while
// tests ran in parallel. Every picker on the machine that goes through
// this package also claims its port (claim), so two of them never hand
// out the same one while the first is still to be bound: parallel test
// packages and the soak's processes once did, and a Temporal server then
// failed to bind its HTTP API port.
func Pick(ip string) (int, error) {
	const floor = 10000
	if top := ephemeralLow(); top-floor >= 1000 {
		for range 100 {
			port := floor + rand.IntN(top-floor)
			release, ok := claim(port)
			if !ok {
				continue
			}
			if l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port))); err == nil {
				l.Close()
				return port, nil
			}
			release()
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

// claimDir holds one lock file per claimed port, shared by every process
// of the machine that picks ports through this package. The files stay
// (empty, at most one per port of the range): removing a lock file races
// with another process opening it.
var claimDir = filepath.Join(os.TempDir(), "jangada-freeport")

// held keeps this process's lock files open (and so locked) until the
// process exits or the claim is released: a port is bound by its server
// some time after its pick, possibly by a child process, and may be bound
// again later (a restarted child), so the claim outlives the pick. Held
// here, a file is also out of reach of the finalizer that would close it.
var held sync.Map // port → *os.File

// claim locks port's lock file for this process. ok is false when another
// picker (this process or another) holds it. Where the directory cannot be
// used, every port counts as claimed: the listen check alone remains.
func claim(port int) (release func(), ok bool) {
	if err := os.MkdirAll(claimDir, 0o777); err != nil {
		return func() {}, true
	}
	f, err := os.OpenFile(filepath.Join(claimDir, strconv.Itoa(port)), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return func() {}, true
	}
	// flock belongs to the open file, so a second claim from this same
	// process is refused too.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false
	}
	held.Store(port, f)
	return func() {
		held.Delete(port)
		f.Close()
	}, true
}
