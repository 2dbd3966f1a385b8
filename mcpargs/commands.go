package mcpargs

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// toolName is what an MCP tool's name says it does.
type toolName struct {
	// verb chooses how its path arguments are judged.
	verb verb
	// commands: the tool runs commands or code (run_command, execute,
	// code_interpreter), or types into a terminal (send_keys, type_text,
	// tmux_…); its string arguments are judged as commands.
	commands bool
	// keys: the tool types keystrokes, where a carriage return is Enter.
	keys bool
	// langs are the languages its name names ("run_python": python).
	langs []string
}

// words splits an MCP tool name ("write_file", "runCommand",
// "filesystem.read-text-file") into lower-case words.
func words(name string) []string {
	var out []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			out = append(out, w.String())
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
	return out
}

// toolOf reads an MCP tool's name. The name chooses how path arguments
// are judged (read, written, deleted, moved) and whether string
// arguments are judged as commands; it never lets anything through: a
// name that says nothing known makes each path judged as read and
// written both, and command arguments (command, cmd, …) are judged
// whatever the name.
func toolOf(name string) toolName {
	ws := words(name)
	has := func(set ...string) bool {
		return slices.ContainsFunc(ws, func(w string) bool { return slices.Contains(set, w) })
	}
	var t toolName
	// Strongest first: a tool that deletes or moves is judged as such even
	// when its name also says "file" or "list".
	switch {
	case has("delete", "remove", "rm", "rmdir", "unlink", "trash", "erase", "purge", "destroy", "wipe"):
		t.verb = verbDelete
	case has("move", "rename", "mv"):
		t.verb = verbMove
	case has("copy", "cp", "duplicate"):
		t.verb = verbCopy
	case has("run", "exec", "execute", "shell", "bash", "sh", "zsh", "terminal", "command", "cmd", "powershell", "spawn", "interpreter"):
		t.verb = verbShell
	case has("write", "create", "save", "put", "upload", "download", "append", "overwrite", "edit", "patch", "replace", "insert", "modify", "mkdir", "make", "touch", "set"):
		t.verb = verbWrite
	case has("read", "get", "list", "search", "find", "view", "show", "cat", "head", "tail", "stat", "info", "tree", "ls", "grep", "glob", "describe", "open", "load", "fetch"):
		t.verb = verbRead
	}
	// Keystrokes into a terminal (tmux's send-keys, a computer-use
	// type_text, a process's stdin): what is typed is what the shell
	// there runs.
	t.keys = has("keystroke", "keystrokes", "sendkeys", "typetext", "tmux", "pty", "tty", "repl", "interact") ||
		has("send", "type", "press", "paste") && has("keys", "key") ||
		has("type", "paste") && has("text", "string", "chars", "characters", "input") ||
		has("send", "write") && has("input", "stdin")
	t.commands = t.verb == verbShell || t.keys
	if t.commands {
		for _, w := range ws {
			if l := language(w); l != "" && !slices.Contains(t.langs, l) {
				t.langs = append(t.langs, l)
			}
		}
	}
	return t
}

// Languages code is judged as, by the interpreter command it is handed
// to: the gate reads `python3 -c CODE`, `node -e CODE`, … as it reads
// them in a shell command.
const (
	langShell  = "shell"
	langPython = "python"
	langNode   = "node"
	langDeno   = "deno"
	langRuby   = "ruby"
	langPerl   = "perl"
	langPHP    = "php"
	langPwsh   = "pwsh"
)

// language returns the language a code runner's language argument or a
// word of its name names ("Python 3.12", "python3", "nodejs",
// "TypeScript"), "" for none known.
func language(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexFunc(s, func(r rune) bool { return r < 'a' || r > 'z' }); i >= 0 {
		s = s[:i] // a version ("python3.12", "node20") or a variant ("c++")
	}
	switch s {
	case "bash", "sh", "zsh", "ksh", "dash", "ash", "fish", "shell", "shellscript":
		return langShell
	case "python", "py", "ipython":
		return langPython
	case "node", "nodejs", "javascript", "js", "mjs", "cjs", "bun":
		return langNode
	case "typescript", "ts", "tsx", "deno":
		return langDeno
	case "ruby", "rb":
		return langRuby
	case "perl", "pl":
		return langPerl
	case "php":
		return langPHP
	case "powershell", "pwsh", "ps":
		return langPwsh
	}
	return ""
}

