package mcpargs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"mvdan.cc/sh/v3/syntax"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
)

// Limits of the argument walk: arguments deeper or larger than this are
// refused (fail closed), never half-read.
const (
	// MaxDepth is the deepest nesting of objects and arrays read.
	MaxDepth = 32
	// MaxStrings is the most string values read from one call.
	MaxStrings = 4096
)

// ErrArguments is matched by every error Extract returns: arguments that
// are not a JSON object, name a key twice in one object, or exceed
// MaxDepth or MaxStrings.
var ErrArguments = errors.New("mcpargs: arguments cannot be read")

// ErrAmbiguousKey is matched by the error of arguments holding a key that
// decoders read differently (toolwall.AmbiguousKey); it matches
// ErrArguments too.
var ErrAmbiguousKey = fmt.Errorf("%w: a key that decoders read differently", ErrArguments)

// Places are where a call runs, to resolve relative paths and "~".
type Places struct {
	// Cwd is the working directory (absolute).
	Cwd string
	// Home is the user's home directory (absolute), for "~".
	Home string
}

// verb is what a tool's name says it does.
type verb uint8

const (
	verbUnknown verb = iota
	verbRead
	verbWrite
	verbDelete
	verbMove
	verbCopy
	verbShell
)

// Argument names, compared with case, "_" and "-" folded away.
var (
	commandKeys = []string{"command", "cmd", "commandline", "cmdline", "shellcommand", "script", "bash", "sh"}
	argvKeys    = []string{"args", "argv", "arguments"}
	cwdKeys     = []string{"cwd", "workingdirectory", "workdir", "workingdir"}
	urlKeys     = []string{"url", "uri", "href", "link", "endpoint", "urls"}
	sourceKeys  = []string{"source", "src", "sourcepath", "from", "frompath", "oldpath"}
	destKeys    = []string{"destination", "dest", "dst", "destinationpath", "targetpath", "to", "topath", "newpath"}
	pathKeys    = []string{"path", "paths", "filepath", "file", "files", "filename", "filenames", "fullpath", "target", "notebookpath", "directory", "dir", "folder", "root", "location"}
	contentKeys = []string{"content", "contents", "text", "data", "body", "newtext", "newstring", "newcontent", "filecontent", "code"}
	// noteKeys hold what the caller says about a call, not what it runs
	// (Claude Code's Bash tool has a "description"): at the top level of
	// a command tool's arguments they are not judged as commands.
	noteKeys = []string{"description", "desc", "title", "comment", "comments", "reason", "explanation", "purpose", "summary", "note", "notes", "label", "rationale", "justification", "intent", "goal"}
	// languageKeys name the language a code runner runs its code in.
	languageKeys = []string{"language", "lang", "runtime", "interpreter", "kernel", "kernelname"}
	// codeKeys hold a code runner's program.
	codeKeys = []string{"code", "script", "source", "sourcecode", "program", "snippet", "cell", "expression", "expr", "statement", "statements"}
	// stdinKeys hold what a command reads on its standard input.
	stdinKeys = []string{"stdin", "input", "standardinput"}
)

// known reports whether key is one of the argument names above.
func known(key string) bool {
	for _, set := range [][]string{commandKeys, argvKeys, cwdKeys, urlKeys, sourceKeys, destKeys, pathKeys, contentKeys} {
		if slices.Contains(set, key) {
			return true
		}
	}
	return false
}

// fold normalizes an argument name: Unicode case folding (servers
// decoding with Go's encoding/json match names without case, "ſcript"
// as "script", "K" Kelvin sign as "k"), "_", "-", "." and spaces
// dropped.
func fold(key string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, cases.Fold().String(key))
}

// value is one string argument: the folded name of the object key it is
// under (the nearest one, for strings in arrays) and the string.
type value struct {
	key string
	s   string
	// array is the index of the array of the string among the call's
	// arrays (from 1), 0 for a string not in an array.
	array int
	// top: key is a key of the arguments object itself.
	top bool
}

