package host

import (
	"encoding/json"
	"strings"
)

// Fields is a tool input object read leniently: hosts spell the same
// argument differently (file_path, filePath, path), and some send the
// object as a JSON string.
type Fields map[string]json.RawMessage

// ParseFields reads a tool input: an object, or a JSON string holding
// one. ok is false for anything else.
func ParseFields(in json.RawMessage) (Fields, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(in, &m) == nil && m != nil {
		return Fields(m), true
	}
	var s string
	if json.Unmarshal(in, &s) == nil && json.Unmarshal([]byte(s), &m) == nil && m != nil {
		return Fields(m), true
	}
	return nil, false
}

// Str returns the first of names present as a string.
func (f Fields) Str(names ...string) (string, bool) {
	for _, n := range names {
		var s string
		if raw, ok := f[n]; ok && json.Unmarshal(raw, &s) == nil {
			return s, true
		}
	}
	return "", false
}

// Strs returns the first of names present as a string or an array of
// strings.
func (f Fields) Strs(names ...string) []string {
	for _, n := range names {
		raw, ok := f[n]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []string{s}
		}
		var ss []string
		if json.Unmarshal(raw, &ss) == nil {
			return ss
		}
	}
	return nil
}

// Raw returns the object as JSON.
func (f Fields) Raw() json.RawMessage {
	b, _ := json.Marshal(map[string]json.RawMessage(f))
	return b
}

// URLs returns the http(s) URLs in text, in order (Gemini's web_fetch
// takes a prompt that names them).
func URLs(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\n' || r == '\t' || r == '"' || r == '\'' || r == '<' || r == '>' || r == '(' || r == ')' || r == ','
	}) {
		lw := strings.ToLower(w)
		if strings.HasPrefix(lw, "http://") || strings.HasPrefix(lw, "https://") {
			out = append(out, strings.TrimRight(w, ".;:!?"))
		}
	}
	return out
}

// IsPowerShell reports whether a host's shell tool name says PowerShell.
func IsPowerShell(tool string) bool {
	t := strings.ToLower(tool)
	return t == "powershell" || t == "pwsh"
}

// commandKeys are the argument names under which tools take a command
// line or a script to run.
var commandKeys = []string{"command", "commands", "cmd", "command_line", "commandLine", "script", "shell_command"}

// CommandKey returns the first argument of f whose name says it holds a
// command to run (command, commands, cmd, script, …). An adapter that
// meets a tool it does not know carrying one cannot read the call as
// harmless.
func (f Fields) CommandKey() (string, bool) {
	for _, k := range commandKeys {
		if _, ok := f[k]; ok {
			return k, true
		}
	}
	return "", false
}
