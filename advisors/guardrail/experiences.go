package guardrail

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

//go:embed experiences/*.json
var builtin embed.FS

// Bounds of safety-experience files.
const (
	// MaxSetBytes bounds one experience file (64 KiB).
	MaxSetBytes = 64 << 10
	// MaxSetItems bounds the guidelines of one file (100).
	MaxSetItems = 100
	// MaxExperienceBytes bounds the formatted experiences in the prompt
	// (32 KiB); sets past it are left out with a logged warning.
	MaxExperienceBytes = 32 << 10
	// MaxDetectPorts bounds how many loopback ports detection probes.
	MaxDetectPorts = 16
)

// Set is one named set of safety experiences: the guidelines of one tool
// family, kept in ToolShield's file shape {"exp.1": "...", "exp.2": ...}
// so that files in that shape can be dropped in a folder and read.
type Set struct {
	// Name is the set's name, "<family>-mcp" ("terminal-mcp").
	Name string
	// Items are the guidelines in exp.N order.
	Items []string
}

// Builtin lists the names of the sets toolwall ships, written for this
// project: terminal-mcp, filesystem-mcp, postgres-mcp, browser-mcp,
// notion-mcp (documents), git-mcp and cloud-mcp.
func Builtin() []string {
	ents, _ := builtin.ReadDir("experiences")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".json"))
	}
	return out
}

// DefaultSets are the sets the name "default" stands for (the LLM security analyzer's
// default_safety_experiences: terminal and filesystem).
func DefaultSets() []string { return []string{"terminal-mcp", "filesystem-mcp"} }

// validName reports whether name is a set name: [a-z0-9][a-z0-9-]*.
func validName(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Canonical returns the set name a user's name stands for: "-mcp" is
// added when missing, and other names of a built-in family map onto it
// (playwright-mcp → browser-mcp, github-mcp → git-mcp, aws-mcp →
// cloud-mcp, docs-mcp → notion-mcp, ...). ok is false for a name that is
// not [a-z0-9][a-z0-9-]*.
func Canonical(name string) (string, bool) {
	if !validName(name) {
		return "", false
	}
	if !strings.HasSuffix(name, "-mcp") {
		name += "-mcp"
	}
	switch name {
	case "shell-mcp", "bash-mcp", "desktop-commander-mcp":
		return "terminal-mcp", true
	case "fs-mcp", "files-mcp":
		return "filesystem-mcp", true
	case "postgresql-mcp", "pg-mcp":
		return "postgres-mcp", true
	case "playwright-mcp", "puppeteer-mcp", "chrome-devtools-mcp", "chrome-mcp":
		return "browser-mcp", true
	case "docs-mcp", "confluence-mcp", "google-docs-mcp":
		return "notion-mcp", true
	case "github-mcp", "gitlab-mcp":
		return "git-mcp", true
	case "aws-mcp", "gcp-mcp", "gcloud-mcp", "azure-mcp", "kubernetes-mcp", "k8s-mcp", "terraform-mcp":
		return "cloud-mcp", true
	}
	return name, true
}

// ParseSet reads one file in ToolShield's shape: a JSON object whose keys
// are exp.1, exp.2, ... (N from 1, any order, no gaps needed) and whose
// values are non-empty strings. Errors name the file: anything else, more
// than MaxSetBytes or MaxSetItems.
func ParseSet(name string, data []byte) (Set, error) {
	if len(data) > MaxSetBytes {
		return Set{}, fmt.Errorf("guardrail: safety experiences %s: larger than %d bytes", name, MaxSetBytes)
	}
	var m map[string]string
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return Set{}, fmt.Errorf("guardrail: safety experiences %s: want {\"exp.1\": \"...\", ...}: %w", name, err)
	}
	if len(m) > MaxSetItems {
		return Set{}, fmt.Errorf("guardrail: safety experiences %s: more than %d items", name, MaxSetItems)
	}
	type item struct {
		n    int
		text string
	}
	var items []item
	for k, v := range m {
		num, ok := strings.CutPrefix(k, "exp.")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 1 || strconv.Itoa(n) != num {
			return Set{}, fmt.Errorf("guardrail: safety experiences %s: key %q is not exp.N", name, k)
		}
		if strings.TrimSpace(v) == "" {
			return Set{}, fmt.Errorf("guardrail: safety experiences %s: %s is empty", name, k)
		}
		items = append(items, item{n, strings.TrimSpace(v)})
	}
	slices.SortFunc(items, func(a, b item) int { return a.n - b.n })
	s := Set{Name: name}
	for _, it := range items {
		s.Items = append(s.Items, it.text)
	}
	return s, nil
}

// Format renders sets for the system prompt: a heading per set and its
// guidelines numbered, within MaxExperienceBytes (sets past the bound
// are left out and returned in dropped).
func Format(sets []Set) (text string, dropped []string) {
	var b strings.Builder
	for _, s := range sets {
		var one strings.Builder
		fmt.Fprintf(&one, "[%s]\n", s.Name)
		for i, it := range s.Items {
			fmt.Fprintf(&one, "%d. %s\n", i+1, strings.Join(strings.Fields(it), " "))
		}
		if b.Len()+one.Len() > MaxExperienceBytes {
			dropped = append(dropped, s.Name)
			continue
		}
		b.WriteString(one.String())
	}
	return strings.TrimRight(b.String(), "\n"), dropped
}

