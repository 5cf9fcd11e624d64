package devserver

import (
	"fmt"
	"net"
	"strconv"
)

// checkPortFree fails fast with a clear error when something already listens
// on ip:port. The UI server calls os.Exit on a listen error and the Temporal
// server fails deep inside fx, so both are checked before anything starts.
// (There is an unavoidable race between this check and the real bind.)
func checkPortFree(ip string, port int) error {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("devserver: port %d on %s is not available: %w", port, ip, err)
	}
	return l.Close()
}
