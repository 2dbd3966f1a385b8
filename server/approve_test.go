package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/approval/approvaltest"
	approvalpg "github.com/toolwall/toolwall/approval/postgres"
	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// TestApprove runs the approvals through a real server on loopback, on
// each approvals store (the JSON Lines file, and PostgreSQL when
// $TOOLWALL_TEST_POSTGRES is set): an ask approved with an approver token
// of its tenant is allowed when the same call comes again in the same
// session and directory, until the grant expires; nothing else is, and
// nobody else can approve.
func TestApprove(t *testing.T) {
	for _, st := range []struct {
		name string
		open func(t *testing.T, opts approval.Options) server.Approvals
	}{
		{"jsonl", func(t *testing.T, opts approval.Options) server.Approvals {
			return approval.Open(filepath.Join(t.TempDir(), "approvals.jsonl"), opts)
		}},
		{"postgres", func(t *testing.T, opts approval.Options) server.Approvals {
			dsn := postgrestest.DSN(t)
			ap, err := approvalpg.Open(context.Background(), dsn, approvalpg.Options{Schema: postgrestest.Schema(t, dsn), Approval: opts})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ap.Close() })
			return ap
		}},
	} {
		t.Run(st.name, func(t *testing.T) { testApprove(t, st.open) })
	}
}

func testApprove(t *testing.T, open func(t *testing.T, opts approval.Options) server.Approvals) {
	clk := approvaltest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	ap := open(t, approval.Options{TTL: time.Hour, Now: clk.Now})
	const approverA, approverB = "approve-a", "approve-b"
	srv := start(t, server.Options{Approvals: ap, Approvers: []server.Approver{
		{Token: approverA, Tenant: server.TenantOf(tokA)},
		{Token: approverB, Tenant: server.TenantOf(tokB)},
	}})
	ctx := context.Background()
	agentA := client.New(srv.url, client.Options{Token: tokA})
	agentB := client.New(srv.url, client.Options{Token: tokB})
	humanA := client.New(srv.url, client.Options{Token: approverA})
	humanB := client.New(srv.url, client.Options{Token: approverB})
	call := func(cmd, sess, cwd string) api.Call {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		return api.Call{Tool: "Bash", Input: in, Session: sess, Cwd: cwd, Home: "/home/u"}
	}
	decide := func(c *client.Client, x api.Call) api.Decision {
		t.Helper()
		d, err := c.Decide(ctx, x)
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

	reset := call("git reset --hard", "s1", "/w")
	asked := decide(agentA, reset)
	if asked.Action.String() != "ask" {
		t.Fatalf("git reset --hard: %s, want ask", asked.Action)
	}
	if !strings.Contains(asked.Message, api.PathApprove+` {"decision_id": "`+asked.DecisionID+`"}`) {
		t.Errorf("the ask does not say how to approve it: %s", asked.Message)
	}
	if _, err := agentA.Approve(ctx, asked.DecisionID); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("the agent's own token approved its ask: %v", err)
	}
	_, err := humanB.Approve(ctx, asked.DecisionID)
	notPending("another tenant's approver", err)
	if d := decide(agentA, reset); d.Action.String() != "ask" {
		t.Errorf("after a refused approval: %s", d.Action)
	}

	g, err := humanA.Approve(ctx, asked.DecisionID)
	if err != nil {
		t.Fatal(err)
	}
	if g.DecisionID != asked.DecisionID || g.Session != "s1" || g.Tool != "Bash" || g.Summary != "git reset --hard" || g.Expires != "2026-12-01T13:00:00Z" {
		t.Errorf("grant %+v", g)
	}
	_, err = humanA.Approve(ctx, asked.DecisionID)
	notPending("approving twice", err)

	d := decide(agentA, reset)
	if d.Action.String() != "allow" || !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, asked.DecisionID) }) {
		t.Errorf("the approved call again: %s %v", d.Action, d.Notes)
	}
	ds, err := agentA.DecideBatch(ctx, []api.Call{reset, call("git reset --hard", "s2", "/w"), call("git reset --hard", "s1", "/other"), call("git reset --hard HEAD~1", "s1", "/w")})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"allow", "ask", "ask", "ask"} {
		if ds[i].Action.String() != want {
			t.Errorf("batch call %d: %s, want %s (the grant is for the same call, session and directory)", i, ds[i].Action, want)
		}
	}
	if d := decide(agentB, reset); d.Action.String() != "ask" {
		t.Errorf("tenant B's session s1 uses tenant A's grant: %s", d.Action)
	}

	// A call without a session: the grant is the tenant's alone.
	bare := call("git reset --hard", "", "/w")
	d = decide(agentA, bare)
	if _, err := humanA.Approve(ctx, d.DecisionID); err != nil {
		t.Fatal(err)
	}
	if d := decide(agentA, bare); d.Action.String() != "allow" {
		t.Errorf("approved call without a session: %s", d.Action)
	}
	// (The verdict of a call without a session comes from the verdict
	// cache: tenant A's grant must not have left its note in it.)
	if d := decide(agentB, bare); d.Action.String() != "ask" || len(d.Notes) != 0 {
		t.Errorf("tenant B's call without a session uses tenant A's grant: %s %v", d.Action, d.Notes)
	}

	// A deny and an allow are never pending.
	denied := decide(agentA, call("sudo rm -rf ~", "s1", "/w"))
	_, err = humanA.Approve(ctx, denied.DecisionID)
	notPending("a deny", err)
	if d := decide(agentA, call("sudo rm -rf ~", "s1", "/w")); d.Action.String() != "deny" {
		t.Errorf("deny after an approval attempt: %s", d.Action)
	}
	allowed := decide(agentA, call("ls", "s1", "/w"))
	_, err = humanA.Approve(ctx, allowed.DecisionID)
	notPending("an allow", err)
	_, err = humanA.Approve(ctx, "0123456789abcdef0123456789abcdef")
	notPending("an unknown decision", err)

	// Grants expire.
	clk.Add(time.Hour + time.Second)
	if d := decide(agentA, reset); d.Action.String() != "ask" {
		t.Errorf("after the grant expired: %s", d.Action)
	}
}

// TestApproversChecked: an approver token must not be an agent's token
// nor name a tenant the server does not serve; without approvers,
// /v1/approve answers 403.
func TestApproversChecked(t *testing.T) {
	path := writeConfig(t, "")
	for _, c := range []struct {
		name string
		a    server.Approver
		want string
	}{
		{"an agent's token", server.Approver{Token: tokA, Tenant: server.TenantOf(tokA)}, "approve its own"},
		{"an unknown tenant", server.Approver{Token: "x", Tenant: "0000000000000000"}, "no token of this server"},
		{"an empty token", server.Approver{Token: "", Tenant: server.TenantOf(tokA)}, "empty approver token"},
	} {
		_, err := server.New(server.Options{ConfigPath: path, Tokens: []string{tokA}, Approvers: []server.Approver{c.a}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	srv, err := server.New(server.Options{ConfigPath: path, Tokens: []string{}, Approvers: []server.Approver{{Token: "x", Tenant: "local"}}})
	if err != nil {
		t.Errorf("an approver of the local tenant on a server without tokens: %v", err)
	} else {
		srv.Close()
	}
}