// walk collects the string values of v, which is under key (top: a key
// of the arguments object itself) in array (0: in none) at depth.
func walk(v any, key string, top bool, depth int, array int, out *[]value, arrays *int) error {
	if depth > MaxDepth {
		return fmt.Errorf("%w: nested deeper than %d", ErrArguments, MaxDepth)
	}
	switch x := v.(type) {
	case string:
		if len(*out) >= MaxStrings {
			return fmt.Errorf("%w: more than %d strings", ErrArguments, MaxStrings)
		}
		*out = append(*out, value{key: key, s: x, array: array, top: top})
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // a stable order: the same call maps the same way
		for _, k := range keys {
			if err := walk(x[k], fold(k), depth == 0, depth+1, 0, out, arrays); err != nil {
				return err
			}
		}
	case []any:
		*arrays++
		id := *arrays
		for _, e := range x {
			if err := walk(e, key, top, depth+1, id, out, arrays); err != nil {
				return err
			}
		}
	}
	return nil
}

// looksLikeURL reports whether s is an absolute URL with a scheme and a
// host or path, and no white space (a URL, not prose that mentions one).
func looksLikeURL(s string) bool {
	if len(s) > 8192 || strings.ContainsAny(s, " \t\r\n") || !strings.Contains(s, ":") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || len(u.Scheme) > 16 {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ftp", "ftps", "file", "gopher", "ws", "wss", "dict", "ldap", "tftp", "sftp", "smb", "jar", "netdoc":
		return true
	}
	return false
}

