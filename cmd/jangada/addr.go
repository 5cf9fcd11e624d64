package main

import "strings"

// displayAddr is a listen address as a client dials it: one bound to
// every interface is reached on localhost.
func displayAddr(addr string) string {
	if strings.HasPrefix(addr, "[::]:") || strings.HasPrefix(addr, "0.0.0.0:") {
		return "localhost" + addr[strings.LastIndex(addr, ":"):]
	}
	return addr
}