// program is the shell command that runs code in lang, as the gate
// judges it: the code itself for a shell, else the interpreter's inline
// code option.
func program(lang, code string) string {
	prefix := ""
	switch lang {
	case langPython:
		prefix = "python3 -c "
	case langNode:
		prefix = "node -e "
	case langDeno:
		prefix = "deno eval "
	case langRuby:
		prefix = "ruby -e "
	case langPerl:
		prefix = "perl -e "
	case langPHP:
		prefix = "php -r "
	case langPwsh:
		prefix = "pwsh -c "
	default:
		return code
	}
	return prefix + quote(code)
}

// unstated are the languages code under a code argument (code, script,
// …) of a runner that states none is judged as: a shell, and the two
// defaults of code runners (Python, JavaScript).
var unstated = [...]string{langShell, langPython, langNode}

// languages returns the languages a command tool's call states: those
// its name names and those of its top-level language arguments ("" and
// languages toolwall does not read count as a shell).
func languages(t toolName, vals []value) []string {
	langs := slices.Clone(t.langs)
	for _, x := range vals {
		if x.top && slices.Contains(languageKeys, x.key) {
			l := language(x.s)
			if l == "" {
				l = langShell
			}
			if !slices.Contains(langs, l) {
				langs = append(langs, l)
			}
		}
	}
	return langs
}

// candidate is a string of a command tool to judge as a command or code.
type candidate struct {
	s string
	// code: it is under a code argument (code, script, source, …).
	code bool
}

// Bounds of what is read inside one string argument.
const (
	// maxInner is how deep strings are opened: a JSON document or base64
	// text inside a string, inside that, … .
	maxInner = 4
	// minBase64 is the shortest string read as base64 ("rm -rf ~" is 12
	// characters encoded).
	minBase64 = 8
)

