package secrets

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids reported by [Analyzer].
const (
	// RuleRead (ask, score 0.6): a command reads, prints, encodes, copies
	// or archives a secret file (a [Class] for which Secret is true).
	RuleRead = "secrets.read"
	// RuleExfil (deny, score 0.95): a secret file, a tree holding secrets,
	// or the environment is sent to the network.
	RuleExfil = "secrets.exfil"
	// RuleDeleteAuth (deny, score 0.95; ask 0.6 when the path is only
	// partly known): a [Protected] file is deleted, truncated or
	// overwritten.
	RuleDeleteAuth = "secrets.delete-auth"
	// RuleModifyAuth (deny, score 0.95): a file that grants access
	// ([AppendTarget]) is appended to or edited in place.
	RuleModifyAuth = "secrets.modify-auth"
)

// Analyzer reports reads, network sends and destruction of secret and
// authentication files by shell commands. It looks at Bash calls only and
// reports nothing in RootContext (seed 004: the root helper gets only the
// catastrophic set).
var Analyzer = &analysis.Analyzer{
	Name:  "secrets",
	Rules: rules,
	Doc: "secrets finds shell commands that read private keys, cloud credentials, system " +
		"password files or project .env files (ask), send them or the environment to the " +
		"network (deny), or delete, overwrite or append to authentication files such as " +
		"~/.ssh/* and /etc/passwd (deny).",
	Tools: []string{toolwall.ToolBash},
	Run:   run,
}

const (
	category  = "secrets"
	denyScore = 0.95
	askScore  = 0.6
)

// hit is one secret a command touches.
type hit struct {
	path  string
	class Class
	// held marks a directory that holds secrets without being one (home,
	// /etc): it counts when sent, not when read.
	held bool
	// label, when set, names the secret in reasons instead of path.
	label string
}

// target is a file operand resolved against the command's directory.
type target struct {
	path    string
	dynamic bool
}

// facts is what one command does with secrets.
type facts struct {
	reads   []hit    // secrets read through operands
	stdin   []hit    // secrets read through "<" redirects
	sends   []target // files sent to the network by name
	outputs []string // files the command's data lands in
	// stdinOut: the command sends its standard input to the network.
	stdinOut bool
	// argsOut: the command sends its arguments to the network.
	argsOut bool
	env     bool // the command prints the whole environment
	// socket: the command's output is redirected to /dev/tcp or /dev/udp,
	// so what it reads, and its input, go to the network.
	socket bool
	// token is the command, quoted, when it prints a live access token
	// (gh auth token): its output is a credential.
	token string
}

type state struct {
	call          toolwall.Call
	script        *shell.Script
	r             *analysis.Report
	home, project string
	facts         map[*shell.Command]*facts
	index         map[*shell.Command]int
	taint         map[string]Class
	seen          map[string]bool
	// substituted are secrets read inside $(…), `…` or <(…).
	substituted []hit
	// sockets are the file descriptors an earlier redirection opened on
	// /dev/tcp or /dev/udp (exec 3<>/dev/tcp/host/80).
	sockets map[string]bool
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	if in.Call.IsRoot() || in.Script == nil {
		return
	}
	project := in.Call.Project
	if project == "" {
		project = in.Call.Cwd
	}
	s := &state{
		call: in.Call, script: in.Script, r: r, home: in.Call.Home, project: project,
		facts: map[*shell.Command]*facts{}, taint: map[string]Class{}, seen: map[string]bool{},
		index: map[*shell.Command]int{}, sockets: map[string]bool{},
	}
	for i, c := range in.Script.Commands {
		s.index[c] = i
	}
	for _, c := range in.Script.Commands {
		s.examine(c)
	}
	for _, c := range in.Script.Commands {
		s.egress(c)
		s.tokenEgress(c)
	}
}

// cwd is the directory relative paths of c resolve against ("" when a
// dynamic cd left it unknown).
func (s *state) cwd(c *shell.Command) string {
	if c.Cwd != "" {
		return c.Cwd
	}
	return ""
}

// resolve makes w a path: ~ expanded, made absolute against c's
// directory. A dynamic word keeps its static text, which is classified
// by its components.
func (s *state) resolve(c *shell.Command, w shell.Word) (target, bool) {
	v := w.Value
	if v == "" || v == "-" {
		return target{}, false
	}
	v = paths.Expand(v, s.home)
	if w.Dynamic {
		return target{path: path.Clean(v), dynamic: true}, true
	}
	return target{path: paths.Abs(v, s.cwd(c))}, true
}

// classOf is t's class, raised when this script copied a secret to t.
func (s *state) classOf(t target) Class {
	cl := Classify(t.path, s.home, s.project)
	if tc, ok := s.taint[t.path]; ok && tc > cl {
		cl = tc
	}
	return cl
}

// read records that c reads operand w; dir marks a tree read
// recursively.
func (s *state) read(c *shell.Command, f *facts, w shell.Word, dir bool) {
	t, ok := s.resolve(c, w)
	if !ok {
		return
	}
	if cl := s.classOf(t); cl.Secret() {
		f.reads = append(f.reads, hit{path: t.path, class: cl})
	} else if dir && !t.dynamic && Holds(t.path, s.home) {
		f.reads = append(f.reads, hit{path: t.path, held: true})
	}
}