// Extract maps the arguments of a call to the MCP tool named tool onto
// the tool calls toolwall judges, so that an MCP tool goes through the
// same analysis as the built-in tools (the proxy and the hooks
// decode, the engine decides):
//
//   - a shell command (an argument named command, cmd, script, …; an
//     array of strings is argv, quoted word by word, and an "args" array
//     beside a command string is appended to it) is a Bash call, run in
//     the "cwd"/"working_directory" argument when that is absolute;
//   - a command tool (its name says run, exec, shell, command,
//     interpreter, …, or it types keystrokes: send_keys, type_text,
//     tmux_…, interact_with_process) has every other string argument
//     judged as a command too, under whatever name ({"text": …},
//     {"data": …}, {"c": …}), nested in objects and arrays (each string,
//     and each array joined as argv), inside JSON text in a string, and
//     decoded from base64 text; except the top-level notes about the call
//     (description, title, reason, …), its working directory, its
//     language and URLs. Strings under stdin or input beside a command
//     are judged as that command's standard input (a here-document), so
//     `bash` fed "rm -rf ~" is refused and a commit message fed to git is
//     data. A code runner's code is judged as its language says (a
//     "language"/"lang" argument or the tool's name: bash, sh and zsh as
//     a shell command, python as `python3 -c CODE`, JavaScript as `node
//     -e`, TypeScript as `deno eval`, ruby and perl as `-e`, php as `php
//     -r`, PowerShell as `pwsh -c`; a language toolwall does not read as
//     a shell command), and code under a code argument (code, script,
//     source, …) of a runner that states none as a shell command, Python
//     and JavaScript. A keystroke tool's carriage returns are Enter;
//   - every URL (an argument named url, uri, …, or any string that is an
//     absolute URL) is a WebFetch call;
//   - path arguments (path, file_path, source, destination, …, and, for
//     a tool that is no command tool, any other string that starts with
//     "/" or "~/") are judged by what the tool's name says it does: a
//     delete is the Bash call "rm -rf -- PATH", a move "mv -- SRC DST", a
//     copy "cp -r -- SRC DST", a write a Write call with the content
//     argument, a read (and a command tool's path) a Read call, and a
//     name that says nothing known both a Read and a Write, so a name
//     never lets a path through unjudged.
//
// Argument names are compared with Unicode case folding and "_", "-",
// "." and spaces dropped ("Working_Directory", "ſcript" as Go's
// encoding/json reads it). Relative paths are resolved against p.Cwd and
// "~/" against p.Home. The same call is returned once. A call with none
// of these arguments yields nothing: the caller judges it under its own
// tool id, which no analyzer watches. Arguments that are not a JSON
// object (empty means {}), name a key twice in one object (parsers
// disagree on which value wins; JSON text inside a command tool's string
// too), or exceed MaxDepth or MaxStrings (strings found inside strings
// count), are an error matching ErrArguments; the caller refuses the call.
// Descriptions and annotations of the tool are never consulted.
func Extract(tool string, args json.RawMessage, p Places) ([]toolwall.Call, error) {
	var root any = map[string]any{}
	if len(bytes.TrimSpace(args)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(args))
		dec.UseNumber()
		if err := dec.Decode(&root); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrArguments, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%w: data after the arguments object", ErrArguments)
		}
	}
	if _, ok := root.(map[string]any); !ok {
		return nil, fmt.Errorf("%w: not a JSON object", ErrArguments)
	}
	if err := uniqueKeys(args); err != nil {
		return nil, err
	}
	var vals []value
	arrays := 0
	if err := walk(root, "", false, 0, 0, &vals, &arrays); err != nil {
		return nil, err
	}
	t := toolOf(tool)
	v := t.verb
	var out []toolwall.Call
	add := func(tool string, in any) {
		b, _ := json.Marshal(in) // maps of strings always marshal
		out = append(out, toolwall.Call{Tool: tool, Input: b})
	}
	bash := func(cmd, cwd string) {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		out = append(out, toolwall.Call{Tool: toolwall.ToolBash, Input: b, Cwd: cwd})
	}

	// The working directory of shell commands.
	cwd := ""
	for _, x := range vals {
		if slices.Contains(cwdKeys, x.key) || (v == verbShell && (x.key == "directory" || x.key == "dir")) {
			if d := paths.Expand(x.s, p.Home); strings.HasPrefix(d, "/") {
				cwd = d
			}
		}
	}

	// Shell commands: strings under a command name, argv arrays. In a
	// runner that states a language, a code argument that is also a
	// command name (script) is code in that language, judged below.
	var langs []string
	if t.commands {
		langs = languages(t, vals)
	}
	var argvTail []string
	for _, x := range vals {
		if slices.Contains(argvKeys, x.key) && x.array != 0 {
			argvTail = append(argvTail, quote(x.s))
		}
	}
	var cmds []string
	argv := map[int][]string{}
	var order []int
	for _, x := range vals {
		if !slices.Contains(commandKeys, x.key) || len(langs) > 0 && slices.Contains(codeKeys, x.key) {
			continue
		}
		if x.array != 0 {
			if _, ok := argv[x.array]; !ok {
				order = append(order, x.array)
			}
			argv[x.array] = append(argv[x.array], quote(x.s))
			continue
		}
		cmds = append(cmds, strings.Join(append([]string{x.s}, argvTail...), " "))
	}
	for _, id := range order {
		cmds = append(cmds, strings.Join(argv[id], " "))
	}
	if t.commands && len(cmds) == 0 && len(argvTail) > 0 {
		// run_program {"args": ["rm", "-rf", "~"]}
		cmds = append(cmds, strings.Join(argvTail, " "))
	}
	if t.commands {
		// Every other string may be what runs: {"text": "rm -rf ~"},
		// {"c": …}, {"language": "python", "code": …}.
		if err := commandCalls(t, langs, cmds, vals, func(cmd string) { bash(cmd, cwd) }); err != nil {
			return nil, err
		}
	} else {
		for _, cmd := range cmds {
			bash(cmd, cwd)
		}
	}

	// URLs anywhere.
	for _, x := range vals {
		if looksLikeURL(x.s) || (slices.Contains(urlKeys, x.key) && strings.Contains(x.s, "://")) {
			add(toolwall.ToolWebFetch, map[string]string{"url": x.s})
		}
	}

	// Paths, judged by the tool's verb.
	abs := func(s string) string {
		s = paths.Expand(s, p.Home)
		if p.Cwd != "" {
			s = paths.Abs(s, p.Cwd)
		}
		return s
	}
	var srcs, dsts, plain []string
	content, hasContent := "", false
	for _, x := range vals {
		if x.s == "" || looksLikeURL(x.s) || t.commands && slices.Contains(codeKeys, x.key) {
			continue // a runner's "source" is code, judged above
		}
		switch {
		case slices.Contains(sourceKeys, x.key):
			srcs = append(srcs, abs(x.s))
		case slices.Contains(destKeys, x.key):
			dsts = append(dsts, abs(x.s))
		case slices.Contains(pathKeys, x.key):
			plain = append(plain, abs(x.s))
		case slices.Contains(contentKeys, x.key) && x.array == 0 && !t.commands:
			content, hasContent = content+x.s, true
		case !known(x.key) && !t.commands && (strings.HasPrefix(x.s, "/") || strings.HasPrefix(x.s, "~/")):
			// A path under a name not listed ({"p": "~/.bashrc"}).
			plain = append(plain, abs(x.s))
		}
	}
	if v == verbWrite || hasContent && v != verbRead {
		v = verbWrite
	}
	switch {
	case (v == verbMove || v == verbCopy) && len(srcs) > 0 && len(dsts) > 0:
		prog := "mv --"
		if v == verbCopy {
			prog = "cp -r --"
		}
		for _, s := range srcs {
			bash(prog+" "+quote(s)+" "+quote(dsts[0]), "")
		}
		srcs, dsts = nil, nil
	}
	for _, pth := range slices.Concat(plain, srcs, dsts) {
		switch v {
		case verbDelete:
			bash("rm -rf -- "+quote(pth), "")
		case verbRead, verbShell:
			add(toolwall.ToolRead, map[string]string{"file_path": pth})
		case verbWrite, verbMove, verbCopy:
			add(toolwall.ToolWrite, map[string]string{"file_path": pth, "content": content})
		default:
			add(toolwall.ToolRead, map[string]string{"file_path": pth})
			add(toolwall.ToolWrite, map[string]string{"file_path": pth, "content": content})
		}
	}
	return unique(out), nil
}

