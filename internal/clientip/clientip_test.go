package clientip

import (
	"net/http/httptest"
	"testing"
)

func TestClientIP(t *testing.T) {
	t.Parallel()
	trusted, err := Parse([]string{"10.0.0.0/8", " 192.168.1.7 ", "fd00::/8"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		t    Trusted
		peer string
		xff  []string
		want string
	}{
		{"no proxy trusted: header ignored", Trusted{}, "10.1.2.3:5000", []string{"203.0.113.9"}, "10.1.2.3"},
		{"untrusted peer: forged header ignored", trusted, "198.51.100.4:5000", []string{"203.0.113.9"}, "198.51.100.4"},
		{"trusted balancer: the client it saw", trusted, "10.1.2.3:5000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"trusted balancer, client forged a first hop", trusted, "10.1.2.3:5000", []string{"1.2.3.4, 203.0.113.9"}, "203.0.113.9"},
		{"two trusted proxies in a chain", trusted, "10.1.2.3:5000", []string{"203.0.113.9, 192.168.1.7"}, "203.0.113.9"},
		{"hops on separate header lines", trusted, "10.1.2.3:5000", []string{"1.2.3.4", "203.0.113.9"}, "203.0.113.9"},
		{"trusted peer without a header", trusted, "10.1.2.3:5000", nil, "10.1.2.3"},
		{"garbage hop: the last believable one", trusted, "10.1.2.3:5000", []string{"evil, 10.9.9.9"}, "10.9.9.9"},
		{"garbage only: the peer", trusted, "10.1.2.3:5000", []string{"not-an-ip"}, "10.1.2.3"},
		{"IPv6 trusted peer", trusted, "[fd00::1]:443", []string{"2001:db8::5"}, "2001:db8::5"},
		{"IPv4-mapped peer", trusted, "[::ffff:10.1.2.3]:443", []string{"203.0.113.9"}, "203.0.113.9"},
		{"every hop trusted: the leftmost", trusted, "10.1.2.3:5000", []string{"10.4.4.4, 10.5.5.5"}, "10.4.4.4"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.peer
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := c.t.ClientIP(r); got != c.want {
			t.Errorf("%s: ClientIP = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestParseRefusesGarbage(t *testing.T) {
	t.Parallel()
	if _, err := Parse([]string{"10.0.0.0/8", "nonsense"}); err == nil {
		t.Fatal("Parse accepted a value that is no CIDR")
	}
	if tr, err := Parse([]string{"", " "}); err != nil || !tr.Empty() {
		t.Fatalf("blank entries: %v, empty %v", err, tr.Empty())
	}
}