// examine works out what c does with secrets, reports reads and
// destruction, and records its facts for egress.
func (s *state) examine(c *shell.Command) {
	f := &facts{}
	s.facts[c] = f
	s.redirects(c, f)
	if len(c.Args) == 0 {
		s.reportReads(c, f)
		return
	}
	args := s.operandsOf(c)
	name := c.Name
	switch {
	case isPlain(name):
		for _, w := range parse(args, plainReaders[name]).operands {
			s.read(c, f, w, false)
		}
	case interpreters[name]:
		a := parse(args, interpreterSpec)
		edits := inPlace(c, a)
		for _, w := range a.operands {
			s.read(c, f, w, false)
			if edits {
				s.modify(c, w)
			}
		}
		for _, w := range a.values("c", "e", "E", "r") {
			s.readCode(c, f, w.Value)
		}
		if c.Stdin.Kind == shell.StdinHeredoc {
			s.readCode(c, f, c.Stdin.Text)
		}
		s.serve(c, args)
	case name == "httpd":
		s.serve(c, args)
	case name == "kubectl" || name == "oc":
		s.kubectl(c, f, args)
	case editors[name]:
		s.edit(c, f, args)
	case name == "git":
		s.git(c, f, args)
	case name == "sqlite3" || name == "duckdb":
		// readfile('…'), .read, .import name files in SQL text.
		for _, w := range args {
			s.readCode(c, f, w.Value)
		}
	case name == "chmod":
		s.chmod(c, args)
	case name == "unzip":
		s.unzip(c, args)
	case grepSpecs[name].short != "" || grepSpecs[name].long != nil:
		s.grep(c, f, args)
	case awks[name] || name == "sed":
		s.program(c, f, args)
	case name == "jq" || name == "yq" || name == "gojq":
		s.jq(c, f, args)
	case name == "tar" || name == "bsdtar":
		s.tar(c, f, args)
	case name == "zip" || name == "7z" || name == "7za" || name == "7zr":
		s.zip(c, f, args)
	case name == "dd":
		s.dd(c, f, args)
	case name == "openssl":
		s.openssl(c, f, args)
	case name == "gpg" || name == "gpg2":
		keys := paths.Abs(".gnupg/private-keys-v1.d", s.home)
		for _, w := range args {
			if strings.HasPrefix(w.Value, "--export-secret") {
				f.reads = append(f.reads, hit{path: keys, class: PrivateKey})
			}
			if strings.HasPrefix(w.Value, "--delete-secret") {
				s.destroyed(c, target{path: keys}, "Deleting secret keys from")
			}
		}
	case name == "security" && (argIs(c, "dump-keychain") || argIs(c, "-w") || argIs(c, "-g")) && isTokenPrinter(c):
		f.reads = append(f.reads, hit{path: paths.Abs("Library/Keychains", s.home), class: Credential})
	case copiers[name].short != "":
		s.copy(c, f, args)
	case name == "ln":
		a := parse(args, spec{short: "St", long: []string{"suffix", "target-directory"}})
		if len(a.operands) > 1 {
			link := a.operands[len(a.operands)-1]
			if a.has("f", "force") {
				s.overwrite(c, link, a.operands[0])
			}
			s.linkTaint(c, a.operands[0], link)
		}
	case name == "tee":
		a := parse(args, spec{long: []string{"output-error"}})
		for _, w := range a.operands {
			if strings.HasPrefix(w.Value, "/dev/tcp/") || strings.HasPrefix(w.Value, "/dev/udp/") {
				f.socket = true
				continue
			}
			// What flows through tee lands in its files.
			if t, ok := s.resolve(c, w); ok && !t.dynamic {
				for _, h := range s.upstream(c) {
					if !h.held && h.class > s.taint[t.path] {
						s.taint[t.path] = h.class
					}
				}
			}
			if a.has("a", "append") {
				s.modify(c, w)
			} else {
				s.overwrite(c, w, shell.Word{})
			}
		}
	case isDeleter(name):
		a := parse(args, deleters[name])
		rec := a.has("r", "R", "recursive")
		for _, w := range a.operands {
			s.destroy(c, w, rec)
		}
	case name == "find":
		s.find(c, f)
	case name == "ssh-keygen":
		// Generating a key over an existing one asks "Overwrite (y/n)?";
		// an answer fed on stdin (yes | ssh-keygen …) replaces the key.
		a := parse(args, spec{short: "abCEfFIJjmMnNOPrtVwYzZ"})
		fed := c.Stdin.Kind == shell.StdinPipe || c.Stdin.Kind == shell.StdinHeredoc
		if fed && !a.has("l", "y", "R", "H", "F", "p", "e", "i", "B", "K", "Y", "r", "Q", "c") {
			for _, w := range a.values("f") {
				s.overwrite(c, w, shell.Word{})
			}
		}
	case envDumps[name]:
		f.env = envDump(c)
	}
	if isTokenPrinter(c) {
		s.tag(toolwall.TagCredential, "", c.Name)
		f.token = quote(c)
	}
	if f.env || f.token != "" {
		// env > /tmp/e; curl -T /tmp/e …
		for _, o := range f.outputs {
			s.taint[o] = Credential
		}
	}
	s.sender(c, f, args)
	s.reportReads(c, f)
}

