package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
	"github.com/redis/go-redis/v9"
)

// The shared budgets on the split: both api processes count every budget
// in one Redis of the soak's own (JANGADA_REDIS_URL), which the full soak
// restarts mid-load.
const (
	// budgetPerMinute is the budget check's key's rate limit.
	budgetPerMinute = 60
	// wsCapPerKey is the split's WebSocket cap per key
	// (JANGADA_WS_MAX_PER_KEY): the subscribers hold two per merchant.
	wsCapPerKey = 10
)

// privateRedis is a redis-server of the soak's own on a free loopback
// port, with nothing persisted: its restart empties every budget.
type privateRedis struct {
	port int
	dir  string
	cmd  *exec.Cmd
}

// startRedis runs redis-server (on PATH) in dir.
func startRedis(ctx context.Context, dir string) (*privateRedis, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	p := &privateRedis{port: port, dir: dir}
	return p, p.start(ctx)
}

func (p *privateRedis) url() string { return "redis://127.0.0.1:" + strconv.Itoa(p.port) + "/0" }

func (p *privateRedis) start(ctx context.Context) error {
	log, err := os.OpenFile(filepath.Join(p.dir, "redis.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	p.cmd = exec.Command("redis-server", "--port", strconv.Itoa(p.port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", p.dir)
	p.cmd.Stdout, p.cmd.Stderr = log, log
	if err := p.cmd.Start(); err != nil {
		return fmt.Errorf("redis-server: %w", err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(p.port)})
	defer rdb.Close()
	return waitFor(ctx, 10*time.Second, func() bool { return rdb.Ping(ctx).Err() == nil })
}

// restart stops Redis, leaves it down for down, and starts it again.
func (p *privateRedis) restart(ctx context.Context, down time.Duration) error {
	p.stop()
	pause(ctx, down)
	return p.start(ctx)
}

func (p *privateRedis) stop() {
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		_ = p.cmd.Wait()
	}
}

// budgetChecks spend a fresh key's budget across both api processes: the
// requests answered are the budget (GCRA: its burst, plus what it earned
// back while the check ran), never twice it; and the key's WebSocket
// connections across both stop at the cap.
func budgetChecks(ctx context.Context, c *client, apis []*proc, accountID string) []check {
	var k struct{ Key string }
	if err := c.must(ctx, "POST", "/admin/v1/accounts/"+accountID+"/keys", "", map[string]any{
		"name": "soak budget", "permissions": []string{"*"}, "rateLimitPerMinute": budgetPerMinute}, &k); err != nil {
		return []check{{"shared budgets across replicas", false, "key: " + err.Error()}}
	}
	hc := &http.Client{Timeout: 5 * time.Second}
	fellBack := []string{fallbacks(ctx, apis[0]), fallbacks(ctx, apis[1])}
	began, allowed, other := time.Now(), 0, 0
	per := make([]int, len(apis))
	for i := range 3 * budgetPerMinute {
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+apis[i%len(apis)].HTTPAddr+"/v1/account/balance", nil)
		req.Header.Set("Authorization", "Bearer "+k.Key)
		res, err := hc.Do(req)
		if err != nil {
			other++
			continue
		}
		res.Body.Close()
		switch res.StatusCode {
		case http.StatusOK:
			allowed++
			per[i%len(apis)]++
		case http.StatusTooManyRequests:
		default:
			other++
		}
	}
	took := time.Since(began)
	most := budgetPerMinute + int(took.Seconds()*budgetPerMinute/60) + 1
	rate := check{"one key's budget across both api processes", allowed >= budgetPerMinute && allowed <= most && other == 0,
		fmt.Sprintf("%d of %d requests answered in %.1f s (%v per process) against a budget of %d a minute (at most %d: the burst and what it earned back; per-process budgets would answer %d); %d other answers; decisions taken alone so far %v, after %s and %s",
			allowed, 3*budgetPerMinute, took.Seconds(), per, budgetPerMinute, most, 2*budgetPerMinute, other, fellBack,
			fallbacks(ctx, apis[0]), fallbacks(ctx, apis[1]))}

	opened, refused := 0, 0
	d := websocket.Dialer{HandshakeTimeout: 5 * time.Second}
	for i := range wsCapPerKey + 4 {
		conn, _, err := d.DialContext(ctx, "ws://"+apis[i%len(apis)].WSAddr+"/v1?token="+k.Key, nil)
		if err != nil {
			continue
		}
		defer conn.Close()
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		var f map[string]any
		if err := conn.ReadJSON(&f); err != nil {
			continue
		}
		switch {
		case f["event"] == "authenticated":
			opened++
		case f["code"] == "TOO_MANY_CONNECTIONS":
			refused++
		}
	}
	caps := check{"one key's WebSocket cap across both api processes", opened == wsCapPerKey && refused == 4,
		fmt.Sprintf("%d connections authenticated, %d refused for the key's cap of %d (per-process caps would open %d)",
			opened, refused, wsCapPerKey, min(wsCapPerKey+4, 2*wsCapPerKey))}
	return []check{rate, caps}
}

// fallbacks is the api process's count of budget decisions taken alone
// while Redis did not answer (its /metrics).
func fallbacks(ctx context.Context, a *proc) string {
	text, err := metricsText(ctx, a)
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, "jangada_ratelimit_fallbacks_total "); ok {
			return v
		}
	}
	return "0"
}