// inner returns s and what s holds that a server may run: the strings of
// a JSON object or array in it (each, and each array of them joined as
// argv), and the text a base64 string decodes to. n counts the strings
// returned over the whole call, bounded by MaxStrings.
func inner(s string, depth int, n *int) ([]string, error) {
	*n++
	if *n > MaxStrings {
		return nil, fmt.Errorf("%w: more than %d strings", ErrArguments, MaxStrings)
	}
	out := []string{s}
	if depth >= maxInner {
		return out, nil
	}
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		var v any
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		if dec.Decode(&v) == nil && !dec.More() {
			if err := uniqueKeys([]byte(t)); err != nil {
				return nil, err
			}
			var vals []value
			arrays := 0
			if err := walk(v, "", false, 0, 0, &vals, &arrays); err != nil {
				return nil, err
			}
			for _, x := range joined(vals) {
				more, err := inner(x.s, depth+1, n)
				if err != nil {
					return nil, err
				}
				out = append(out, more...)
			}
		}
	}
	if d, ok := decodeBase64(t); ok {
		more, err := inner(d, depth+1, n)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// joined returns each value, and after the values of each array of two
// or more strings, the array joined as one argv command (its words
// quoted, under the array's key and index): ["ls", "rm -rf ~"] is two
// commands, ["rm", "-rf", "~"] one.
func joined(vals []value) []value {
	var out []value
	for i, x := range vals {
		out = append(out, x)
		if x.array == 0 || i+1 < len(vals) && vals[i+1].array == x.array {
			continue
		}
		var argv []string
		for _, y := range vals {
			if y.array == x.array {
				argv = append(argv, quote(y.s))
			}
		}
		if len(argv) > 1 {
			out = append(out, value{key: x.key, s: strings.Join(argv, " "), array: x.array, top: x.top})
		}
	}
	return out
}

// decodeBase64 returns the text s encodes in base64 (standard or URL
// alphabet, padded or not) when it is printable UTF-8: a server that
// decodes its argument runs that text.
func decodeBase64(s string) (string, bool) {
	if len(s) < minBase64 || strings.ContainsAny(s, " \t\r\n") {
		return "", false
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		b, err := enc.Strict().DecodeString(s)
		if err != nil {
			continue
		}
		if !utf8.Valid(b) || bytes.ContainsFunc(b, func(r rune) bool {
			return !unicode.IsGraphic(r) && r != '\n' && r != '\t' && r != '\r'
		}) {
			return "", false
		}
		return string(b), true
	}
	return "", false
}

// withStdin is cmd run with stdin on its standard input: a here-document
// into a group around cmd, so the gate reads what a shell or interpreter
// in cmd would run from it (and a commit message fed to git stays data).
func withStdin(cmd, stdin string) string {
	delim := "TOOLWALL_STDIN"
	lines := strings.Split(stdin, "\n")
	for i := 0; slices.Contains(lines, delim); i++ {
		delim = "TOOLWALL_STDIN_" + strconv.Itoa(i)
	}
	return "{ " + cmd + "\n} <<'" + delim + "'\n" + stdin + "\n" + delim
}

// commandCalls judges the strings of a command tool's call: cmds are the
// commands under command arguments, vals every string argument. Each
// string that is not a note about the call (a top-level description,
// title, …), its working directory, its language or a URL is judged as
// a shell command, and as code in the languages the call states
// (language argument, tool name); code under a code argument of a runner
// that states no language is judged as shell, Python and JavaScript.
// Strings under stdin arguments beside a command are judged as that
// command's standard input. A tool that types keystrokes has its
// carriage returns read as Enter.
func commandCalls(t toolName, langs, cmds []string, vals []value, bash func(string)) error {
	enter := func(s string) string {
		if t.keys {
			return strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
		}
		return s
	}
	var stdins []string
	if len(cmds) > 0 {
		for _, x := range vals {
			if slices.Contains(stdinKeys, x.key) && x.s != "" {
				stdins = append(stdins, enter(x.s))
			}
		}
	}
	if len(cmds)*(1+len(stdins)) > MaxStrings {
		return fmt.Errorf("%w: %d commands with %d inputs each are more than %d strings", ErrArguments, len(cmds), len(stdins), MaxStrings)
	}
	var cands []candidate
	for _, c := range cmds {
		cands = append(cands, candidate{s: c})
		for _, in := range stdins {
			cands = append(cands, candidate{s: withStdin(c, in)})
		}
	}
	// judged: x is judged on its own, being none of a command (in cmds),
	// argv (in cmds), the working directory, a note about the call, its
	// language, stdin fed to a command, a URL (judged as a fetch).
	judged := func(x value) bool {
		switch {
		case x.s == "", looksLikeURL(x.s):
			return false
		case slices.Contains(commandKeys, x.key):
			return len(langs) > 0 && slices.Contains(codeKeys, x.key)
		case slices.Contains(argvKeys, x.key) && x.array != 0, slices.Contains(cwdKeys, x.key):
			return false
		case x.top && (slices.Contains(noteKeys, x.key) || slices.Contains(languageKeys, x.key)):
			return false
		case slices.Contains(stdinKeys, x.key):
			return len(stdins) == 0
		}
		return true
	}
	for _, x := range joined(vals) {
		if !judged(x) {
			continue
		}
		cands = append(cands, candidate{s: x.s, code: slices.Contains(codeKeys, x.key)})
	}
	n := 0
	for _, c := range cands {
		texts, err := inner(enter(c.s), 0, &n)
		if err != nil {
			return err
		}
		as := langs
		switch {
		case len(langs) == 0 && c.code:
			as = unstated[:]
		case len(langs) == 0:
			as = []string{langShell}
		case !c.code && !slices.Contains(langs, langShell):
			as = append([]string{langShell}, langs...)
		}
		for _, s := range texts {
			for _, l := range as {
				bash(program(l, s))
			}
		}
	}
	return nil
}
