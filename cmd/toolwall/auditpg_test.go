package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	auditpg "github.com/toolwall/toolwall/audit/postgres"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// TestAuditPostgres: `toolwall audit --store postgres` (and `toolwall
// explain --store postgres`) reads a server
// fleet's audit log in PostgreSQL through toolwall-net, with the same
// filters and lines as the local store; the database comes from
// --postgres or $TOOLWALL_POSTGRES. An unknown --store is refused.
func TestAuditPostgres(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	ctx := context.Background()
	st, err := auditpg.Open(ctx, dsn, auditpg.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	exit := 2
	for _, r := range []audit.Record{
		{ID: "d-deny", At: now.Add(-time.Minute), Driver: "server", Session: "t/s1", Tool: "Bash", Input: json.RawMessage(`{"command":"rm -rf /"}`),
			Verdict: toolwall.Verdict{Action: toolwall.Deny, Findings: []toolwall.Finding{{Rule: "rm.dangerous-target", Action: toolwall.Deny}}}},
		{ID: "d-allow", At: now, Driver: "server", Session: "t/s2", Tool: "Bash", Input: json.RawMessage(`{"command":"make"}`),
			Outcome: &audit.Outcome{ExitCode: &exit}},
	} {
		if err := st.Record(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	env, _ := auditEnv(t, "")
	out, code := runBin(t, env, "", "audit", "--store", "postgres", "--postgres", dsn, "--postgres-schema", schema)
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, "rm.dangerous-target") || !strings.Contains(out, "exit 2") ||
		strings.Index(out, "d-deny") > strings.Index(out, "d-allow") {
		t.Errorf("listing (%d):\n%s", code, out)
	}
	rs := records(t, append(env, "TOOLWALL_POSTGRES="+dsn), "--store", "postgres", "--postgres-schema", schema, "--action", "deny", "--since", "1h")
	if len(rs) != 1 || rs[0].ID != "d-deny" {
		t.Errorf("--action deny from $TOOLWALL_POSTGRES: %+v", rs)
	}
	if out, code := runBin(t, env, "", "audit", "--store", "elsewhere"); code == 0 || !strings.Contains(out, `--store "elsewhere"`) {
		t.Errorf("an unknown store: %d %s", code, out)
	}
	// explain reads one decision of the fleet's log the same way.
	out, code = runBin(t, env, "", "explain", "--store", "postgres", "--postgres", dsn, "--postgres-schema", schema, "d-deny")
	if code != 0 || !strings.Contains(out, "decision d-deny: deny") || !strings.Contains(out, "rm.dangerous-target") {
		t.Errorf("explain --store postgres (%d):\n%s", code, out)
	}
	if out, code := runBin(t, env, "", "explain", "--store", "postgres", "--postgres", dsn, "--postgres-schema", schema, "nope"); code == 0 || !strings.Contains(out, "no such decision") {
		t.Errorf("explain --store postgres of an unknown id (%d):\n%s", code, out)
	}
}
