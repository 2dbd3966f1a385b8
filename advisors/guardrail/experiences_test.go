package guardrail

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var quiet = slog.New(slog.DiscardHandler)

func TestBuiltinSets(t *testing.T) {
	want := []string{"browser-mcp", "cloud-mcp", "filesystem-mcp", "git-mcp", "notion-mcp", "postgres-mcp", "terminal-mcp"}
	if got := Builtin(); !slices.Equal(got, want) {
		t.Fatalf("Builtin() = %v, want %v", got, want)
	}
	for _, n := range want {
		data, err := builtin.ReadFile("experiences/" + n + ".json")
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseSet(n, data)
		if err != nil || len(s.Items) < 5 {
			t.Errorf("%s: %d items, %v", n, len(s.Items), err)
		}
	}
}

func TestParseSet(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{`{"exp.2": "b", "exp.1": "a", "exp.10": "c"}`, ""},
		{`{"exp.0": "a"}`, "not exp.N"},
		{`{"exp.01": "a"}`, "not exp.N"},
		{`{"rule.1": "a"}`, "not exp.N"},
		{`{"exp.1": "  "}`, "empty"},
		{`{"exp.1": 3}`, "want {"},
		{`["exp.1"]`, "want {"},
		{`{"exp.1": "` + strings.Repeat("x", MaxSetBytes) + `"}`, "larger than"},
	} {
		s, err := ParseSet("t", []byte(c.in))
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseSet(%.40s) = %v, want %q", c.in, err, c.err)
		}
		if err == nil && !slices.Equal(s.Items, []string{"a", "b", "c"}) {
			t.Errorf("order %v", s.Items)
		}
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"terminal": "terminal-mcp", "postgres-mcp": "postgres-mcp", "playwright": "browser-mcp",
		"github": "git-mcp", "aws-mcp": "cloud-mcp", "docs": "notion-mcp", "acme-tools": "acme-tools-mcp",
		"../etc": "", "Postgres": "", "-x": "", "": "", "a b": "", "x/y": "",
	} {
		got, ok := Canonical(in)
		if got != want || ok != (want != "") {
			t.Errorf("Canonical(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestFromMCPConfig(t *testing.T) {
	got, err := FromMCPConfig([]byte(`{"mcpServers": {"Postgres": {"command": "x"}, "playwright": {}, "../../etc/passwd": {}, "my server": {}, "notion": {}}, "other": 1}`))
	if err != nil || !slices.Equal(got, []string{"browser-mcp", "notion-mcp", "postgres-mcp"}) {
		t.Errorf("FromMCPConfig = %v, %v", got, err)
	}
	if _, err := FromMCPConfig([]byte(`[]`)); err == nil {
		t.Error("a list is not an MCP configuration")
	}
}

func TestLoad(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("terminal-mcp.json", `{"exp.1": "our own terminal rule"}`)
	write("acme-mcp.json", `{"exp.1": "acme rule"}`)
	write("broken-mcp.json", `{"exp.x": "?"}`)
	mcpCfg := write("claude.json", `{"mcpServers": {"postgres": {}, "unheard-of": {}}}`)
	for _, c := range []struct {
		name string
		exp  Experiences
		has  []string
		not  []string
		err  string
	}{
		{"none", Experiences{}, nil, []string{"["}, ""},
		{"default", Experiences{Names: []string{"default"}}, []string{"[terminal-mcp]", "[filesystem-mcp]", "Piping downloaded content"}, []string{"[postgres-mcp]"}, ""},
		{"user file replaces the built-in set", Experiences{Names: []string{"terminal"}, Dir: dir}, []string{"1. our own terminal rule"}, []string{"Piping"}, ""},
		{"user set by name", Experiences{Names: []string{"acme"}, Dir: dir}, []string{"[acme-mcp]\n1. acme rule"}, nil, ""},
		{"unknown name is an error", Experiences{Names: []string{"nosuch"}}, nil, nil, `no safety-experience set "nosuch-mcp"`},
		{"bad name is an error", Experiences{Names: []string{"../x"}}, nil, nil, "not a safety-experience set name"},
		{"bad user file is an error", Experiences{Names: []string{"broken"}, Dir: dir}, nil, nil, "not exp.N"},
		{"MCP configuration; a server without a set is skipped", Experiences{MCPConfig: mcpCfg}, []string{"[postgres-mcp]"}, []string{"unheard"}, ""},
		{"each set once", Experiences{Names: []string{"postgres", "default"}, MCPConfig: mcpCfg}, []string{"[postgres-mcp]"}, nil, ""},
		{"missing MCP configuration is an error", Experiences{MCPConfig: filepath.Join(dir, "nope.json")}, nil, nil, "no such file"},
		{"detected servers", Experiences{DetectPorts: []int{8931}, Detect: func(_ context.Context, ports []int) []string {
			if !slices.Equal(ports, []int{8931}) {
				t.Errorf("ports %v", ports)
			}
			return []string{"Playwright", "nothing-known", "My Server!"}
		}}, []string{"[browser-mcp]"}, []string{"nothing-known", "My Server"}, ""},
		{"detection asked for but not available: nothing, no error", Experiences{DetectPorts: []int{8931}}, nil, []string{"["}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			text, err := c.exp.Load(ctx, quiet)
			if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
				t.Fatalf("error %v, want %q", err, c.err)
			}
			for _, h := range c.has {
				if !strings.Contains(text, h) {
					t.Errorf("lacks %q:\n%s", h, text)
				}
			}
			for _, n := range c.not {
				if strings.Contains(text, n) {
					t.Errorf("has %q:\n%s", n, text)
				}
			}
			if strings.Count(text, "[postgres-mcp]") > 1 {
				t.Error("a set loaded twice")
			}
		})
	}
}
