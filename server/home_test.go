package server_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
)

// TestDefaultHome: a call that sends no home is judged under the
// server's default home (Options.Home, else its own), so `rm -rf ~` is
// denied as under the agent's home, not asked about as an unknown
// target; a server with no home at all refuses such a call as
// incomplete.
func TestDefaultHome(t *testing.T) {
	ctx := context.Background()
	rm := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"rm -rf ~"}`), Cwd: "/w"}
	for _, home := range []string{"/home/agent", ""} {
		srv := start(t, server.Options{Home: home})
		d, err := client.New(srv.url, client.Options{Token: tokA}).Decide(ctx, rm)
		if err != nil || d.Action.String() != "deny" || !slices.Contains(d.Rules, "rm.dangerous-target") {
			t.Errorf("home %q: rm -rf ~ without a home: %s %v %v", home, d.Action, d.Rules, err)
		}
	}
	t.Setenv("HOME", "")
	if _, err := server.New(server.Options{Home: "relative"}); err == nil {
		t.Error("a relative default home was taken")
	}
}
