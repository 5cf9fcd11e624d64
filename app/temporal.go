package app

import (
	"net"
	"strings"

	"go.temporal.io/sdk/client"
)

// compressionFor is the gRPC compression of the Temporal client: none to a
// server on this host, where gzip saves no bandwidth and only costs CPU on
// the cores the server shares (docs/performance.md has the profile); the
// SDK's gzip to any other host, where bytes cross a network.
func compressionFor(hostPort string) client.GrpcCompression {
	if hostPort == "" {
		hostPort = client.DefaultHostPort // what the SDK dials
	}
	host, _, err := net.SplitHostPort(hostPort)
	if err != nil {
		host = hostPort
	}
	if strings.EqualFold(host, "localhost") {
		return &client.GrpcCompressionNone{}
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return &client.GrpcCompressionNone{}
	}
	return &client.GrpcCompressionGzip{}
}