// readCode records the secrets a program text names as string literals
// or words: python -c, node -e, perl -e, an awk or sed program, a
// heredoc fed to an interpreter. A token counts when it looks like a path
// (holds "/", or starts with "." or "~"); only secret classes matter, so
// ordinary paths in code pass.
func (s *state) readCode(c *shell.Command, f *facts, code string) {
	toks := strings.FieldsFunc(code, func(r rune) bool {
		return strings.ContainsRune(" \t\n\r'\"`()[]{},;=<>|&+:", r)
	})
	destructive := destructiveCode(code)
	for _, t := range toks {
		if strings.ContainsRune(t, '/') || t[0] == '.' || t[0] == '~' {
			w := shell.Word{Raw: t, Value: t, Prefix: t}
			s.read(c, f, w, false)
			if destructive {
				s.destroy(c, w, false)
			}
		}
	}
}

// isDeleter reports whether name is in deleters.
func isDeleter(name string) bool {
	_, ok := deleters[name]
	return ok
}

// isPlain reports plain readers that take no valued options.
func isPlain(name string) bool {
	_, ok := plainReaders[name]
	return ok
}

// envDump reports whether an env-like command prints the environment:
// env/printenv with no operand, export -p, declare -x/-p, set alone.
func envDump(c *shell.Command) bool {
	switch c.Name {
	case "env", "printenv":
		for _, w := range c.Args[1:] {
			if !strings.HasPrefix(w.Value, "-") {
				return c.Name == "printenv" && secretVarName(w.Value)
			}
		}
		return true
	case "set":
		return len(c.Args) == 1
	case "export":
		return len(c.Args) == 1 || argIs(c, "-p")
	}
	return argIs(c, "-x") || argIs(c, "-p")
}

// secretVarName reports whether an environment variable name looks like
// it holds a secret (printenv AWS_SECRET_ACCESS_KEY).
func secretVarName(n string) bool {
	n = strings.ToUpper(n)
	for _, w := range []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "PRIVATE_KEY", "ACCESS_KEY", "CREDENTIAL"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// redirects handles c's redirections: "<" reads, ">" truncates, ">>"
// appends, and a write to /dev/tcp or /dev/udp sends.
func (s *state) redirects(c *shell.Command, f *facts) {
	for _, rd := range c.Redirects {
		t := rd.Target
		if isFd(t.Value) && rd.Op == ">&" && s.sockets[t.Value] && !t.Dynamic {
			f.socket = true
			continue
		}
		if t.Value == "" || t.Value == "-" || isFd(t.Value) && (rd.Op == ">&" || rd.Op == "<&") {
			continue
		}
		switch rd.Op {
		case "<", "<>":
			tg, ok := s.resolve(c, t)
			if ok {
				if cl := s.classOf(tg); cl.Secret() {
					f.stdin = append(f.stdin, hit{path: tg.path, class: cl})
				}
			}
		}
		if !rd.Writes() && rd.Op != ">&" {
			continue
		}
		if strings.HasPrefix(t.Value, "/dev/tcp/") || strings.HasPrefix(t.Value, "/dev/udp/") {
			f.socket = true
			if rd.Fd != "" && rd.Fd != "1" && rd.Fd != "2" {
				s.sockets[rd.Fd] = true
			}
			continue
		}
		if tg, ok := s.resolve(c, t); ok && !tg.dynamic {
			f.outputs = append(f.outputs, tg.path)
		}
		switch rd.Op {
		case ">>", "&>>":
			s.modify(c, t)
		case "<>":
		default:
			s.overwrite(c, t, shell.Word{})
		}
	}
}

func isFd(v string) bool {
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return v != ""
}

// operandsOf returns c's arguments after the name, with "{}" of a find
// -exec tail replaced by the files find would pass, and an xargs tail
// extended by the paths its input lists.
func (s *state) operandsOf(c *shell.Command) []shell.Word {
	args := c.Args[1:]
	if c.Parent == nil {
		return args
	}
	var fill []shell.Word
	switch {
	case c.Via == "find -exec" && c.Parent.Name == "find":
		fill = findFiles(c.Parent)
	case c.Via == "xargs":
		for u := c.Parent.Stdin.From; u != nil; u = u.Stdin.From {
			fill = append(fill, listed(u)...)
		}
	default:
		return args
	}
	var out []shell.Word
	replaced := false
	for _, w := range args {
		if placeholder(w) {
			out = append(out, fill...)
			replaced = true
			continue
		}
		out = append(out, w)
	}
	if !replaced && c.Via == "xargs" {
		out = append(out, fill...)
	}
	return out
}

// placeholder reports whether w is (or holds) the {} or -I string the
// shell reader left Dynamic in an xargs or find -exec tail: dynamic, but
// not through an expansion of its own.
func placeholder(w shell.Word) bool {
	return w.Dynamic && !strings.ContainsAny(w.Raw, "$`")
}

// listed returns the paths a command prints as a list (echo, printf, ls,
// find), for an xargs downstream.
func listed(u *shell.Command) []shell.Word {
	switch u.Name {
	case "echo", "printf", "ls":
		return parse(u.Args[1:], spec{}).operands
	case "find":
		return findFiles(u)
	}
	return nil
}

// findFiles returns what a find command would list: its start
// directories, joined with each -name/-iname pattern when there are any;
// -path patterns as they are.
func findFiles(c *shell.Command) []shell.Word {
	var starts, names, out []shell.Word
	i := 1
	for ; i < len(c.Args); i++ {
		v := c.Args[i].Value
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") {
			continue
		}
		if v == "-D" {
			i++
			continue
		}
		if strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ")" || v == "," {
			break
		}
		starts = append(starts, c.Args[i])
	}
	if len(starts) == 0 {
		starts = []shell.Word{{Raw: ".", Value: ".", Prefix: "."}}
	}
	for ; i+1 < len(c.Args); i++ {
		switch c.Args[i].Value {
		case "-name", "-iname":
			names = append(names, c.Args[i+1])
		case "-path", "-ipath", "-wholename", "-iwholename":
			out = append(out, c.Args[i+1])
		}
	}
	if len(names) == 0 && len(out) == 0 {
		return starts
	}
	for _, st := range starts {
		for _, n := range names {
			v := strings.TrimSuffix(st.Value, "/") + "/" + n.Value
			out = append(out, shell.Word{Raw: st.Raw + "/" + n.Raw, Value: v, Prefix: v, Dynamic: st.Dynamic || n.Dynamic, Glob: true})
		}
	}
	return out
}

