package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	auditpg "github.com/toolwall/toolwall/audit/postgres"
	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// TestReplicasShareAudit runs two server processes on one PostgreSQL
// (--store postgres), each with a home and state directory of its own,
// as on two machines. A decision made on A and recorded through B, one
// made on B and recorded through A, and a batch decided on A and
// recorded through B all show their outcomes in the audit log, read
// through either replica's machine with `toolwall-net audit --store
// postgres`; neither replica counts an unmatched outcome. An outcome for
// a decision no replica made is answered 200, warned of and counted.
func TestReplicasShareAudit(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	envA := scratchEnv(t, "TOOLWALL_TOKEN=tok", "TOOLWALL_POSTGRES="+dsn)
	envB := scratchEnv(t, "TOOLWALL_TOKEN=tok", "TOOLWALL_POSTGRES="+dsn)
	args := []string{"--store", "postgres", "--postgres-schema", schema, "--listen", "127.0.0.1:0"}
	a, b := startServe(t, envA, args...), startServe(t, envB, args...)
	for _, p := range []*serveProc{a, b} {
		if !strings.Contains(p.log(), `audit="postgres schema `+schema+`"`) {
			t.Errorf("the start log does not name the audit log in PostgreSQL:\n%s", p.log())
		}
	}
	ctx := context.Background()
	ca, cb := client.New(a.url, client.Options{Token: "tok"}), client.New(b.url, client.Options{Token: "tok"})
	call := func(cmd, callID string) api.Call {
		return api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"` + cmd + `"}`), Session: "s", CallID: callID, Cwd: "/w", Home: "/home/u"}
	}
	outcome := func(exit int) *api.Outcome {
		ok := exit == 0
		return &api.Outcome{Success: &ok, ExitCode: &exit}
	}
	want := map[string]string{} // decision id → what ran, as the listing prints it

	onA := call("make test", "t1")
	d, err := ca.Decide(ctx, onA)
	if err != nil {
		t.Fatal(err)
	}
	if err := cb.Record(ctx, api.Record{Call: onA, DecisionID: d.DecisionID, Outcome: outcome(0)}); err != nil {
		t.Fatal(err)
	}
	want[d.DecisionID] = "exit 0"
	onB := call("go vet ./...", "t2")
	if d, err = cb.Decide(ctx, onB); err != nil {
		t.Fatal(err)
	}
	if err := ca.Record(ctx, api.Record{Call: onB, DecisionID: d.DecisionID, Outcome: outcome(3)}); err != nil {
		t.Fatal(err)
	}
	want[d.DecisionID] = "exit 3"
	batch := []api.Call{call("ls", "t3"), call("pwd", "t4"), call("git status", "t5")}
	ds, err := ca.DecideBatch(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	var recs []api.Record
	for i, d := range ds {
		recs = append(recs, api.Record{Call: batch[i], DecisionID: d.DecisionID, Outcome: outcome(10 + i)})
		want[d.DecisionID] = "exit " + strconv.Itoa(10+i)
	}
	if err := cb.RecordBatch(ctx, recs); err != nil {
		t.Fatal(err)
	}

	for name, env := range map[string][]string{"A": envA, "B": envB} {
		out := auditList(t, env, "--store", "postgres", "--postgres-schema", schema, "--json", "--limit", "0")
		got := map[string]audit.Record{}
		dec := json.NewDecoder(strings.NewReader(out))
		for dec.More() {
			var r audit.Record
			if err := dec.Decode(&r); err != nil {
				t.Fatalf("%s: %v in\n%s", name, err, out)
			}
			got[r.ID] = r
		}
		if len(got) != len(want) {
			t.Errorf("read on %s's machine: %d records, want %d", name, len(got), len(want))
		}
		for id, ran := range want {
			r, ok := got[id]
			if !ok || r.Driver != "server" || r.Outcome == nil || r.Outcome.ExitCode == nil || "exit "+strconv.Itoa(*r.Outcome.ExitCode) != ran {
				t.Errorf("read on %s's machine, decision %s: %+v, want outcome %s", name, id, r, ran)
			}
		}
		lines := auditList(t, env, "--store", "postgres", "--postgres-schema", schema, "--session", server.TenantOf("tok")+"/s")
		for id, ran := range want {
			if !strings.Contains(lines, id) || !strings.Contains(lines, "  "+ran+" ") {
				t.Errorf("the listing on %s's machine lacks %s with %q:\n%s", name, id, ran, lines)
			}
		}
	}
	for _, p := range []*serveProc{a, b} {
		if m := metrics(t, p.url); !strings.Contains(m, "toolwall_audit_outcomes_unmatched_total 0") || !strings.Contains(m, "toolwall_audit_errors_total 0") {
			t.Errorf("%s: outcomes unmatched or failed:\n%s", p.url, m)
		}
	}

	stray := call("true", "t9")
	const nobody = "0123456789abcdef0123456789abcdef"
	if err := cb.Record(ctx, api.Record{Call: stray, DecisionID: nobody, Outcome: outcome(0)}); err != nil {
		t.Fatalf("an outcome for a decision no replica made: %v, want 200", err)
	}
	// The log is read from B's stderr as it comes.
	waitFor(t, func() bool { return strings.Contains(b.log(), "level=WARN") && strings.Contains(b.log(), nobody) },
		"B did not warn of the outcome of "+nobody)
	if m := metrics(t, b.url); !strings.Contains(m, "toolwall_audit_outcomes_unmatched_total 1") {
		t.Errorf("B's metrics:\n%s", m)
	}
	// In a batch, only the stray outcome is reported.
	const nobody2 = "fedcba9876543210fedcba9876543210"
	if err := cb.RecordBatch(ctx, []api.Record{recs[0], {Call: stray, DecisionID: nobody2, Outcome: outcome(0)}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return strings.Contains(b.log(), nobody2) }, "B did not warn of the outcome of "+nobody2)
	if strings.Contains(b.log(), recs[0].DecisionID) {
		t.Errorf("B warned of %s, whose decision it holds:\n%s", recs[0].DecisionID, b.log())
	}
	if m := metrics(t, b.url); !strings.Contains(m, "toolwall_audit_outcomes_unmatched_total 2") || !strings.Contains(m, "toolwall_audit_errors_total 0") {
		t.Errorf("B's metrics:\n%s", m)
	}
}

// auditList runs `toolwall-net audit ARGS` with env and returns stdout.
func auditList(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"audit"}, args...)...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("toolwall-net audit %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

// metrics returns the toolwall_audit lines of a server's /metrics.
func metrics(t *testing.T, url string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url+api.PathMetrics, nil)
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out []string
	for _, l := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(l, "toolwall_audit") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestAuditServePostgres: `toolwall-net audit-serve --store postgres`
// serves the audit page over the PostgreSQL audit log: a decision's page
// shows the call and its rule.
func TestAuditServePostgres(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	ctx := context.Background()
	st, err := auditpg.Open(ctx, dsn, auditpg.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := audit.Record{ID: "d-page", At: time.Now(), Driver: "server", Session: "t/s", Tool: "Bash", Input: json.RawMessage(`{"command":"terraform destroy"}`),
		Verdict: toolwall.Verdict{Action: toolwall.Ask, Findings: []toolwall.Finding{{Rule: "infra.destroy", Action: toolwall.Ask}}}}
	if err := st.Record(ctx, r); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "audit-serve", "--store", "postgres", "--postgres-schema", schema)
	cmd.Env = scratchEnv(t, "TOOLWALL_POSTGRES="+dsn)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Signal(syscall.SIGTERM)
	line, err := bufio.NewReader(pipe).ReadString('\n')
	page, ok := strings.CutPrefix(strings.TrimSpace(line), "toolwall audit page: ")
	if err != nil || !ok {
		t.Fatalf("audit-serve printed %q (%v); stderr:\n%s", line, err, stderr.String())
	}
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/decision"
	q := u.Query()
	q.Set("id", "d-page")
	u.RawQuery = q.Encode()
	resp, err := http.Get(u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "terraform destroy") || !strings.Contains(string(body), "infra.destroy") {
		t.Errorf("decision page: %s\n%s", resp.Status, body)
	}
}
