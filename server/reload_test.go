package server_test

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
)

var reset = api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"git reset --hard"}`), Cwd: "/w", Home: "/home/u"}

// TestReload: a new policy takes effect on Reload; a broken one leaves the
// policy in force, and GET /v1/rules and the metrics report the error.
func TestReload(t *testing.T) {
	path := writeConfig(t, "")
	srv := start(t, server.Options{ConfigPath: path})
	ctx := context.Background()
	c := client.New(srv.url, client.Options{Token: tokA})
	if d, _ := c.Decide(ctx, reset); d.Action.String() != "ask" {
		t.Fatalf("before reload: %s", d.Action)
	}
	if err := os.WriteFile(path, []byte("[rules]\ndisable = [\"git.reset-hard\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := srv.Reload(); err != nil {
		t.Fatal(err)
	}
	if d, _ := c.Decide(ctx, reset); d.Action.String() != "allow" {
		t.Errorf("after disabling git.reset-hard: %s %v", d.Action, d.Rules)
	}
	r, err := c.Rules(ctx)
	if err != nil || !slices.Equal(r.Disabled, []string{"git.reset-hard"}) || r.Policy.Source != path || len(r.Policy.Version) != 64 || r.Policy.ReloadError != "" {
		t.Errorf("rules after reload: %+v %v", r, err)
	}
	if err := os.WriteFile(path, []byte("[rules]\ndisabel = []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := srv.Reload(); err == nil {
		t.Error("Reload accepted a broken policy")
	}
	if d, _ := c.Decide(ctx, reset); d.Action.String() != "allow" {
		t.Errorf("a broken policy replaced the one in force: %s", d.Action)
	}
	r, _ = c.Rules(ctx)
	if !strings.Contains(r.Policy.ReloadError, "disabel") || !slices.Equal(r.Disabled, []string{"git.reset-hard"}) {
		t.Errorf("rules after a broken reload: %+v", r.Policy)
	}
	if m := metricsText(t, srv.url); !strings.Contains(m, `toolwall_policy_reloads_total{result="error"} 1`) || !strings.Contains(m, `toolwall_policy_reloads_total{result="ok"} 1`) {
		t.Errorf("reloads not counted:\n%s", grep(m, "reloads"))
	}
}

// TestWatchPolicy: a changed file is reloaded without a signal.
func TestWatchPolicy(t *testing.T) {
	path := writeConfig(t, "")
	srv := start(t, server.Options{ConfigPath: path})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.WatchPolicy(ctx, 20*time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	if err := os.WriteFile(path, []byte("[rules]\ndisable = [\"git.reset-hard\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := client.New(srv.url, client.Options{Token: tokA})
	deadline := time.Now().Add(5 * time.Second)
	for {
		if d, _ := c.Decide(ctx, reset); d.Action.String() == "allow" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the changed policy file was not reloaded within 5 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestReloadUnderLoad: decisions keep coming without an error while the
// policy flips between two versions and a broken one; every answer is one
// of the two valid policies' answers.
func TestReloadUnderLoad(t *testing.T) {
	path := writeConfig(t, "")
	srv := start(t, server.Options{ConfigPath: path})
	c := client.New(srv.url, client.Options{Token: tokA})
	ctx := context.Background()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var decisions, bad atomic.Int64
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				d, err := c.Decide(ctx, reset)
				decisions.Add(1)
				if err != nil || (d.Action.String() != "ask" && d.Action.String() != "allow") {
					bad.Add(1)
				}
			}
		})
	}
	bodies := []string{"[rules]\ndisable = [\"git.reset-hard\"]\n", "[rules]\ndisabel = 1\n", ""}
	for i := range 30 {
		if err := os.WriteFile(path, []byte(bodies[i%len(bodies)]), 0o600); err != nil {
			t.Fatal(err)
		}
		_ = srv.Reload()
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if bad.Load() != 0 || decisions.Load() == 0 {
		t.Errorf("%d of %d decisions failed or were neither policy's answer", bad.Load(), decisions.Load())
	}
}

// TestStartBrokenPolicy: a server does not start on a broken policy.
func TestStartBrokenPolicy(t *testing.T) {
	if _, err := server.New(server.Options{ConfigPath: writeConfig(t, "[thresholds]\nwarn = 2\n")}); err == nil {
		t.Error("New accepted a broken policy")
	}
}

// TestOpenAPI: the served document is JSON, names every endpoint, and its
// request schemas list exactly the fields the server decodes.
func TestOpenAPI(t *testing.T) {
	srv := start(t, server.Options{})
	code, data := send(t, srv.url, requestCase{Method: "GET", Path: api.PathOpenAPI, Token: "none"})
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	var doc struct {
		OpenAPI    string                     `json:"openapi"`
		Paths      map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("not an OpenAPI 3 document: %v", err)
	}
	for _, p := range []string{api.PathDecide, api.PathDecideBatch, api.PathRecord, api.PathRecordBatch, api.PathTurn, api.PathApprove, api.PathRules, api.PathOpenAPI, api.PathHealth, api.PathReady, api.PathMetrics} {
		if _, ok := doc.Paths[p]; !ok {
			t.Errorf("no path %s", p)
		}
	}
	for name, v := range map[string]any{"Call": api.Call{}, "Record": api.Record{}, "Outcome": api.Outcome{}, "Turn": api.Turn{}, "Decision": api.Decision{},
		"Batch": api.Batch{}, "Decisions": api.Decisions{}, "Records": api.Records{}, "Recorded": api.Recorded{}, "Approve": api.Approve{}, "Approval": api.Approval{}} {
		var want []string
		jsonFields(reflect.TypeOf(v), &want)
		var got []string
		for k := range doc.Components.Schemas[name].Properties {
			got = append(got, k)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("schema %s lists %v, the Go type has %v", name, got, want)
		}
	}
}

// jsonFields appends the JSON names of t's fields, embedded structs
// flattened.
func jsonFields(t reflect.Type, out *[]string) {
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			jsonFields(f.Type, out)
			continue
		}
		if name == "" {
			name = f.Name
		}
		if name != "-" {
			*out = append(*out, name)
		}
	}
}