// find handles find's own actions: -delete destroys what it lists.
func (s *state) find(c *shell.Command, f *facts) {
	if !argIs(c, "-delete") {
		return
	}
	for _, w := range findFiles(c) {
		s.destroy(c, w, true)
	}
}

// grep handles the grep family: the pattern is not a file, -f FILE is,
// and a recursive search reads whole trees.
func (s *state) grep(c *shell.Command, f *facts, args []shell.Word) {
	a := parse(args, grepSpecs[c.Name])
	ops := a.operands
	if !a.has("e", "f", "regexp", "file") && len(ops) > 0 {
		ops = ops[1:]
	}
	rec := c.Name == "rg" || c.Name == "ag" || c.Name == "ack" || a.has("r", "R", "recursive", "dereference-recursive")
	for _, w := range a.values("f", "file") {
		s.read(c, f, w, false)
	}
	for _, w := range ops {
		s.read(c, f, w, rec)
	}
}

// program handles awk and sed: the first operand is the program unless
// -f (or sed -e) gave it; awk's var=value operands are not files; sed -i
// edits the files in place.
func (s *state) program(c *shell.Command, f *facts, args []shell.Word) {
	sp := awkSpec
	if c.Name == "sed" {
		sp = sedSpec
	}
	a := parse(args, sp)
	ops := a.operands
	given := a.has("f", "file")
	if c.Name == "sed" {
		given = given || a.has("e", "expression")
	}
	if !given && len(ops) > 0 {
		s.readCode(c, f, ops[0].Value)
		ops = ops[1:]
	}
	for _, w := range a.values("e", "expression") {
		s.readCode(c, f, w.Value)
	}
	for _, w := range a.values("f", "file") {
		s.read(c, f, w, false)
	}
	edits := c.Name == "sed" && (a.has("i", "in-place") || hasOptPrefix(args, "--in-place=")) || c.Name != "sed" && inPlace(c, a)
	for _, w := range ops {
		if c.Name != "sed" && strings.Contains(w.Value, "=") && !strings.HasPrefix(w.Value, "/") {
			continue
		}
		s.read(c, f, w, false)
		if edits {
			s.modify(c, w)
		}
	}
}

func hasOptPrefix(args []shell.Word, p string) bool {
	for _, w := range args {
		if strings.HasPrefix(w.Value, p) {
			return true
		}
	}
	return false
}

// jq handles jq and yq: the first operand is the filter unless
// -f/--from-file gave it; --arg and --argjson take two values;
// --rawfile and --slurpfile read their second value.
func (s *state) jq(c *shell.Command, f *facts, args []shell.Word) {
	var ops []shell.Word
	filter := true
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch v {
		case "--arg", "--argjson", "--slurpfile", "--rawfile":
			if i+2 < len(args) && (v == "--slurpfile" || v == "--rawfile") {
				s.read(c, f, args[i+2], false)
			}
			i += 2
			continue
		case "-f", "--from-file":
			if i+1 < len(args) {
				s.read(c, f, args[i+1], false)
			}
			filter = false
			i++
			continue
		case "--indent", "--tab-width", "-L", "--seq-separator":
			i++
			continue
		}
		if strings.HasPrefix(v, "-") && v != "-" {
			continue
		}
		ops = append(ops, args[i])
	}
	if filter && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, w := range ops {
		s.read(c, f, w, false)
	}
}

// tarArgLetters are tar's short options that take a value.
const tarArgLetters = "fCTXbKNgLVHI"

// tar handles tar in create mode (c, r, u): operands are read, resolved
// against the -C directory in force, and the -f archive receives them.
func (s *state) tar(c *shell.Command, f *facts, args []shell.Word) {
	create, extract := false, false
	dir := s.cwd(c)
	var archive *shell.Word
	var inputs []target
	var pending []byte // old-style letters still waiting for their value
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		if len(pending) > 0 {
			s.tarValue(c, pending[0], w, &dir, &archive)
			pending = pending[1:]
			continue
		}
		switch {
		case i == 0 && !strings.HasPrefix(v, "-") && v != "" && isLetters(v):
			for j := 0; j < len(v); j++ {
				if strings.IndexByte("cru", v[j]) >= 0 {
					create = true
				}
				extract = extract || v[j] == 'x'
				if strings.IndexByte(tarArgLetters, v[j]) >= 0 {
					pending = append(pending, v[j])
				}
			}
		case strings.HasPrefix(v, "--"):
			name, val, eq := strings.Cut(v[2:], "=")
			switch name {
			case "create", "append", "update":
				create = true
			case "extract", "get":
				extract = true
			case "file", "directory":
				if !eq && i+1 < len(args) {
					i++
					val = args[i].Value
				}
				vw := sub(w, val)
				if !eq {
					vw = args[i]
				}
				s.tarValue(c, map[string]byte{"file": 'f', "directory": 'C'}[name], vw, &dir, &archive)
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j := 1; j < len(v); j++ {
				if strings.IndexByte("cru", v[j]) >= 0 {
					create = true
				}
				extract = extract || v[j] == 'x'
				if strings.IndexByte(tarArgLetters, v[j]) >= 0 {
					var vw shell.Word
					if j+1 < len(v) {
						vw = sub(w, v[j+1:])
					} else if i+1 < len(args) {
						i++
						vw = args[i]
					}
					s.tarValue(c, v[j], vw, &dir, &archive)
					break
				}
			}
		default:
			t, ok := s.resolveIn(dir, w)
			if ok {
				inputs = append(inputs, t)
			}
		}
	}
	if extract && !create {
		s.extractInto(c, dir)
	}
	if !create {
		return
	}
	for _, t := range inputs {
		s.readTarget(f, t, true)
	}
	if archive != nil {
		if t, ok := s.resolve(c, *archive); ok && !t.dynamic {
			f.outputs = append(f.outputs, t.path)
		}
	}
}

