package db

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/lib/pq"
)

// Unavailable reports whether err says that PostgreSQL could not be reached
// or dropped the connection: the request may succeed once the database is
// back, so the HTTP edge answers 503 with Retry-After instead of 500, and
// the failure is nobody's fault (it spends no rate-limit budget).
//
// It is the one place that knows how lib/pq and database/sql surface an
// outage, as found against a real server:
//   - nothing listening, or a host that does not resolve: *net.OpError
//     (connection refused, no such host, timeouts), from the dial;
//   - a connection the server ended (restart, pg_terminate_backend) under
//     a query or a transaction: driver.ErrBadConn, sql.ErrConnDone, or an
//     unexpected EOF;
//   - the server refusing or ending sessions: a *pq.Error of class 08
//     (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
//     57P03 cannot_connect_now ("the database system is starting up" / "is
//     shutting down"), 53300 too_many_connections;
//   - the pool itself closed while the process shuts down ("sql: database
//     is closed", which database/sql does not export).
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var pe *pq.Error
	if errors.As(err, &pe) {
		code := string(pe.Code)
		return strings.HasPrefix(code, "08") || code == "57P01" || code == "57P02" || code == "57P03" || code == "53300"
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return true
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return true
	}
	return strings.Contains(err.Error(), "sql: database is closed")
}
