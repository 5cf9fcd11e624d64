package api

import (
	"maps"
	"net"
	"strings"
	"sync"
)

// A served document names the address it is served at: its servers entry
// is the instance's absolute base URL (JANGADA_PUBLIC_URL plus /v1 for
// the merchant API, the operators' listener plus /admin/v1 for the admin
// API), so that a tool reading it from that address, or a file saved from
// it, calls that instance, never a relative URL resolved against wherever
// the file happens to be read.

// servers is a document's servers list: one absolute URL.
func servers(url string) []any {
	return []any{map[string]any{"url": url, "description": "this instance"}}
}

// adminOrigin is the operators' listener's origin for its address (a
// host-less ":8082" listens on every interface: localhost reaches it).
func adminOrigin(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// served caches each document as served at an origin: built once per
// origin (a process serves one).
var served sync.Map

// MerchantOpenAPIAt is the merchant document as an instance whose public
// base URL is publicURL serves it (GET /v1/openapi.json).
func MerchantOpenAPIAt(publicURL string) []byte {
	MerchantOpenAPI()
	return at("merchant", merchantMap, strings.TrimRight(publicURL, "/")+merchantAPI.base)
}

// AdminOpenAPIAt is the admin document as the operators' listener at addr
// serves it (GET /admin/v1/openapi.json).
func AdminOpenAPIAt(addr string) []byte {
	AdminOpenAPI()
	return at("admin", adminMap, adminOrigin(addr)+adminAPI.base)
}

// at is doc with its servers set to url, as JSON.
func at(name string, doc map[string]any, url string) []byte {
	key := name + " " + url
	if b, ok := served.Load(key); ok {
		return b.([]byte)
	}
	d := maps.Clone(doc)
	d["servers"] = servers(url)
	b := mustJSON(d)
	served.Store(key, b)
	return b
}
