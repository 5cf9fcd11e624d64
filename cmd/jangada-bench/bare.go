//go:build devserver

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// The bare baselines: the least Temporal work each Jangada figure stands
// on, run on the same server in the same run.
const (
	// bareQueue has the bench's bare worker polling it.
	bareQueue = "bench-bare"
	// idleQueue has no worker: a start there is one StartWorkflow and no
	// workflow task, the floor of a create.
	idleQueue = "bench-no-worker"
)

// bareWorker registers the bare workflows and the activities that report
// back to this process.
func (r *rig) startBareWorker() error {
	r.bare = sdkworker.New(r.client, bareQueue, sdkworker.Options{})
	r.bare.RegisterWorkflowWithOptions(noopWorkflow, workflow.RegisterOptions{Name: "BenchNoop"})
	r.bare.RegisterWorkflowWithOptions(awaitSignalWorkflow, workflow.RegisterOptions{Name: "BenchAwaitSignal"})
	r.bare.RegisterWorkflowWithOptions(postWorkflow, workflow.RegisterOptions{Name: "BenchPost"})
	r.bare.RegisterActivityWithOptions(r.marks.mark, activity.RegisterOptions{Name: "BenchMark"})
	r.bare.RegisterActivityWithOptions(post, activity.RegisterOptions{Name: "BenchPostActivity"})
	return r.bare.Start()
}

func noopWorkflow(workflow.Context) error { return nil }

// awaitSignalWorkflow waits for the signal "go", then runs one activity:
// the bare path of a processor notice (signal → workflow task → activity).
func awaitSignalWorkflow(ctx workflow.Context, id string) error {
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	return workflow.ExecuteActivity(ctx, "BenchMark", id).Get(ctx, nil)
}

// postWorkflow's one activity POSTs one delivery: the bare webhook.
func postWorkflow(ctx workflow.Context, url, id string) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	return workflow.ExecuteActivity(ctx, "BenchPostActivity", url, id).Get(ctx, nil)
}

var postClient = &http.Client{Timeout: 10 * time.Second}

func post(ctx context.Context, url, id string) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader([]byte(`{"id":"`+id+`"}`)))
	req.Header.Set("X-Delivery", id)
	res, err := postClient.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return nil
}

// marks hands each BenchMark activity's start time to whoever waits for it.
type marks struct {
	mu sync.Mutex
	ch map[string]chan time.Time
}

func (m *marks) expect(id string) chan time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ch == nil {
		m.ch = map[string]chan time.Time{}
	}
	c := make(chan time.Time, 1)
	m.ch[id] = c
	return c
}

func (m *marks) mark(_ context.Context, id string) error {
	at := time.Now()
	m.mu.Lock()
	c := m.ch[id]
	delete(m.ch, id)
	m.mu.Unlock()
	if c != nil {
		c <- at
	}
	return nil
}

// startBare is one bare StartWorkflow on queue.
func (r *rig) startBare(queue, name string, args ...any) func(ctx context.Context, i int) error {
	return func(ctx context.Context, i int) error {
		_, err := r.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID: fmt.Sprintf("bench-%s-%d", name, r.seq.Add(1)), TaskQueue: queue,
		}, name, args...)
		return err
	}
}

// bareReceiver counts the bare deliveries by id.
type bareReceiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen map[string]int
	last time.Time
}

func newBareReceiver() *bareReceiver {
	b := &bareReceiver{seen: map[string]int{}}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		id := req.Header.Get("X-Delivery")
		b.mu.Lock()
		if b.seen[id] == 0 {
			b.last = time.Now()
		}
		b.seen[id]++
		b.mu.Unlock()
	}))
	return b
}

// await waits until every id was received (or the deadline) and
// summarises like hookReceiver.await.
func (b *bareReceiver) await(ctx context.Context, name string, ids []string, first time.Time) hookRun {
	count := func() (got, dups int, last time.Time) {
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, id := range ids {
			if n := b.seen[id]; n > 0 {
				got++
				dups += n - 1
			}
		}
		return got, dups, b.last
	}
	deadline := time.Now().Add(deliveryDeadline(len(ids)))
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if got, _, _ := count(); got >= len(ids) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	got, dups, last := count()
	return hookRun{name: name, expected: len(ids), received: got, duplicates: dups, window: last.Sub(first)}
}

// deliveryDeadline bounds the wait for n deliveries.
func deliveryDeadline(n int) time.Duration {
	return min(60*time.Second+time.Duration(n)*50*time.Millisecond, 5*time.Minute)
}
