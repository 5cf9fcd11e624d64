package devserver

import "testing"

// Every port of every node must fit PostgreSQL's smallint membership
// columns, and two nodes' blocks must not overlap.
func TestNodePortsStayInTheirBlockBelowSmallint(t *testing.T) {
	seen := map[int]int{}
	for n := 1; n <= 3; n++ {
		p, err := NodePorts(0, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, port := range []int{p.Frontend, p.FrontendHTTP, p.History, p.Matching, p.Worker, p.FrontendRing, p.HistoryRing, p.MatchingRing, p.WorkerRing} {
			if port >= 32768 {
				t.Errorf("node %d: port %d does not fit a smallint", n, port)
			}
			if other, ok := seen[port]; ok {
				t.Errorf("port %d of node %d is node %d's too", port, n, other)
			}
			seen[port] = n
		}
	}
	if p, _ := NodePorts(0, 1); p.Frontend != DefaultPort {
		t.Errorf("node 1's frontend is %d, want the SDK's default %d", p.Frontend, DefaultPort)
	}
	if _, err := NodePorts(32740, 2); err == nil {
		t.Error("a block past 32767 was accepted")
	}
	if _, err := NodePorts(0, 0); err == nil {
		t.Error("node 0 was accepted")
	}
}

// A node's frontend has no authentication of its own: whoever reaches it
// can start and signal workflows. Unless told otherwise every service and
// membership port binds, and is announced, on loopback only.
func TestNodeConfigBindsLoopbackByDefault(t *testing.T) {
	o := NodeOptions{Store: PostgresStore{Addr: "127.0.0.1:5432", Database: "t", VisibilityDatabase: "t_visibility"}, Node: 2, Shards: 8, IP: DefaultFrontendIP}
	p, _ := NodePorts(0, 2)
	first, _ := NodePorts(0, 1)
	c := nodeConfig(o, p, first)
	if c.Global.Membership.BroadcastAddress != "127.0.0.1" {
		t.Errorf("membership announces %q", c.Global.Membership.BroadcastAddress)
	}
	if len(c.Services) != 4 {
		t.Errorf("%d services, want every one of the four", len(c.Services))
	}
	for name, s := range c.Services {
		if s.RPC.BindOnIP != "127.0.0.1" || s.RPC.MembershipPort == 0 || s.RPC.MembershipPort >= 32768 {
			t.Errorf("%s: binds %q, membership port %d", name, s.RPC.BindOnIP, s.RPC.MembershipPort)
		}
	}
	if c.Persistence.NumHistoryShards != 8 || c.Persistence.DataStores[c.Persistence.VisibilityStore].SQL.DatabaseName != "t_visibility" {
		t.Errorf("shards %d, visibility store %+v", c.Persistence.NumHistoryShards, c.Persistence.DataStores[c.Persistence.VisibilityStore].SQL)
	}
}