// tarValue applies one valued tar option: -f names the archive, -C moves
// the directory later operands resolve against.
func (s *state) tarValue(c *shell.Command, letter byte, w shell.Word, dir *string, archive **shell.Word) {
	switch letter {
	case 'f':
		*archive = &w
	case 'C':
		if t, ok := s.resolveIn(*dir, w); ok && !t.dynamic {
			*dir = t.path
		} else {
			*dir = ""
		}
	}
}

// resolveIn resolves w against dir instead of the command's directory.
func (s *state) resolveIn(dir string, w shell.Word) (target, bool) {
	v := w.Value
	if v == "" || v == "-" {
		return target{}, false
	}
	v = paths.Expand(v, s.home)
	if w.Dynamic {
		return target{path: path.Clean(v), dynamic: true}, true
	}
	return target{path: paths.Abs(v, dir)}, true
}

// readTarget records a read of an already resolved target.
func (s *state) readTarget(f *facts, t target, dir bool) {
	if cl := s.classOf(t); cl.Secret() {
		f.reads = append(f.reads, hit{path: t.path, class: cl})
	} else if dir && !t.dynamic && Holds(t.path, s.home) {
		f.reads = append(f.reads, hit{path: t.path, held: true})
	}
}

func isLetters(v string) bool {
	for _, r := range v {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

// zip handles zip and 7z: the first operand (after 7z's a/u command) is
// the archive, the rest are read; zip's -x and -i lists are patterns.
func (s *state) zip(c *shell.Command, f *facts, args []shell.Word) {
	var ops []shell.Word
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if c.Name == "zip" && (v == "-x" || v == "-i" || v == "--exclude" || v == "--include") {
			for i+1 < len(args) && !strings.HasPrefix(args[i+1].Value, "-") {
				i++
			}
			continue
		}
		if c.Name == "zip" && (v == "-b" || v == "-P" || v == "-t" || v == "-n" || v == "-O" || v == "--password") {
			i++
			continue
		}
		if strings.HasPrefix(v, "-") && v != "-" {
			continue
		}
		ops = append(ops, args[i])
	}
	if c.Name != "zip" {
		if len(ops) == 0 || (ops[0].Value != "a" && ops[0].Value != "u") {
			return
		}
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return
	}
	if t, ok := s.resolve(c, ops[0]); ok && !t.dynamic {
		f.outputs = append(f.outputs, t.path)
	}
	for _, w := range ops[1:] {
		s.read(c, f, w, true)
	}
}

// dd reads if= and overwrites of=.
func (s *state) dd(c *shell.Command, f *facts, args []shell.Word) {
	for _, w := range args {
		if v, ok := strings.CutPrefix(w.Value, "if="); ok {
			s.read(c, f, sub(w, v), false)
		}
	}
	for _, w := range args {
		if v, ok := strings.CutPrefix(w.Value, "of="); ok {
			s.overwrite(c, sub(w, v), shell.Word{})
			if t, ok := s.resolve(c, sub(w, v)); ok && !t.dynamic {
				f.outputs = append(f.outputs, t.path)
			}
		}
	}
}

// opensslPrinters are the openssl commands that print or re-encode the
// -in file: a private key (rsa, pkey, ec, dsa, pkcs8, pkcs12) or any file
// (enc, base64). Others (req, x509, dgst, s_client) use a key without
// printing it.
var opensslPrinters = map[string]bool{"rsa": true, "pkey": true, "ec": true, "dsa": true, "pkcs8": true, "pkcs12": true, "enc": true, "base64": true}

// openssl reads the -in file of a command that prints it, unless -pubout
// keeps only the public half (openssl's long options take one dash).
func (s *state) openssl(c *shell.Command, f *facts, args []shell.Word) {
	if len(args) == 0 || !opensslPrinters[args[0].Value] || argIs(c, "-pubout") {
		return
	}
	for i := 1; i+1 < len(args); i++ {
		switch args[i].Value {
		case "-in":
			s.read(c, f, args[i+1], false)
		}
	}
}

// copy handles cp, mv, install, rsync and scp: sources are read (or sent,
// when the destination is another host), the destination is overwritten.
func (s *state) copy(c *shell.Command, f *facts, args []shell.Word) {
	a := parse(args, copiers[c.Name])
	if c.Name == "install" && a.has("d", "directory") {
		return
	}
	rec := a.has("r", "R", "a", "recursive", "archive") || c.Name == "mv"
	srcs := a.operands
	var dst *shell.Word
	if t := a.values("t", "target-directory"); len(t) > 0 {
		dst = &t[len(t)-1]
	} else if len(srcs) > 1 {
		dst = &srcs[len(srcs)-1]
		srcs = srcs[:len(srcs)-1]
	} else {
		return
	}
	if remote(dst.Value) {
		f.sends = append(f.sends, s.targets(c, srcs)...)
		f.argsOut = true
		return
	}
	for _, w := range srcs {
		if remote(w.Value) {
			f.argsOut = true
			continue
		}
		s.read(c, f, w, rec)
		if c.Name == "mv" {
			// A move takes the file away from where logins look for it.
			s.destroy(c, w, true)
		}
	}
	for _, w := range srcs {
		s.overwrite(c, *dst, w)
	}
	if t, ok := s.resolve(c, *dst); ok && !t.dynamic {
		// The destination is a file or a directory; record both readings.
		f.outputs = append(f.outputs, t.path)
		for _, w := range srcs {
			if st, ok := s.resolve(c, w); ok {
				f.outputs = append(f.outputs, t.path+"/"+path.Base(st.path))
			}
		}
	}
}

// targets resolves words, dropping the unresolvable.
func (s *state) targets(c *shell.Command, ws []shell.Word) []target {
	var out []target
	for _, w := range ws {
		if t, ok := s.resolve(c, w); ok {
			out = append(out, t)
		}
	}
	return out
}

// linkTaint marks a link made to a secret as that secret, so a later
// `cat link` or `curl -T link` is judged like the secret itself.
func (s *state) linkTaint(c *shell.Command, target, link shell.Word) {
	t, ok1 := s.resolve(c, target)
	l, ok2 := s.resolve(c, link)
	if !ok1 || !ok2 || l.dynamic {
		return
	}
	if cl := s.classOf(t); cl.Secret() {
		s.taint[l.path] = cl
		s.taint[l.path+"/"+path.Base(t.path)] = cl
	}
}

// destroy reports a deletion of w; rec marks a recursive one, which also
// destroys every protected file below w.
func (s *state) destroy(c *shell.Command, w shell.Word, rec bool) {
	t, ok := s.resolve(c, w)
	if !ok {
		return
	}
	prot := Protected(t.path, s.home, s.project)
	if !prot && rec && !t.dynamic {
		prot = s.aboveProtected(t.path)
	}
	if prot {
		s.destroyed(c, t, "Deleting")
	}
}

// aboveProtected reports whether the tree at p holds home's .ssh or the
// system's account files.
func (s *state) aboveProtected(p string) bool {
	for _, q := range []string{s.home + "/.ssh", "/etc/passwd", "/etc/shadow", "/etc/sudoers", "/root/.ssh"} {
		if strings.HasPrefix(q, "/") && q != "/.ssh" && paths.Under(q, p) {
			return true
		}
	}
	return false
}

// overwrite reports replacing w's content. src, when set, is the file
// copied onto w: a destination that is a key directory means the file of
// the same name inside it.
func (s *state) overwrite(c *shell.Command, w, src shell.Word) {
	t, ok := s.resolve(c, w)
	if !ok {
		return
	}
	if p := classify(t.path); p.keyDir && src.Value != "" {
		if st, ok := s.resolve(c, src); ok {
			t.path = t.path + "/" + path.Base(st.path)
		}
	}
	if Protected(t.path, s.home, s.project) {
		s.destroyed(c, t, "Overwriting")
	}
}

// modify reports appending to or editing w in place.
func (s *state) modify(c *shell.Command, w shell.Word) {
	t, ok := s.resolve(c, w)
	if !ok || !AppendTarget(t.path) {
		return
	}
	s.add(toolwall.Finding{
		Rule: RuleModifyAuth, Category: category, Score: denyScore, Action: toolwall.Deny,
		Reason: fmt.Sprintf("Changing %s was refused: `%s` would add a login key, an account or a privilege rule "+
			"(a persistence or escalation step). Do not edit authorized_keys, /etc/passwd, /etc/sudoers or PAM "+
			"files from the agent; tell the user what change is needed and let them make it.", t.path, quote(c)),
	}, t.path)
}

// destroyed reports a protected file deleted or overwritten.
func (s *state) destroyed(c *shell.Command, t target, verb string) {
	cl := Classify(t.path, s.home, s.project)
	f := toolwall.Finding{
		Rule: RuleDeleteAuth, Category: category, Score: denyScore, Action: toolwall.Deny,
		Reason: fmt.Sprintf("%s %s (%s) was refused: `%s` would destroy a key or a file that controls logins and "+
			"privileges, which cannot be undone and can lock the user out. Leave it in place; if it really must "+
			"change, ask the user to do it.", verb, t.path, cl, quote(c)),
	}
	if t.dynamic {
		f.Score, f.Action = askScore, toolwall.Ask
		f.Reason = fmt.Sprintf("%s a path ending in %s was stopped: `%s` builds the path from a variable, and it "+
			"may name a key or login file. Use a literal path, or ask the user to confirm.", verb, t.path, quote(c))
	}
	s.add(f, t.path)
	s.tag(toolwall.TagDelete, t.path, "protected")
}

// reportReads reports the secrets c reads and records taint on its
// outputs and substitution reads.
func (s *state) reportReads(c *shell.Command, f *facts) {
	all := append(append([]hit(nil), f.reads...), f.stdin...)
	var top Class
	for _, h := range all {
		if h.held {
			continue
		}
		if h.class > top {
			top = h.class
		}
		s.add(toolwall.Finding{
			Rule: RuleRead, Category: category, Score: askScore, Action: toolwall.Ask,
			Reason: fmt.Sprintf("Reading %s (%s) was stopped for a human: `%s` would copy a secret into the "+
				"conversation, the logs or another file. Pass the path to the program that needs it instead of "+
				"printing it (ssh -i, --env-file, a config setting), read a template such as .env.example for "+
				"names, or ask the user to run this themselves.", h.path, h.class, quote(c)),
		}, h.path)
		s.tag(toolwall.TagSensitiveRead, h.path, "")
		if h.class == Credential || h.class == PrivateKey {
			s.tag(toolwall.TagCredential, h.path, "")
		}
	}
	if top != None {
		for _, o := range f.outputs {
			if top > s.taint[o] {
				s.taint[o] = top
			}
		}
		if substituted(c) {
			s.substituted = append(s.substituted, all...)
		}
	}
}

// substituted reports whether c runs inside $(…), `…` or <(…), so its
// output becomes part of another command's arguments.
func substituted(c *shell.Command) bool {
	for x := c; x != nil; x = x.Parent {
		switch x.Via {
		case "$()", "``", "<()", ">()":
			return true
		}
	}
	return false
}

// sender records how c sends data to the network.
func (s *state) sender(c *shell.Command, f *facts, args []shell.Word) {
	name := c.Name
	if argSenders[name] {
		f.argsOut = true
	}
	if streamSenders[name] {
		f.stdinOut = true
	}
	switch name {
	case "curl":
		a := parse(args, curlSpec)
		for _, o := range a.options {
			switch {
			case !o.valued:
				continue
			case o.name == "o" || o.name == "output":
				s.overwrite(c, o.value, shell.Word{})
			case (o.name == "w" || o.name == "write-out") && strings.HasPrefix(o.value.Value, "@"):
				// -w @file prints the file.
				s.read(c, f, sub(o.value, o.value.Value[1:]), false)
			}
			file, ok := curlFile(o.name, o.value.Value)
			if !ok {
				continue
			}
			if file == "-" || file == "." && (o.name == "T" || o.name == "upload-file") {
				f.stdinOut = true
				continue
			}
			if t, ok := s.resolve(c, sub(o.value, file)); ok {
				f.sends = append(f.sends, t)
			}
		}
	case "wget":
		a := parse(args, wgetSpec)
		for _, w := range a.values("O", "output-document") {
			s.overwrite(c, w, shell.Word{})
		}
		for _, w := range a.values("post-file", "body-file", "i", "input-file") {
			if w.Value == "-" || w.Value == "/dev/stdin" {
				f.stdinOut = true
				continue
			}
			if t, ok := s.resolve(c, w); ok {
				f.sends = append(f.sends, t)
			}
		}
	case "ssh":
		if !parse(args, sshSpec).has("n") {
			f.stdinOut = true
		}
	case "socat":
		for _, w := range args {
			v := strings.ToLower(w.Value)
			if v == "-" || strings.HasPrefix(v, "stdin") || strings.HasPrefix(v, "stdio") {
				f.stdinOut = true
			}
			for _, p := range []string{"file:", "open:", "gopen:"} {
				if rest, ok := strings.CutPrefix(v, p); ok {
					file, _, _ := strings.Cut(w.Value[len(p):len(p)+len(rest)], ",")
					if t, ok := s.resolve(c, sub(w, file)); ok {
						f.sends = append(f.sends, t)
					}
				}
			}
		}
	case "http", "https", "xh", "xhs":
		f.stdinOut = !argIs(c, "--ignore-stdin") && !argIs(c, "-I")
		for _, w := range args {
			v := w.Value
			if strings.Contains(v, "://") || strings.HasPrefix(v, "-") {
				continue
			}
			if i := strings.Index(v, "=@"); i >= 0 {
				s.appendSend(c, f, w, v[i+2:])
			} else if i := strings.IndexByte(v, '@'); i > 0 && !strings.ContainsAny(v[:i], "=:") {
				s.appendSend(c, f, w, v[i+1:])
			}
		}
	case "openssl":
		// s_client sends what it reads on standard input.
		f.stdinOut = f.stdinOut || len(args) > 0 && args[0].Value == "s_client"
	case "sftp", "ftp", "lftp", "tftp":
		s.transfer(c, f, args)
	case "gh":
		s.gh(c, f, args)
	case "mail", "mailx", "mutt":
		f.stdinOut = true
		for i, w := range args {
			if (w.Value == "-a" || w.Value == "-A" || w.Value == "--attach") && i+1 < len(args) {
				s.appendSend(c, f, args[i+1], args[i+1].Value)
			}
		}
	case "az":
		for i, w := range args {
			if (w.Value == "-f" || w.Value == "--file") && i+1 < len(args) {
				s.appendSend(c, f, args[i+1], args[i+1].Value)
			}
		}
	}
	if subs, ok := cloudCopies[name]; ok && len(args) > 0 && contains(subs, args[0].Value) {
		hasRemote := false
		for _, w := range args[1:] {
			if remote(w.Value) {
				hasRemote = true
			}
		}
		if hasRemote {
			for _, w := range args[1:] {
				if !remote(w.Value) && !strings.HasPrefix(w.Value, "-") {
					s.appendSend(c, f, w, w.Value)
				}
			}
		}
	}
}

func (s *state) appendSend(c *shell.Command, f *facts, w shell.Word, v string) {
	if t, ok := s.resolve(c, sub(w, v)); ok {
		f.sends = append(f.sends, t)
	}
}

// egress reports secrets c sends to the network: files it names, its
// standard input (redirects and every command upstream in the pipe), the
// input of the xargs it runs under, and secrets read by a $(…) when c
// has a dynamic argument.
func (s *state) egress(c *shell.Command) {
	f := s.facts[c]
	if f == nil {
		return
	}
	var sent []hit
	for _, t := range f.sends {
		if cl := s.classOf(t); cl.Secret() {
			sent = append(sent, hit{path: t.path, class: cl})
		} else if !t.dynamic && Holds(t.path, s.home) {
			sent = append(sent, hit{path: t.path, held: true})
		}
	}
	if f.stdinOut || f.socket {
		sent = append(sent, f.stdin...)
		sent = append(sent, s.upstream(c)...)
	}
	if f.socket {
		sent = append(sent, f.reads...)
		if f.env {
			sent = append(sent, hit{path: envPath, class: Credential})
		}
		if f.token != "" {
			sent = append(sent, tokenHit(f.token))
		}
	}
	if f.argsOut && c.Via == "xargs" && c.Parent != nil {
		sent = append(sent, s.upstream(c.Parent)...)
	}
	if f.argsOut && dynamicArgs(c) || f.stdinOut && c.Stdin.Kind == shell.StdinHeredoc && c.Stdin.Dynamic {
		sent = append(sent, s.substituted...)
	}
	for _, h := range sent {
		what := fmt.Sprintf("%s (%s)", h.path, h.class)
		if h.held {
			what = fmt.Sprintf("%s (a tree holding keys and credentials)", h.path)
		}
		if h.path == envPath {
			what = "the environment (it holds tokens and keys)"
		}
		if h.label != "" {
			what = h.label
		}
		s.add(toolwall.Finding{
			Rule: RuleExfil, Category: category, Score: denyScore, Action: toolwall.Deny,
			Reason: fmt.Sprintf("Sending %s to the network was refused: `%s` would copy a secret off this "+
				"machine, which cannot be taken back. Do not upload keys, credentials, .env files or the "+
				"environment; if a service needs a credential, ask the user to configure it.", what, quote(c)),
		}, h.path)
		s.tag(toolwall.TagEgress, h.path, "secret")
	}
}

// envPath stands for the environment in hits.
const envPath = "(environment)"

// tokenHit stands for the access token a token printer (gh auth token)
// writes to its output.
func tokenHit(cmd string) hit {
	return hit{path: "(token)", class: Credential, label: "the access token printed by `" + cmd + "`"}
}

// upstream returns the secrets read by every command feeding c's pipe.
func (s *state) upstream(c *shell.Command) []hit {
	var out []hit
	seen := map[*shell.Command]bool{}
	for u := c.Stdin.From; u != nil && !seen[u]; u = u.Stdin.From {
		for _, m := range s.group(u) {
			if seen[m] {
				continue
			}
			seen[m] = true
			if uf := s.facts[m]; uf != nil {
				out = append(out, uf.reads...)
				out = append(out, uf.stdin...)
				if uf.env {
					out = append(out, hit{path: envPath, class: Credential})
				}
				if uf.token != "" {
					out = append(out, tokenHit(uf.token))
				}
			}
		}
	}
	return out
}

// group returns u and the commands of the same pipeline stage before it:
// the shell reader links a pipe to the last command of a ( … ) or { … }
// stage only, and every command of that stage writes into the pipe. The
// stage's commands share u's Pipeline and Piped and come right before it
// (commands nested in $(…) and the like are skipped over).
func (s *state) group(u *shell.Command) []*shell.Command {
	out := []*shell.Command{u}
	i, ok := s.index[u]
	if !ok {
		return out
	}
	for j := i - 1; j >= 0; j-- {
		m := s.script.Commands[j]
		if m.Depth != u.Depth || m.Via != u.Via {
			continue
		}
		if m.Pipeline != u.Pipeline || m.Piped != u.Piped || m.Piped < 2 {
			break
		}
		out = append(out, m)
	}
	return out
}

// dynamicArgs reports whether any argument of c is only known at run time.
func dynamicArgs(c *shell.Command) bool {
	for _, w := range c.Args[1:] {
		if w.Dynamic {
			return true
		}
	}
	return false
}

// add appends f once per rule and path.
func (s *state) add(f toolwall.Finding, p string) {
	k := f.Rule + "\x00" + p
	if s.seen[k] {
		return
	}
	s.seen[k] = true
	s.r.Add(f)
}

// tag appends an effect once.
func (s *state) tag(t toolwall.Tag, p, detail string) {
	k := "tag\x00" + string(t) + "\x00" + p + "\x00" + detail
	if s.seen[k] {
		return
	}
	s.seen[k] = true
	s.r.Tag(t, p, detail)
}

// quote renders c for a reason, at most 160 bytes.
func quote(c *shell.Command) string {
	q := strings.Join(strings.Fields(c.String()), " ")
	if len(q) > 160 {
		q = q[:157] + "..."
	}
	return strings.ReplaceAll(q, "`", "'")
}