// Experiences says which safety experiences the guardrail loads. The
// zero value loads none: the prompt then carries the Placeholder (seed
// 001: nothing is injected unless asked for).
type Experiences struct {
	// Names are set names ("terminal", "postgres-mcp", ...; see
	// Canonical); "default" stands for DefaultSets.
	Names []string
	// Dir is a folder of user files <name>.json in ToolShield's shape; a
	// file there is used in place of the built-in set of the same name.
	Dir string
	// MCPConfig is a JSON file with an "mcpServers" object (Claude Code's
	// ~/.claude.json or .mcp.json, Claude Desktop's config): each server
	// key becomes a set name (see FromMCPConfig).
	MCPConfig string
	// DetectPorts, when not empty, is the explicit opt-in to detection:
	// each listed port on 127.0.0.1 is asked for an MCP server's name by
	// Detect. At most MaxDetectPorts.
	DetectPorts []int
	// Detect returns the names of the MCP servers answering on loopback
	// ports (mcpscan.Detect, or toolwall's helper running it); each is
	// turned into a set name by Canonical, lower-cased. Nil leaves
	// DetectPorts unused, with a logged warning.
	Detect func(ctx context.Context, ports []int) []string
}

// Load resolves e into the text of the prompt's experiences slot: the
// named sets, then those of the MCP configuration and of detected
// servers, each once, in that order. A name given in Names that no file
// and no built-in set has is an error; names from an MCP configuration
// or detection without a set are skipped with a logged warning. Nothing
// is printed to stdout.
func (e Experiences) Load(ctx context.Context, log *slog.Logger) (string, error) {
	var names []string
	for _, n := range e.Names {
		if n == "default" {
			names = append(names, DefaultSets()...)
			continue
		}
		c, ok := Canonical(n)
		if !ok {
			return "", fmt.Errorf("guardrail: %q is not a safety-experience set name ([a-z0-9][a-z0-9-]*)", n)
		}
		names = append(names, c)
	}
	explicit := len(names)
	if e.MCPConfig != "" {
		data, err := os.ReadFile(e.MCPConfig)
		if err != nil {
			return "", fmt.Errorf("guardrail: MCP configuration: %w", err)
		}
		more, err := FromMCPConfig(data)
		if err != nil {
			return "", fmt.Errorf("guardrail: MCP configuration %s: %w", e.MCPConfig, err)
		}
		names = append(names, more...)
	}
	switch {
	case len(e.DetectPorts) > 0 && e.Detect == nil:
		log.Warn("toolwall: MCP server detection is not available in this program; detect_mcp_ports is ignored")
	case len(e.DetectPorts) > 0:
		for _, n := range e.Detect(ctx, e.DetectPorts) {
			if c, ok := Canonical(strings.ToLower(n)); ok {
				names = append(names, c)
			} else {
				log.Warn("toolwall: detected MCP server has a name that is not a set name", "name", n)
			}
		}
	}
	var sets []Set
	seen := map[string]bool{}
	for i, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		s, err := e.set(n)
		switch {
		case errors.Is(err, fs.ErrNotExist) && i >= explicit:
			log.Warn("toolwall: no safety experiences for an MCP server", "set", n)
			continue
		case errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("guardrail: no safety-experience set %q (built in: %s; or put %s.json in the experiences folder)", n, strings.Join(Builtin(), ", "), n)
		case err != nil:
			return "", err
		}
		sets = append(sets, s)
	}
	text, dropped := Format(sets)
	if len(dropped) > 0 {
		log.Warn("toolwall: safety experiences over the prompt's bound were left out", "sets", dropped, "bound_bytes", MaxExperienceBytes)
	}
	return text, nil
}

// set reads one set: the user's file in Dir first, then the built-in one.
func (e Experiences) set(name string) (Set, error) {
	if e.Dir != "" {
		data, err := readBounded(filepath.Join(e.Dir, name+".json"))
		if err == nil {
			return ParseSet(name, data)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return Set{}, fmt.Errorf("guardrail: safety experiences %s: %w", name, err)
		}
	}
	data, err := builtin.ReadFile("experiences/" + name + ".json")
	if err != nil {
		return Set{}, fs.ErrNotExist
	}
	return ParseSet(name, data)
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSetBytes+1))
	if err == nil && len(data) > MaxSetBytes {
		err = fmt.Errorf("larger than %d bytes", MaxSetBytes)
	}
	return data, err
}

// FromMCPConfig returns the set names of an MCP configuration's servers:
// each key of its "mcpServers" object, lower-cased, as Canonical names
// it. Keys that are not [a-z0-9][a-z0-9-]* once lower-cased are skipped
// (a key is never a path).
func FromMCPConfig(data []byte) ([]string, error) {
	var cfg struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("not a JSON object with mcpServers: %w", err)
	}
	var out []string
	for k := range cfg.MCPServers {
		if c, ok := Canonical(strings.ToLower(k)); ok {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
