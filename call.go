package toolwall

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// ExecContext says with what privilege a tool call runs.
type ExecContext string

const (
	// UserContext is an agent running as the user: every rule applies.
	UserContext ExecContext = "user"
	// RootContext is a privileged helper that exists for system work (disk
	// cloning, mkfs): only the catastrophic set applies ("root は
	// あえて別扱い").
	RootContext ExecContext = "root"
)

// Tool names as Claude Code sends them. Other hosts map their names onto
// these where the meaning is the same.
const (
	ToolBash      = "Bash"
	ToolWrite     = "Write"
	ToolEdit      = "Edit"
	ToolMultiEdit = "MultiEdit"
	ToolRead      = "Read"
	ToolWebFetch  = "WebFetch"
	// ToolNotebookEdit edits a Jupyter notebook; its path is "notebook_path".
	ToolNotebookEdit = "NotebookEdit"
	// ToolGrep searches file contents; its optional path is "path".
	ToolGrep = "Grep"
	// ToolPowerShell runs a PowerShell command ("command"), as Claude
	// Code's shell tool on Windows does; the gate reads it as PowerShell.
	ToolPowerShell = "PowerShell"
)

// RecentCall is one admitted watched call as (tool, turn), as the pipeline
// middleware keeps them (recent_calls, the last 20).
type RecentCall struct {
	Tool string `json:"tool"`
	Turn int    `json:"turn"`
}

// Call is one proposed tool call with the facts a decision needs.
type Call struct {
	// Tool is the tool name as the host sends it ("Bash", "Write", ...).
	Tool string `json:"tool"`
	// Input is the tool input object as JSON (for Bash: {"command": "..."}).
	Input json.RawMessage `json:"input,omitempty"`
	// Session identifies the agent session; calls in one session share history.
	Session string `json:"session,omitempty"`
	// ID is the host's id for this tool call (Claude Code's tool_use_id),
	// the same before and after it runs; "" when the host gives none.
	ID string `json:"id,omitempty"`
	// Turn is the user turn number within the session (0 when unknown).
	Turn int `json:"turn,omitempty"`
	// Cwd is the working directory the call runs in (absolute).
	Cwd string `json:"cwd,omitempty"`
	// Project is the project root the agent works on (absolute); defaults to Cwd.
	Project string `json:"project,omitempty"`
	// Home is the user's home directory (absolute), used for ~ and $HOME.
	Home string `json:"home,omitempty"`
	// Context is UserContext (the default when empty) or RootContext.
	Context ExecContext `json:"context,omitempty"`
	// Caller identifies the agent that made the call: "" for the primary
	// agent, else a named sub-agent (the tool-executor framework's caller_id; Claude Code's
	// agent_type). Audit records and quotas carry it.
	Caller string `json:"caller,omitempty"`
	// Recent lists the last admitted watched calls, oldest first; set by the
	// pipeline middleware, empty elsewhere.
	Recent []RecentCall `json:"recent,omitempty"`
}

// NewBashCall returns a Bash call for command, with Input {"command": command}.
func NewBashCall(command string) Call {
	in, _ := json.Marshal(struct {
		Command string `json:"command"`
	}{command})
	return Call{Tool: ToolBash, Input: in}
}

// Field returns the string field name of the input object, and whether it
// was present as a string. Malformed input yields ("", false). It reads
// the input exactly as json.Unmarshal into a map[string]json.RawMessage
// and then the member into a string would (the last of duplicate members
// wins), except that a null member is not a string, without building the map when no key needs
// decoding: every gate reads a Bash call's command this way.
func (c Call) Field(name string) (string, bool) {
	raw, found, sure := member(c.Input, name)
	if !sure {
		var m map[string]json.RawMessage
		if json.Unmarshal(c.Input, &m) != nil {
			return "", false
		}
		raw, found = m[name]
	}
	if !found || string(raw) == "null" {
		// null is no string: a command of null is no command to judge
		// (json.Unmarshal would read it as "").
		return "", false
	}
	if n := len(raw); n >= 2 && raw[0] == '"' && bytes.IndexByte(raw[1:n-1], '\\') < 0 && utf8.Valid(raw[1:n-1]) {
		return string(raw[1 : n-1]), true // nothing to unescape or replace
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// member returns the value of the last member name of the JSON object in,
// as json.Unmarshal into a map[string]json.RawMessage keeps it. sure is
// false when some key has an escape or a byte beyond ASCII, which
// json.Unmarshal would decode or replace: then the caller decodes the
// map. Input that is not valid JSON, or not an object, has no member.
func member(in []byte, name string) (raw []byte, found, sure bool) {
	if !json.Valid(in) {
		return nil, false, true
	}
	i := skipBlank(in, 0)
	if in[i] != '{' {
		return nil, false, true
	}
	i++
	for {
		i = skipBlank(in, i)
		switch in[i] {
		case '}':
			return raw, found, true
		case ',':
			i = skipBlank(in, i+1)
		}
		end := i + 1 // in[i] is the key's opening quote
		for ; in[end] != '"'; end++ {
			if in[end] == '\\' || in[end] >= utf8.RuneSelf {
				return nil, false, false
			}
		}
		key := in[i+1 : end]
		i = skipBlank(in, skipBlank(in, end+1)+1) // past the colon
		j := skipValue(in, i)
		if string(key) == name {
			raw, found = in[i:j], true
		}
		i = j
	}
}

// skipBlank returns the index of the first byte of in at or after i that
// is not JSON white space.
func skipBlank(in []byte, i int) int {
	for i < len(in) && (in[i] == ' ' || in[i] == '\t' || in[i] == '\n' || in[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at in[i];
// in is valid JSON.
func skipValue(in []byte, i int) int {
	switch in[i] {
	case '"':
		return skipString(in, i)
	case '{', '[':
		depth := 0
		for j := i; ; j++ {
			switch in[j] {
			case '"':
				j = skipString(in, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
	}
	for i < len(in) && !strings.ContainsRune(",}] \t\n\r", rune(in[i])) {
		i++
	}
	return i
}

// skipString returns the index just past the JSON string starting at
// in[i].
func skipString(in []byte, i int) int {
	for j := i + 1; ; j++ {
		switch in[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
}

// Command returns the shell command of a Bash call (its "command" field).
func (c Call) Command() (string, bool) {
	if c.Tool != ToolBash {
		return "", false
	}
	return c.Field("command")
}

// IsRoot reports whether the call runs in RootContext.
func (c Call) IsRoot() bool { return c.Context == RootContext }

// Summary is a short one-line description of the call for logs and chain
// reasons: the command for Bash, the file path or URL for file and web
// tools, else the tool name. At most 200 bytes. The input is decoded once.
func (c Call) Summary() string {
	s := c.Tool
	var m map[string]json.RawMessage
	if json.Unmarshal(c.Input, &m) == nil {
		for _, f := range []string{"command", "file_path", "notebook_path", "url", "path"} {
			var v string
			if raw, ok := m[f]; !ok || json.Unmarshal(raw, &v) != nil {
				continue
			}
			if f == "command" {
				s = v
			} else {
				s = c.Tool + " " + v
			}
			break
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		cut := 197
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}
