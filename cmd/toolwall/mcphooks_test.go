package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host/view"
)

// mcpHookCase is one line of testdata/mcp-hooks.jsonl: a host's payload
// of an MCP tool call, as the host sends it to the hook command the
// install writes (toolwall hook HOST), and the answer the host must read.
type mcpHookCase struct {
	Host    string          `json:"host"`
	Name    string          `json:"name"`
	Payload json.RawMessage `json:"payload"`
	Action  string          `json:"action"`
	Rule    string          `json:"rule"`
}

// TestMCPThroughHooks sends every host's MCP tool calls through the real
// binary: an MCP server's write of ~/.ssh/authorized_keys is refused in
// the host's own answer shape, as the same call through the MCP proxy
// is (one mapping of the arguments, package mcpargs); arguments that are
// not an object are refused; a read in the project is allowed.
func TestMCPThroughHooks(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "mcp-hooks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := hookEnv(t)
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c mcpHookCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		t.Run(c.Host+"/"+c.Name, func(t *testing.T) {
			r := runHost(t, env, []string{"hook", c.Host}, c.Payload)
			got := view.For(c.Host)(r, true)
			want, err := toolwall.ParseAction(c.Action)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Valid || got.Action != want || !strings.Contains(got.Reason, c.Rule) {
				t.Errorf("the host reads %+v from %+v, want %s [%s]", got, r, c.Action, c.Rule)
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
