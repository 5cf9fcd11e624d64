package app

import (
	"testing"

	"go.temporal.io/sdk/client"
)

func TestCompressionIsOffOnlyToThisHost(t *testing.T) {
	for addr, none := range map[string]bool{
		"127.0.0.1:7233": true, "localhost:7233": true, "[::1]:7233": true, "127.0.0.2:7233": true,
		"temporal:7233": false, "10.0.0.5:7233": false, "my.tmprl.cloud:7233": false, "": true,
	} {
		_, got := compressionFor(addr).(*client.GrpcCompressionNone)
		if got != none {
			t.Errorf("%q: no compression = %v, want %v", addr, got, none)
		}
	}
}
