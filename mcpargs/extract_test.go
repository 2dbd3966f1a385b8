package mcpargs_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/mcpargs"
)

// readJSONL decodes every line of testdata/name into a new T.
func readJSONL[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c T
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s: %v: %s", name, err, sc.Text())
		}
		out = append(out, c)
	}
	return out
}

type extractCase struct {
	Name  string          `json:"name"`
	Tool  string          `json:"tool"`
	Args  json.RawMessage `json:"args"`
	Raw   *string         `json:"raw"`
	Calls []struct {
		Tool  string          `json:"tool"`
		Cwd   string          `json:"cwd"`
		Input json.RawMessage `json:"input"`
	} `json:"calls"`
	Error bool `json:"error"`
}

func (c extractCase) args() json.RawMessage {
	if c.Raw != nil {
		return json.RawMessage(*c.Raw)
	}
	return c.Args
}

var places = mcpargs.Places{Cwd: "/w", Home: "/home/u"}

// TestExtract checks how MCP tool arguments map onto toolwall's calls.
func TestExtract(t *testing.T) {
	for _, c := range readJSONL[extractCase](t, "extract.jsonl") {
		t.Run(c.Name, func(t *testing.T) {
			got, err := mcpargs.Extract(c.Tool, c.args(), places)
			if c.Error {
				if !errors.Is(err, mcpargs.ErrArguments) {
					t.Fatalf("error %v, want ErrArguments", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.Calls) {
				t.Fatalf("%d calls, want %d: %+v", len(got), len(c.Calls), got)
			}
			for i, w := range c.Calls {
				var gi, wi any
				_ = json.Unmarshal(got[i].Input, &gi)
				_ = json.Unmarshal(w.Input, &wi)
				if got[i].Tool != w.Tool || got[i].Cwd != w.Cwd || !reflect.DeepEqual(gi, wi) {
					t.Errorf("call %d = %s %s cwd %q, want %s %s cwd %q", i, got[i].Tool, got[i].Input, got[i].Cwd, w.Tool, w.Input, w.Cwd)
				}
			}
		})
	}
}

// TestExtractLimits: nesting and size past the limits are refused, not
// half-read.
func TestExtractLimits(t *testing.T) {
	deep := strings.Repeat(`{"a":`, mcpargs.MaxDepth+2) + `"rm -rf ~"` + strings.Repeat(`}`, mcpargs.MaxDepth+2)
	if _, err := mcpargs.Extract("run", json.RawMessage(deep), places); !errors.Is(err, mcpargs.ErrArguments) {
		t.Errorf("deep arguments: %v", err)
	}
	many := `{"a":[` + strings.Repeat(`"x",`, mcpargs.MaxStrings) + `"x"]}`
	if _, err := mcpargs.Extract("run", json.RawMessage(many), places); !errors.Is(err, mcpargs.ErrArguments) {
		t.Errorf("too many strings: %v", err)
	}
}

// FuzzExtract: argument extraction never panics, refuses only with
// ErrArguments, and yields calls of the judged tools with object inputs.
func FuzzExtract(f *testing.F) {
	for _, c := range readJSONL[extractCase](f, "extract.jsonl") {
		f.Add(c.Tool, string(c.args()))
	}
	known := map[string]bool{toolwall.ToolBash: true, toolwall.ToolWrite: true, toolwall.ToolRead: true, toolwall.ToolWebFetch: true}
	f.Fuzz(func(t *testing.T, tool, args string) {
		calls, err := mcpargs.Extract(tool, json.RawMessage(args), places)
		if err != nil {
			if !errors.Is(err, mcpargs.ErrArguments) {
				t.Fatalf("error %v does not match ErrArguments", err)
			}
			return
		}
		for _, c := range calls {
			var m map[string]string
			if !known[c.Tool] || json.Unmarshal(c.Input, &m) != nil {
				t.Fatalf("call %s %s", c.Tool, c.Input)
			}
		}
	})
}

// BenchmarkExtract: the mapping every proxied tools/call goes through,
// for a shell command with a description, a code runner's Python and a
// file write.
func BenchmarkExtract(b *testing.B) {
	calls := []struct {
		tool string
		args json.RawMessage
	}{
		{"run_command", json.RawMessage(`{"command":"git status --short","description":"show the changes","cwd":"/w"}`)},
		{"run_code", json.RawMessage(`{"language":"python","code":"import json\nprint(json.dumps({'a': 1}))"}`)},
		{"write_file", json.RawMessage(`{"path":"src/a.go","content":"package a\n"}`)},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := calls[i%len(calls)]
		if _, err := mcpargs.Extract(c.tool, c.args, places); err != nil {
			b.Fatal(err)
		}
	}
}
