package cline

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
)

// Calls maps one Cline tool call onto toolwall's calls. input is the
// tool's input as the payload carries it; encoded says it is the
// extension's parameter record, where every value that was not a string
// arrives JSON-encoded as one ("commands": "[\"ls\"]"). A call whose
// input cannot be read in any shape Cline accepts is an error (the call
// is refused), never a harmless call.
func Calls(tool string, input json.RawMessage, encoded bool) ([]toolwall.Call, error) {
	switch tool {
	case "run_commands":
		r := commandReader{encoded: encoded, terminal: encoded}
		if err := r.top(input); err != nil {
			return nil, err
		}
		return r.calls, nil
	case "read_files":
		files, err := readPaths(input, encoded)
		if err != nil {
			return nil, err
		}
		out := make([]toolwall.Call, 0, len(files))
		for _, p := range files {
			out = append(out, host.ReadCall(p))
		}
		return out, nil
	case "fetch_web_content":
		return fetches(input, encoded)
	case "apply_patch":
		text, ok := "", false
		if kind(input) == '"' {
			ok = json.Unmarshal(input, &text) == nil
		} else if f, isObj := object(input); isObj {
			text, ok = f.Str("input", "patch", "diff")
		}
		if !ok || text == "" {
			return nil, host.Malformed("apply_patch has no patch text")
		}
		cs, ok := host.PatchCalls(text, "")
		if !ok {
			return nil, host.Malformed("the patch names no file")
		}
		return cs, nil
	}
	f, _ := object(input)
	p := params{f, encoded}
	file, _ := f.Str("path", "file_path", "absolutePath")
	switch tool {
	case "execute_command":
		cmd, ok := f.Str("command")
		if !ok {
			return nil, host.Malformed("execute_command has no command")
		}
		return []toolwall.Call{host.ShellCall(cmd, false)}, nil
	case "editor":
		if file == "" {
			return nil, host.Malformed("editor names no path")
		}
		new, _ := f.Str("new_text", "new_str", "text")
		old := ""
		if !p.null("old_text") {
			old, _ = f.Str("old_text", "old_str")
		}
		if old == "" && p.null("insert_line") {
			return []toolwall.Call{host.WriteCall(file, new)}, nil
		}
		return []toolwall.Call{host.EditCall(file, old, new)}, nil
	case "write_to_file", "write_file":
		if file == "" {
			return nil, host.Malformed(tool + " names no path")
		}
		content, _ := f.Str("content", "text")
		return []toolwall.Call{host.WriteCall(file, content)}, nil
	case "replace_in_file":
		if file == "" {
			return nil, host.Malformed("replace_in_file names no path")
		}
		diff, _ := f.Str("diff")
		old, new := searchReplace(diff)
		return []toolwall.Call{host.EditCall(file, old, new)}, nil
	case "read_file":
		if file == "" {
			return nil, host.Malformed("read_file names no path")
		}
		return []toolwall.Call{host.ReadCall(file)}, nil
	case "web_fetch":
		u, _ := f.Str("url")
		if u == "" {
			return nil, host.Malformed("web_fetch names no url")
		}
		return []toolwall.Call{host.FetchCall(u)}, nil
	case "browser_action":
		if a, _ := f.Str("action"); a == "launch" {
			if u, _ := f.Str("url"); u != "" {
				return []toolwall.Call{host.FetchCall(u)}, nil
			}
		}
	case "use_mcp_tool":
		server, _ := f.Str("server_name")
		name, _ := f.Str("tool_name")
		args, ok := f.Str("arguments")
		if !ok {
			args = string(f["arguments"])
		}
		return []toolwall.Call{host.MCPCall(server, name, json.RawMessage(args))}, nil
	}
	// An MCP tool of the SDK is named server__tool (no tool of its own has
	// "__" in its name): it is judged by what its arguments would do. Any
	// other tool toolwall does not know goes on under its name, unless it
	// carries a command: what that would run cannot be told, so it is not
	// let through as harmless.
	if server, name, ok := strings.Cut(tool, "__"); ok && server != "" && name != "" {
		return []toolwall.Call{host.MCPCall(server, name, input)}, nil
	}
	if k, ok := f.CommandKey(); ok {
		return nil, host.Malformed("Cline's tool " + tool + " is not one toolwall knows, and its " + k + " argument looks like a command to run")
	}
	return []toolwall.Call{host.RawCall(tool, input)}, nil
}

