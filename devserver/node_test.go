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
