package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/toolwall/toolwall/server"
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

// TestReplicasShareApprovals runs two server processes on one PostgreSQL
// with approver tokens: an ask decided on A and approved through A's
// POST /v1/approve passes on B (the same call, session and directory);
// B's approver cannot approve it twice; tenant Y's same call in a
// session of the same name still asks, on either replica, and Y's
// approver cannot approve X's ask. Both replicas say where their
// approvals are.
func TestReplicasShareApprovals(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	dir := t.TempDir()
	const tokX, tokY, humanX, humanY = "agent-x", "agent-y", "human-x", "human-y"
	tokens, approvers := filepath.Join(dir, "tokens"), filepath.Join(dir, "approvers")
	if err := os.WriteFile(tokens, []byte(tokX+"\n"+tokY+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(approvers, []byte(server.TenantOf(tokX)+" "+humanX+"\n"+server.TenantOf(tokY)+" "+humanY+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Each replica has a home and state directory of its own, as on two
	// machines: only the database is shared.
	args := []string{"--store", "postgres", "--postgres-schema", schema, "--listen", "127.0.0.1:0", "--token-file", tokens, "--approver-file", approvers}
	a := startServe(t, scratchEnv(t, "TOOLWALL_POSTGRES="+dsn), args...)
	b := startServe(t, scratchEnv(t, "TOOLWALL_POSTGRES="+dsn), args...)
	for _, p := range []*serveProc{a, b} {
		if !strings.Contains(p.log(), `approvals="postgres schema `+schema+`"`) {
			t.Errorf("the start log does not name the approvals in PostgreSQL:\n%s", p.log())
		}
	}
	ctx := context.Background()
	agent := func(p *serveProc, tok string) *client.Client { return client.New(p.url, client.Options{Token: tok}) }
	reset := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"git reset --hard"}`), Session: "s1", Cwd: "/w", Home: "/home/u"}
	decide := func(c *client.Client, call api.Call) api.Decision {
		t.Helper()
		d, err := c.Decide(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	notPending := func(what string, err error) {
		t.Helper()
		var se *client.StatusError
		if !errors.As(err, &se) || se.Code != http.StatusNotFound || se.Detail.Code != "not_pending" {
			t.Errorf("%s: %v, want 404 not_pending", what, err)
		}
	}

	asked := decide(agent(a, tokX), reset)
	if asked.Action.String() != "ask" {
		t.Fatalf("git reset --hard on A: %s, want ask", asked.Action)
	}
	if d := decide(agent(b, tokX), reset); d.Action.String() != "ask" {
		t.Fatalf("on B before the approval: %s, want ask", d.Action)
	}
	_, err := agent(a, humanY).Approve(ctx, asked.DecisionID)
	notPending("tenant Y's approver approving X's ask", err)
	g, err := agent(a, humanX).Approve(ctx, asked.DecisionID)
	if err != nil || g.Session != "s1" || g.Summary != "git reset --hard" {
		t.Fatalf("approve through A: %+v %v", g, err)
	}
	_, err = agent(b, humanX).Approve(ctx, asked.DecisionID)
	notPending("approving the same ask again through B", err)

	d := decide(agent(b, tokX), reset)
	if d.Action.String() != "allow" || !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, asked.DecisionID) }) {
		t.Errorf("the approved call on B: %s %v, want allow with a note naming %s", d.Action, d.Notes, asked.DecisionID)
	}
	elsewhere := reset
	elsewhere.Cwd = "/other"
	if d := decide(agent(b, tokX), elsewhere); d.Action.String() != "ask" {
		t.Errorf("the approved command in another directory on B: %s, want ask", d.Action)
	}
	for _, p := range []*serveProc{a, b} {
		if d := decide(agent(p, tokY), reset); d.Action.String() != "ask" || len(d.Notes) != 0 {
			t.Errorf("tenant Y's same call and session name on %s: %s %v, want ask", p.url, d.Action, d.Notes)
		}
	}

	// Y's own ask, approved through B by Y's approver, passes on A for Y
	// only.
	askedY := decide(agent(b, tokY), reset)
	if _, err := agent(b, humanX).Approve(ctx, askedY.DecisionID); err == nil {
		t.Error("tenant X's approver approved Y's ask")
	}
	if _, err := agent(b, humanY).Approve(ctx, askedY.DecisionID); err != nil {
		t.Fatal(err)
	}
	if d := decide(agent(a, tokY), reset); d.Action.String() != "allow" {
		t.Errorf("Y's approved call on A: %s, want allow", d.Action)
	}
}
