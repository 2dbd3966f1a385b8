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
// armed through one fires on the other (one call at a time and in
// batches), and killing one (SIGKILL) while requests are in flight loses
// no recorded call: the client fails over to the other replica and every
// download it recorded, alone or in a batch, arms the chain there.
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
	dls := []api.Call{download("b1", "t1", "/w/x.sh"), download("b2", "t1", "/w/x.sh"), download("b1", "t2", "/w/y.sh")}
	ds, err := ca.DecideBatch(ctx, dls)
	if err != nil {
		t.Fatal(err)
	}
	var recs []api.Record
	for i, d := range ds {
		recs = append(recs, api.Record{Call: dls[i], DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}})
	}
	if err := ca.RecordBatch(ctx, recs); err != nil {
		t.Fatal(err)
	}
	ds, err = cb.DecideBatch(ctx, []api.Call{run("b1", "/w/x.sh"), run("b2", "/w/x.sh"), run("b1", "/w/y.sh"), run("b2", "/w/y.sh")})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, true, false} {
		if contains(ds[i], "chain.download-execute") != want {
			t.Errorf("batch run %d on B after a batch recorded on A: %v, want armed %v", i, ds[i].Rules, want)
		}
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
			// Odd workers send batches of 5 downloads (decide, record).
			step := 1 + 4*(w%2)
			for i := 0; i < each; i += step {
				sess := fmt.Sprintf("w%d", w)
				var calls []api.Call
				for j := i; j < i+step; j++ {
					calls = append(calls, download(sess, fmt.Sprintf("w%d-%d", w, j), fmt.Sprintf("/w/f%d.sh", j)))
				}
				ds, err := c.DecideBatch(ctx, calls)
				if err == nil {
					var recs []api.Record
					for k, d := range ds {
						recs = append(recs, api.Record{Call: calls[k], DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}})
					}
					if step == 1 {
						err = c.Record(ctx, recs[0])
					} else {
						err = c.RecordBatch(ctx, recs)
					}
				}
				if err != nil {
					errs <- fmt.Errorf("%s from %d: %w", sess, i, err)
					continue
				}
				if done.Add(int64(step)) >= killAfter {
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