// Calls is Extract for a caller that hands the MCP call's own arguments
// to the gate too: arguments whose top level holds a key decoders read
// differently (toolwall.AmbiguousKey) map onto nothing, as the gate
// refuses such a tool input itself (input.ambiguous-key) and counts the
// refusal in the session as for any tool's.
func Calls(tool string, args json.RawMessage, p Places) ([]toolwall.Call, error) {
	calls, err := Extract(tool, args, p)
	if _, _, top := toolwall.AmbiguousKey(args); top && errors.Is(err, ErrAmbiguousKey) {
		return nil, nil
	}
	return calls, err
}

// unique drops repeated calls (the same string under two arguments, a
// command that is also its own argv), keeping the first of each.
func unique(calls []toolwall.Call) []toolwall.Call {
	var out []toolwall.Call
	seen := map[string]bool{}
	for _, c := range calls {
		k := c.Tool + "\x00" + c.Cwd + "\x00" + string(c.Input)
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// uniqueKeys refuses arguments holding a key that decoders read
// differently (toolwall.AmbiguousKey: a key given twice in one object in
// any case or cut at a NUL, a key that is not UTF-8): parsers disagree on
// which value wins ({"command":"ls","Command":"rm -rf ~"}), and the value
// judged must be the value the server runs. The gate refuses such a tool
// input the same way.
func uniqueKeys(args json.RawMessage) error {
	name, why, ok := toolwall.AmbiguousKey(args)
	switch {
	case !ok:
		return nil
	case why == "unreadable":
		return fmt.Errorf("%w: the key %q is not valid UTF-8", ErrAmbiguousKey, name)
	}
	return fmt.Errorf("%w: the key %q appears twice in one object (as some decoders compare keys)", ErrAmbiguousKey, name)
}

// quote quotes s as one shell word.
func quote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		// Only strings bash cannot hold (NUL bytes) fail; their quoted form
		// keeps the visible part for the reader, which then asks.
		return "'" + strings.ReplaceAll(strings.ReplaceAll(s, "\x00", ""), "'", `'\''`) + "'"
	}
	return q
}