// kind is the first byte of a JSON value: '"', '[', '{', or another.
func kind(v json.RawMessage) byte {
	t := bytes.TrimLeft(v, " \t\r\n")
	if len(t) == 0 {
		return 0
	}
	return t[0]
}

// object reads v as a JSON object.
func object(v json.RawMessage) (host.Fields, bool) {
	if kind(v) != '{' {
		return host.Fields{}, false
	}
	var f host.Fields
	if json.Unmarshal(v, &f) != nil || f == nil {
		return host.Fields{}, false
	}
	return f, true
}

// decode returns v, or for a string holding a JSON array or object that
// array or object: the extension writes every value that is not a string
// so (toStringRecord), and Cline's runtime reads such a string where its
// schema wants a list or an object (normalizeJsonLikeStringsForSchema).
func decode(v json.RawMessage) json.RawMessage {
	var s string
	if kind(v) != '"' || json.Unmarshal(v, &s) != nil {
		return v
	}
	t := strings.TrimSpace(s)
	if (strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{")) && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return v
}

// params are a tool's arguments; see Calls for encoded.
type params struct {
	f       host.Fields
	encoded bool
}

// get returns argument name, decoded where the extension encoded it.
func (p params) get(name string) (json.RawMessage, bool) {
	v, ok := p.f[name]
	if ok && p.encoded {
		v = decode(v)
	}
	return v, ok
}

// null reports whether argument name is absent or null (the extension
// writes a null as the string "null").
func (p params) null(name string) bool {
	v, ok := p.f[name]
	if !ok {
		return true
	}
	t := string(bytes.TrimSpace(v))
	return t == "null" || p.encoded && t == `"null"`
}

// commandReader reads run_commands in every shape Cline's SDK accepts
// (RunCommandsInputUnionSchema): a command line, a list of them,
// {commands}, {command}, {cmd}, and structured {command, args} entries,
// which run without a shell.
type commandReader struct {
	encoded bool
	// terminal: structured entries may also run typed into a terminal
	// (the extension's foreground mode, formatCommandForTerminal).
	terminal bool
	calls    []toolwall.Call
}

func (r *commandReader) shell(cmd string) { r.calls = append(r.calls, host.ShellCall(cmd, false)) }

// top reads the tool's whole input.
func (r *commandReader) top(v json.RawMessage) error {
	f, ok := object(v)
	if !ok {
		if kind(v) == 0 || string(bytes.TrimSpace(v)) == "null" {
			// The extension sends no parameters for an input that is not
			// an object (a bare command line, a list).
			return host.Malformed("run_commands has no command")
		}
		return r.entries(v)
	}
	p := params{f, r.encoded}
	found := false
	if c, ok := p.get("commands"); ok {
		if err := r.entries(c); err != nil {
			return err
		}
		found = true
	}
	if _, ok := f["command"]; ok {
		if err := r.entry(f); err != nil {
			return err
		}
		found = true
	}
	if _, ok := f["cmd"]; ok {
		s, ok := f.Str("cmd")
		if !ok {
			return host.Malformed("run_commands's cmd is not a string")
		}
		r.shell(s)
		found = true
	}
	if !found {
		return host.Malformed("run_commands has no command")
	}
	return nil
}

// entries reads one entry or a list of them.
func (r *commandReader) entries(v json.RawMessage) error {
	switch kind(v) {
	case '"':
		var s string
		if json.Unmarshal(v, &s) != nil {
			return host.Malformed("run_commands's command cannot be read")
		}
		r.shell(s)
		return nil
	case '{':
		f, ok := object(v)
		if !ok {
			return host.Malformed("run_commands's command cannot be read")
		}
		return r.entry(f)
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(v, &list) != nil || len(list) == 0 {
			return host.Malformed("run_commands has no command")
		}
		for _, e := range list {
			if k := kind(e); k != '"' && k != '{' {
				return host.Malformed("a run_commands entry is neither a command line nor {command, args}")
			}
			if err := r.entries(e); err != nil {
				return err
			}
		}
		return nil
	}
	return host.Malformed("run_commands's commands cannot be read")
}

// entry reads {command, args}: with an args list it runs the program
// directly, each argument as it is; without one (or with args Cline does
// not take for a list) command is a command line for the shell.
func (r *commandReader) entry(f host.Fields) error {
	cmd, ok := f.Str("command")
	if !ok || cmd == "" {
		return host.Malformed("a run_commands entry has no command")
	}
	args, ok := params{f, r.encoded}.get("args")
	var argv []string
	if !ok || kind(args) != '[' || json.Unmarshal(args, &argv) != nil {
		r.shell(cmd)
		return nil
	}
	argv = append([]string{cmd}, argv...)
	line := host.JoinArgv(argv)
	r.shell(line)
	if t := terminalLine(argv); r.terminal && t != line {
		r.shell(t)
	}
	return nil
}

// terminalLine is the command line the extension types into a terminal
// for a structured command: a word is quoted only when it holds one of
// the characters Cline's quoteShellArg looks for.
func terminalLine(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		switch {
		case a == "":
			words[i] = "''"
		case strings.ContainsAny(a, " \t\n\r\v\f\"'\\$`!&|;<>(){}[]*?~"):
			words[i] = host.Quote(a)
		default:
			words[i] = a
		}
	}
	return strings.Join(words, " ")
}

// readPaths reads read_files in every shape Cline's SDK accepts
// (ReadFilesInputUnionSchema): a path, a list of paths or {path}
// requests, {files}, {file_paths}, {paths} holding any of those, or one
// request.
func readPaths(v json.RawMessage, encoded bool) ([]string, error) {
	var out []string
	var read func(v json.RawMessage, depth int) error
	read = func(v json.RawMessage, depth int) error {
		switch kind(v) {
		case '"':
			var s string
			if json.Unmarshal(v, &s) != nil || s == "" {
				return host.Malformed("read_files names an empty path")
			}
			out = append(out, s)
			return nil
		case '[':
			var list []json.RawMessage
			if json.Unmarshal(v, &list) != nil {
				return host.Malformed("read_files's files cannot be read")
			}
			for _, e := range list {
				if err := read(e, 1); err != nil {
					return err
				}
			}
			return nil
		case '{':
			f, ok := object(v)
			if !ok {
				return host.Malformed("read_files's files cannot be read")
			}
			p := params{f, encoded && depth == 0}
			found := false
			if depth == 0 {
				for _, k := range []string{"files", "file_paths", "paths"} {
					if x, ok := p.get(k); ok {
						if err := read(x, 1); err != nil {
							return err
						}
						found = true
					}
				}
			}
			if s, ok := f.Str("path", "file_path", "filePath"); ok {
				if s == "" {
					return host.Malformed("read_files names an empty path")
				}
				out = append(out, s)
				found = true
			}
			if !found {
				return host.Malformed("a read_files request names no path")
			}
			return nil
		}
		return host.Malformed("read_files's files cannot be read")
	}
	if err := read(v, 0); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, host.Malformed("read_files names no file")
	}
	return out, nil
}

// fetches reads fetch_web_content's {requests: [{url, prompt}]}.
func fetches(v json.RawMessage, encoded bool) ([]toolwall.Call, error) {
	f, _ := object(v)
	raw, _ := params{f, encoded}.get("requests")
	var reqs []struct {
		URL *string `json:"url"`
	}
	if kind(raw) != '[' || json.Unmarshal(raw, &reqs) != nil || len(reqs) == 0 {
		return nil, host.Malformed("fetch_web_content has no requests")
	}
	out := make([]toolwall.Call, 0, len(reqs))
	for _, r := range reqs {
		if r.URL == nil || *r.URL == "" {
			return nil, host.Malformed("a fetch_web_content request names no url")
		}
		out = append(out, host.FetchCall(*r.URL))
	}
	return out, nil
}
