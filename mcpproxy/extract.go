package mcpproxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"

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
var ErrArguments = errors.New("mcpproxy: arguments cannot be read")

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

// verbOf reads the words of an MCP tool name ("write_file", "runCommand",
// "filesystem.read-text-file") for what it does. The name only chooses
// how path arguments are judged (read, written, deleted, moved); it never
// lets anything through: a name that says nothing known makes each path
// judged as read and written both.
func verbOf(name string) verb {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	prev := rune(0)
	for _, r := range name {
		switch {
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			w.WriteRune(unicode.ToLower(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
		prev = r
	}
	flush()
	has := func(set ...string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return slices.Contains(set, w) })
	}
	// Strongest first: a tool that deletes or moves is judged as such even
	// when its name also says "file" or "list".
	switch {
	case has("delete", "remove", "rm", "rmdir", "unlink", "trash", "erase", "purge", "destroy", "wipe"):
		return verbDelete
	case has("move", "rename", "mv"):
		return verbMove
	case has("copy", "cp", "duplicate"):
		return verbCopy
	case has("run", "exec", "execute", "shell", "bash", "sh", "zsh", "terminal", "command", "cmd", "powershell", "spawn"):
		return verbShell
	case has("write", "create", "save", "put", "upload", "download", "append", "overwrite", "edit", "patch", "replace", "insert", "modify", "mkdir", "make", "touch", "set"):
		return verbWrite
	case has("read", "get", "list", "search", "find", "view", "show", "cat", "head", "tail", "stat", "info", "tree", "ls", "grep", "glob", "describe", "open", "load", "fetch"):
		return verbRead
	}
	return verbUnknown
}

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

// fold normalizes an argument name.
func fold(key string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == ' ' {
			return -1
		}
		return unicode.ToLower(r)
	}, key)
}

// value is one string argument: the folded name of the object key it is
// under (the nearest one, for strings in arrays) and the string.
type value struct {
	key string
	s   string
	// argv marks a string of an array of strings, with the index of the
	// array among the call's arrays.
	array int
}

// walk collects the string values of v.
func walk(v any, key string, depth int, array int, out *[]value, arrays *int) error {
	if depth > MaxDepth {
		return fmt.Errorf("%w: nested deeper than %d", ErrArguments, MaxDepth)
	}
	switch x := v.(type) {
	case string:
		if len(*out) >= MaxStrings {
			return fmt.Errorf("%w: more than %d strings", ErrArguments, MaxStrings)
		}
		*out = append(*out, value{key: key, s: x, array: array})
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // a stable order: the same call maps the same way
		for _, k := range keys {
			if err := walk(x[k], fold(k), depth+1, 0, out, arrays); err != nil {
				return err
			}
		}
	case []any:
		*arrays++
		id := *arrays
		for _, e := range x {
			if err := walk(e, key, depth+1, id, out, arrays); err != nil {
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
// same analysis as the built-in tools (DESIGN principle 6: the proxy
// decodes, the engine decides):
//
//   - a shell command (an argument named command, cmd, script, …; an
//     array of strings is argv, quoted word by word, and an "args" array
//     beside a command string is appended to it) is a Bash call, run in
//     the "cwd"/"working_directory" argument when that is absolute;
//   - every URL (an argument named url, uri, …, or any string that is an
//     absolute URL) is a WebFetch call;
//   - a shell tool (its name says run, exec, shell, command, …) with no
//     argument of a command name has each of its other strings judged as
//     a command, so renaming the argument does not hide it;
//   - path arguments (path, file_path, source, destination, …, and any
//     other string that starts with "/" or "~/") are judged
//     by what the tool's name says it does: a delete is the Bash call
//     "rm -rf -- PATH", a move "mv -- SRC DST", a copy "cp -r -- SRC
//     DST", a write a Write call with the content argument, a read a
//     Read call, and a name that says nothing known both a Read and a
//     Write, so a name never lets a path through unjudged.
//
// Relative paths are resolved against p.Cwd and "~/" against p.Home. A
// call with none of these arguments yields nothing: the proxy judges it
// under its own tool id, which no analyzer watches. Arguments that are
// not a JSON object (empty means {}), name a key twice in one object
// (parsers disagree on which value wins), or exceed MaxDepth or MaxStrings,
// are an error matching ErrArguments; the proxy refuses the call.
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
	if err := walk(root, "", 0, 0, &vals, &arrays); err != nil {
		return nil, err
	}
	v := verbOf(tool)
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

	// Shell commands: strings under a command name, argv arrays.
	var argvTail []string
	for _, x := range vals {
		if slices.Contains(argvKeys, x.key) && x.array != 0 {
			argvTail = append(argvTail, quote(x.s))
		}
	}
	argv := map[int][]string{}
	var order []int
	for _, x := range vals {
		if !slices.Contains(commandKeys, x.key) {
			continue
		}
		if x.array != 0 {
			if _, ok := argv[x.array]; !ok {
				order = append(order, x.array)
			}
			argv[x.array] = append(argv[x.array], quote(x.s))
			continue
		}
		cmd := x.s
		if len(argvTail) > 0 {
			cmd += " " + strings.Join(argvTail, " ")
		}
		bash(cmd, cwd)
	}
	for _, id := range order {
		bash(strings.Join(argv[id], " "), cwd)
	}
	if v == verbShell && len(out) == 0 && len(argvTail) > 0 {
		// run_program {"args": ["rm", "-rf", "~"]}
		bash(strings.Join(argvTail, " "), cwd)
	}
	if v == verbShell && len(out) == 0 {
		// A shell tool whose command is under a name not listed
		// ({"c": "rm -rf ~"}): every other string may be the command.
		for _, x := range vals {
			if !known(x.key) && x.s != "" {
				bash(x.s, cwd)
			}
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
		if x.s == "" || looksLikeURL(x.s) {
			continue
		}
		switch {
		case slices.Contains(sourceKeys, x.key):
			srcs = append(srcs, abs(x.s))
		case slices.Contains(destKeys, x.key):
			dsts = append(dsts, abs(x.s))
		case slices.Contains(pathKeys, x.key):
			plain = append(plain, abs(x.s))
		case slices.Contains(contentKeys, x.key) && x.array == 0:
			content, hasContent = content+x.s, true
		case !known(x.key) && v != verbShell && (strings.HasPrefix(x.s, "/") || strings.HasPrefix(x.s, "~/")):
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
	return out, nil
}

// uniqueKeys refuses an object that names a key twice: parsers disagree
// on which value wins ({"command":"ls","command":"rm -rf ~"}), and the
// value judged must be the value the server runs.
func uniqueKeys(args json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(args))
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next token in this object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // io.EOF: done; a syntax error was reported by the decoding before
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 {
					stack[len(stack)-1].key = stack[len(stack)-1].object
				}
				continue
			}
			k, _ := tok.(string)
			if top.keys[k] {
				return fmt.Errorf("%w: the key %q appears twice in one object", ErrArguments, k)
			}
			top.keys[k] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim(']'), json.Delim('}'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: in an object the next token is a key.
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true
		}
	}
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
