package ws

import (
	"bufio"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/jangada/jangada/domain"
)

// BenchmarkIdleConnections measures what one idle authenticated connection
// costs the gateway process: its heap and goroutine stacks, measured after
// a GC, with the clients in a separate process so that their memory does
// not count. Run: go test ./ws/ -run '^$' -bench IdleConnections -benchtime 1x
// (JANGADA_WS_CONNS sets the number of connections, default 5000).
func BenchmarkIdleConnections(b *testing.B) {
	n := 5000
	if v, err := strconv.Atoi(os.Getenv("JANGADA_WS_CONNS")); err == nil && v > 0 {
		n = v
	}
	key := domain.APIKey{ID: "key_1", AccountID: "acct_1", Permissions: []string{"*"}}
	h := New(Options{
		Authenticate: func(context.Context, string, string) (domain.APIKey, error) { return key, nil },
		Owns:         func(context.Context, string, string) bool { return true },
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	for range b.N {
		before := heap()
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperClients$", "-test.v")
		cmd.Env = append(os.Environ(), "JANGADA_WS_HELPER=1", "JANGADA_WS_URL=ws"+strings.TrimPrefix(srv.URL, "http")+"/v1?token=k",
			"JANGADA_WS_CONNS="+strconv.Itoa(n))
		stdin, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		ready := false
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "READY") {
				ready = true
				break
			}
		}
		if !ready {
			b.Fatal("client process failed")
		}
		deadline := time.Now().Add(30 * time.Second)
		for h.Count() < n && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond)
		after := heap()
		if p := os.Getenv("JANGADA_WS_HEAPPROFILE"); p != "" {
			f, _ := os.Create(p)
			pprof.WriteHeapProfile(f)
			f.Close()
		}
		per := float64(after-before) / float64(n)
		b.ReportMetric(per, "B/conn")
		b.ReportMetric(float64(h.Count()), "conns")
		fmt.Printf("idle authenticated WebSocket connections: %d, %.1f KB each (heap+stacks)\n", h.Count(), per/1024)
		stdin.Close()
		cmd.Wait()
	}
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// TestHelperClients is the client process of BenchmarkIdleConnections.
func TestHelperClients(t *testing.T) {
	if os.Getenv("JANGADA_WS_HELPER") != "1" {
		t.Skip("helper process only")
	}
	n, _ := strconv.Atoi(os.Getenv("JANGADA_WS_CONNS"))
	var conns []*websocket.Conn
	d := websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 256, WriteBufferSize: 256}
	for i := range n {
		c, _, err := d.Dial(os.Getenv("JANGADA_WS_URL"), nil)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		if _, msg, err := c.ReadMessage(); err != nil || !strings.Contains(string(msg), "authenticated") {
			t.Fatalf("auth %d: %s %v", i, msg, err)
		}
		c.SetReadDeadline(time.Time{})
		conns = append(conns, c)
	}
	fmt.Println("READY")
	os.Stdin.Read(make([]byte, 1)) // until the parent is done
	for _, c := range conns {
		c.Close()
	}
}
