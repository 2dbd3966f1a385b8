package shell

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/toolwall/toolwall/programs"
)

// The dry run reads a script the way bash itself would expand it: it runs
// the script in mvdan.cc/sh/v3/interp with every side effect sealed.
// External commands are recorded with their expanded argv and never
// started; files are never opened, created or changed (a redirection
// writes to nothing, a read finds nothing); every path "exists" as a
// directory, so cd succeeds and tests take one of their branches. A
// variable the script did not set, the positional parameters at top
// level, and the output of an external command are unknown: they expand
// to a marker that makes the words holding them Dynamic (what
// cannot be resolved is not safe). The catalog says what some programs print (mktemp: a
// fresh temporary path). eval, source, trap and functions run inside the
// interpreter. The static walk still reads every branch; the dry run adds
// what only expansion shows ($x -rf /, rm$IFS-rf$IFS/, eval "$r",
// $(echo rm), the mktemp cleanup idiom) and replaces the static reading
// of a command whose words it resolved.
//
// Bounds, in work first: at most dryMaxCalls simple commands (of them
// dryMaxFuncCalls calls of the script's functions, which bounds recursion),
// dryMaxArgBytes bytes of arguments in one command, dryMaxVarBytes bytes
// in all variables when a command runs; a time budget (dryBudget) is the
// last resort for a loop that runs no command. Past any of them the dry
// run's result is dropped (the static reading stands) and Script.DryRun
// says why. Not dry-run: scripts over dryMaxSource bytes, with process
// substitution (the interpreter would create FIFOs) or coproc, with a
// loop that runs no command at all (nothing would count its turns), that read
// values of this process ($$, $RANDOM, …), whose brace expansions make
// more than dryMaxBraceWords words, or whose assignments could grow a
// value geometrically (an assignment with several expansions inside a
// loop, or such assignments whose growth factors multiply past
// dryMaxGrowth, or a ${x//…/$y} replacement).
const (
	dryMaxCalls      = 400
	dryMaxFuncCalls  = 100
	dryMaxArgBytes   = 64 << 10
	dryMaxVarBytes   = 1 << 20
	dryMaxSource     = 16 << 10
	dryMaxBraceWords = 4096
	dryMaxGrowth     = 1 << 10
	dryBudget        = 30 * time.Millisecond
)

// Unknown values expand to markUnknown NAME markEnd; they contain no
// blank, so they stay one word where a real value might split.
const (
	markUnknown = "\uE000"
	markEnd     = "\uE001"
)

// MktempPath is the path the dry run reads for what mktemp prints (a
// program whose catalog entry says "prints tmpdir" or "prints tmpfile"):
// a fresh directory or file under /tmp that only this user can write.
const MktempPath = "/tmp/tmp.toolwall"

// errDryLimit stops a dry run past its bounds.
var errDryLimit = errors.New("dry run: too much work")

// dryCall is one simple command the dry run saw.
type dryCall struct {
	args []string
	// offset is the command's byte offset in the top-level source; -1
	// (or beyond the source) for commands of eval, source and trap text.
	offset int
	dir    string
}

// needsDryRun reports whether the static reading left a word that the
// dry run may resolve: a dynamic word that comes from a parameter
// expansion or a command substitution, in a script that assigns or
// computes something (assignments, functions, eval, set, read, loops,
// substitutions).
func needsDryRun(s *Script, file *syntax.File) bool {
	dyn := false
	for _, c := range s.Commands {
		for _, a := range c.Args {
			if a.Dynamic && strings.ContainsAny(a.Raw, "$`") {
				dyn = true
				break
			}
		}
		if dyn {
			break
		}
	}
	if !dyn {
		return false
	}
	ok, computes := true, false
	syntax.Walk(file, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ProcSubst, *syntax.CoprocClause:
			ok = false
		case *syntax.Assign, *syntax.FuncDecl, *syntax.CmdSubst, *syntax.ForClause, *syntax.WhileClause,
			*syntax.DeclClause:
			computes = true
		case *syntax.ParamExp:
			if x.Param != nil {
				switch x.Param.Value {
				case "IFS":
					computes = true
				case "PWD", "HOME":
					// ${PWD%/*}, ${HOME/…}: an operator on a known value
					computes = computes || x.Exp != nil || x.Repl != nil || x.Slice != nil
				case "$", "RANDOM", "SRANDOM", "BASHPID", "PPID", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME",
					"UID", "EUID", "GID", "GROUPS", "HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE", "BASH_VERSION":
					ok = false // values of this process: the dry run would not be the same twice
				}
			}
		case *syntax.CallExpr:
			switch litOf(firstWord(x)) {
			case "eval", "set", "shift", "read", "source", ".", "trap", "printf", "declare", "local":
				computes = true
			}
		}
		return ok
	})
	// bounded walks the tree again, deeper: only for a script the dry run
	// could help.
	return ok && computes && bounded(file)
}

// bounded reports whether running file cannot make a value grow
// geometrically or a brace expansion explode (see the bounds above).
func bounded(file *syntax.File) bool {
	ok := true
	growth := 1
	var walk func(n syntax.Node, loop bool)
	walk = func(n syntax.Node, loop bool) {
		syntax.Walk(n, func(m syntax.Node) bool {
			if !ok {
				return false
			}
			switch x := m.(type) {
			case *syntax.WhileClause, *syntax.ForClause:
				if m != n {
					if _, cstyle := m.(*syntax.ForClause); !cstyle || isCStyle(m) {
						if !runsCommand(m) {
							ok = false
						}
					}
					walk(m, true)
					return false
				}
			case *syntax.Assign:
				if k := expansions(x.Value) + expansions(x.Array); k >= 2 {
					growth *= k
					if loop || growth > dryMaxGrowth {
						ok = false
					}
				}
			case *syntax.ParamExp:
				if x.Repl != nil && expansions(x.Repl.With) > 0 {
					ok = false
				}
			case *syntax.Lit:
				// brace expansion happens on literal text ({1..100000})
				if strings.Contains(x.Value, "..") && strings.Contains(x.Value, "{") {
					w := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: x.Value}}}
					if syntax.SplitBraces(w) && braceProduct(w) > dryMaxBraceWords {
						ok = false
					}
				}
			}
			return true
		})
	}
	walk(file, false)
	return ok
}

// isCStyle reports whether n is a C-style for loop.
func isCStyle(n syntax.Node) bool {
	f, ok := n.(*syntax.ForClause)
	if !ok {
		return false
	}
	_, c := f.Loop.(*syntax.CStyleLoop)
	return c
}

// runsCommand reports whether n holds a simple command.
func runsCommand(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			found = true
		}
		return !found
	})
	return found
}

// expansions counts the parameter expansions and substitutions in n.
func expansions(n syntax.Node) int {
	if n == nil {
		return 0
	}
	switch v := n.(type) {
	case *syntax.Word:
		if v == nil {
			return 0
		}
	case *syntax.ArrayExpr:
		if v == nil {
			return 0
		}
	}
	k := 0
	syntax.Walk(n, func(m syntax.Node) bool {
		switch m.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst:
			k++
		}
		return true
	})
	return k
}

// braceProduct bounds the number of words the brace expansions of w make.
func braceProduct(w *syntax.Word) int {
	n := 1
	for _, p := range w.Parts {
		be, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		k := 0
		if be.Sequence {
			k = braceCount(be)
		} else {
			for _, e := range be.Elems {
				k += braceProduct(e)
			}
		}
		n *= max(k, 1)
		if n > dryMaxBraceWords {
			return n
		}
	}
	return n
}

// braceCount is the number of words a sequence brace expansion {a..b..c}
// makes (a large number when it cannot tell).
func braceCount(b *syntax.BraceExp) int {
	if len(b.Elems) < 2 {
		return 1
	}
	from, err1 := strconv.Atoi(b.Elems[0].Lit())
	to, err2 := strconv.Atoi(b.Elems[1].Lit())
	if err1 != nil || err2 != nil {
		if len(b.Elems[0].Lit()) == 1 && len(b.Elems[1].Lit()) == 1 {
			return 256 // {a..z}
		}
		return dryMaxBraceWords + 1
	}
	n := to - from
	if n < 0 {
		n = -n
	}
	step := 1
	if len(b.Elems) > 2 {
		if s, err := strconv.Atoi(b.Elems[2].Lit()); err == nil && s != 0 {
			step = max(s, -s)
		}
	}
	return n/step + 1
}

func firstWord(c *syntax.CallExpr) *syntax.Word {
	if len(c.Args) == 0 {
		return nil
	}
	return c.Args[0]
}

// branchFree reports whether every variable the script sets is set on
// every path through it: no assignment (or set, shift, read, eval,
// source, unset, declare, …) inside an if, case, while, until, C-style or
// dynamic for loop, the right side of && or ||, or a function body. Then
// the values the dry run computes are the values bash computes, and its
// reading of a command may replace the static one; otherwise it is only
// added beside it.
func branchFree(file *syntax.File) bool {
	free := true
	var visit func(n syntax.Node, cond bool) bool
	visit = func(n syntax.Node, cond bool) bool {
		syntax.Walk(n, func(m syntax.Node) bool {
			if !free {
				return false
			}
			switch x := m.(type) {
			case *syntax.IfClause, *syntax.CaseClause, *syntax.WhileClause, *syntax.FuncDecl:
				if m != n {
					return visit(m, true) && false
				}
			case *syntax.ForClause:
				if m != n {
					wi, static := x.Loop.(*syntax.WordIter)
					if static {
						for _, it := range wi.Items {
							if it.Lit() == "" {
								static = false
							}
						}
					}
					return visit(m, cond || !static) && false
				}
			case *syntax.BinaryCmd:
				if m != n && (x.Op == syntax.AndStmt || x.Op == syntax.OrStmt) {
					visit(x.X, cond)
					visit(x.Y, true)
					return false
				}
			case *syntax.Assign, *syntax.DeclClause:
				if cond {
					free = false
				}
			case *syntax.LetClause, *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.CStyleLoop:
				// arithmetic on an unknown value computes a wrong number
				free = false
			case *syntax.CallExpr:
				switch litOf(firstWord(x)) {
				case "set", "shift", "read", "eval", "source", ".", "unset", "export", "mapfile", "readarray", "getopts", "printf", "local", "declare", "typeset", "cd", "pushd", "popd":
					if cond {
						free = false
					}
				}
			}
			return true
		})
		return free
	}
	for _, st := range file.Stmts {
		visit(st, false)
	}
	return free
}

// dryEnv is the interpreter's environment: HOME, USER, LOGNAME, PATH,
// SHELL known; IFS unset (bash's default splitting); everything else an
// unknown value.
type dryEnv struct {
	known map[string]string
}

func (e dryEnv) Get(name string) expand.Variable {
	if v, ok := e.known[name]; ok {
		return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}
	}
	switch name {
	case "IFS", "OLDPWD", "CDPATH", "BASH_ENV", "ENV", "OPTIND", "OPTARG", "GLOBIGNORE", "TMPDIR":
		return expand.Variable{}
	}
	return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: markUnknown + name + markEnd}
}

func (e dryEnv) Each(f func(name string, vr expand.Variable) bool) {
	for k, v := range e.known {
		if !f(k, expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}) {
			return
		}
	}
}

// dirInfo is what every stat answers: a directory.
type dirInfo string

func (d dirInfo) Name() string       { return path.Base(string(d)) }
func (d dirInfo) Size() int64        { return 0 }
func (d dirInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o755 }
func (d dirInfo) ModTime() time.Time { return time.Time{} }
func (d dirInfo) IsDir() bool        { return true }
func (d dirInfo) Sys() any           { return nil }

// discard is a file every redirection writes to.
type discard struct{}

func (discard) Read([]byte) (int, error)    { return 0, io.EOF }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) Close() error                { return nil }

// dryRunSource parses src anew with p (bash) and dry-runs that tree (see
// dryRun).
func dryRunSource(p *syntax.Parser, src string, opt Options) ([]dryCall, error) {
	file, err := p.Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, err
	}
	return dryRun(file, src, opt)
}

// dryRun runs file (parsed from src) sealed, within the bounds above. It
// returns the simple commands it saw, or an error saying why it stopped.
func dryRun(file *syntax.File, src string, opt Options) ([]dryCall, error) {
	ctx, cancel := context.WithTimeout(context.Background(), dryBudget)
	defer cancel()
	// The interpreter runs the sides of a pipeline concurrently, so the
	// handlers' state is shared under mu.
	var (
		mu    sync.Mutex
		calls []dryCall
		n     int
		fn    int
		done  bool // Run returned: a goroutine it left behind (a pipeline side past the deadline) records nothing
	)
	funcs := map[string]bool{}
	syntax.Walk(file, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.FuncDecl); ok && d.Name != nil {
			funcs[d.Name.Value] = true
		}
		return true
	})
	pad := strings.Repeat(" ", len(src)+1)
	env := dryEnv{known: map[string]string{
		"PATH": "/usr/local/bin:/usr/bin:/bin", "SHELL": "/bin/bash",
	}}
	if opt.Home != "" {
		env.known["HOME"] = opt.Home
	}
	if opt.User != "" {
		env.known["USER"], env.known["LOGNAME"] = opt.User, opt.User
	}
	dir := opt.Cwd
	if !path.IsAbs(dir) {
		dir = "/" + markUnknown + "cwd" + markEnd
	}
	env.known["PWD"] = dir
	record := func(ctx context.Context, args []string) {
		hc := interp.HandlerCtx(ctx)
		off := -1
		if hc.Pos.IsValid() && int(hc.Pos.Offset()) < len(src) {
			off = int(hc.Pos.Offset())
		}
		mu.Lock()
		if !done {
			calls = append(calls, dryCall{args: append([]string(nil), args...), offset: off, dir: hc.Dir})
		}
		mu.Unlock()
	}
	r, err := interp.New(
		interp.Env(env),
		func(r *interp.Runner) error { r.Dir = dir; return nil },
		interp.Params("--", markUnknown+"1"+markEnd, markUnknown+"2"+markEnd, markUnknown+"3"+markEnd),
		// No stdin: a reader that is not an *os.File would cost a pipe
		// and a goroutine per dry run; read, mapfile and readarray are
		// answered by the call handler, and a program that prints its
		// stdin reads nothing (below), as from an empty one.
		interp.StdIO(nil, io.Discard, io.Discard),
		interp.CallHandler(func(ctx context.Context, args []string) ([]string, error) {
			mu.Lock()
			n++
			if funcs[args[0]] {
				fn++
			}
			over := done || n > dryMaxCalls || fn > dryMaxFuncCalls
			mu.Unlock()
			if over {
				return nil, errDryLimit
			}
			size := 0
			for _, a := range args {
				size += len(a)
			}
			if size > dryMaxArgBytes {
				return nil, errDryLimit
			}
			vars := 0
			interp.HandlerCtx(ctx).Env.Each(func(_ string, v expand.Variable) bool {
				vars += len(v.Str)
				for _, e := range v.List {
					vars += len(e)
				}
				return vars <= dryMaxVarBytes
			})
			if vars > dryMaxVarBytes {
				return nil, errDryLimit
			}
			record(ctx, args)
			switch args[0] {
			case "eval", "trap":
				// text run later is read at offsets past the source, so
				// that it is never taken for a command of the source
				out := append([]string(nil), args...)
				for i := 1; i < len(out); i++ {
					if !strings.HasPrefix(out[i], "-") {
						out[i] = pad + out[i]
						if args[0] == "trap" {
							break
						}
					}
				}
				return out, nil
			case "type", "hash", "which":
				return []string{"echo", markUnknown + "lookup" + markEnd}, nil
			case "command":
				if len(args) > 1 && (args[1] == "-v" || args[1] == "-V") {
					return []string{"echo", markUnknown + "lookup" + markEnd}, nil
				}
			case "read", "mapfile", "readarray":
				// stdin is unknown: reading fails, so loops over it end
				return []string{"false"}, nil
			}
			return args, nil
		}),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
			return func(ctx context.Context, args []string) error {
				hc := interp.HandlerCtx(ctx)
				out := markUnknown + "out" + markEnd
				if p, parsed := printer(args); p != nil {
					switch p.Prints {
					case "dirname", "basename", "realpath":
						if text := pathsPrinted(p.Prints, parsed, args, hc.Dir); text != "" {
							out = text
						}
					case "stdin":
						out = ""
						if hc.Stdin != nil {
							b, _ := io.ReadAll(io.LimitReader(hc.Stdin, dryMaxArgBytes))
							out = strings.TrimSuffix(string(b), "\n")
						}
					case "tmpdir", "tmpfile":
						out = MktempPath
					case "cwd":
						out = hc.Dir
					case "user":
						out = opt.User
					case "home":
						out = opt.Home
					case "nothing", "shellenv":
						// shellenv: the code it prints sets up its own
						// environment (eval "$(pyenv init -)"); read as
						// code that runs nothing more
						out = ""
					}
				}
				if out != "" {
					_, _ = io.WriteString(hc.Stdout, out+"\n")
				}
				return nil
			}
		}),
		interp.OpenHandler(func(ctx context.Context, name string, flag int, _ os.FileMode) (io.ReadWriteCloser, error) {
			if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_APPEND|os.O_TRUNC) != 0 {
				return discard{}, nil
			}
			if name == "/dev/null" {
				return discard{}, nil
			}
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}),
		interp.ReadDirHandler2(func(context.Context, string) ([]fs.DirEntry, error) { return nil, nil }),
		interp.StatHandler(func(_ context.Context, name string, _ bool) (fs.FileInfo, error) { return dirInfo(name), nil }),
		interp.AccessHandler(func(context.Context, string, interp.AccessMode) error { return nil }),
	)
	if err != nil {
		return nil, err
	}
	name := file.Name
	file.Name = markUnknown + "0" + markEnd // $0 of a sourced-less script is unknown
	// Background jobs run in the foreground here: the same commands run,
	// and the interpreter's goroutine for a job inside $(…) would write
	// the substitution's output while it is read.
	var bg []*syntax.Stmt
	syntax.Walk(file, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok && st.Background {
			st.Background = false
			bg = append(bg, st)
		}
		return true
	})
	err = r.Run(ctx, file)
	mu.Lock()
	done = true
	out := calls
	mu.Unlock()
	for _, st := range bg {
		st.Background = true
	}
	file.Name = name
	if errors.Is(err, errDryLimit) || ctx.Err() != nil {
		return nil, errDryLimit
	}
	// Any other error (an exit status, a builtin's failure) ends the run
	// early; what ran until then is kept.
	return out, nil
}

// printer returns the catalog entry (the subcommand's when one is named)
// that says what args print, or nil.
func printer(args []string) (*programs.Program, *programs.Parsed) {
	p := programs.Lookup(args[0])
	if p == nil {
		return nil, nil
	}
	parsed := programs.Parse(p, plainTokens(args))
	if q := parsed.Program; q != nil {
		p = q
	}
	if p.Prints == "" || len(p.PrintsIf) > 0 && !parsed.Holds(p.PrintsIf) {
		return nil, nil
	}
	return p, parsed
}

// pathsPrinted is what dirname, basename and realpath print for their
// operands (dir is the working directory): each operand's directory,
// last element or absolute clean path, a line each; "" when an operand
// is unknown.
func pathsPrinted(what string, parsed *programs.Parsed, args []string, dir string) string {
	var out []string
	for _, op := range parsed.Operands {
		a := args[op.Word]
		if strings.Contains(a, markUnknown) {
			return ""
		}
		switch what {
		case "dirname":
			t := strings.TrimRight(a, "/")
			switch {
			case t == "" && a != "":
				t = "/"
			case t == "":
				t = "."
			default:
				t = path.Dir(t)
			}
			out = append(out, t)
		case "basename":
			out = append(out, path.Base(a))
			if !parsed.Has("multiple") && !parsed.Has("suffix") {
				return out[0]
			}
		case "realpath":
			if !path.IsAbs(a) {
				a = path.Join(dir, a)
			}
			out = append(out, path.Clean(a))
		}
	}
	return strings.Join(out, "\n")
}

// plainTokens are static parser tokens for args.
func plainTokens(args []string) []programs.Token {
	out := make([]programs.Token, len(args))
	for i, a := range args {
		out[i] = programs.Token{Value: a, Prefix: a}
	}
	return out
}

// dryWord turns one argument of the dry run into a word: a static word,
// or a Dynamic one when it holds an unknown value.
func dryWord(a string) Word {
	k := strings.Index(a, markUnknown)
	if k < 0 {
		glob := strings.ContainsAny(a, "*?") || strings.Contains(a, "[") && strings.Contains(a[strings.Index(a, "["):], "]")
		return Word{Raw: a, Value: a, Prefix: a, Glob: glob}
	}
	var raw, val, code strings.Builder // code: Word.code
	for s := a; s != ""; {
		i := strings.Index(s, markUnknown)
		if i < 0 {
			raw.WriteString(s)
			val.WriteString(s)
			code.WriteString(s)
			break
		}
		raw.WriteString(s[:i])
		val.WriteString(s[:i])
		code.WriteString(s[:i])
		code.WriteString(runtimeHole)
		s = s[i+len(markUnknown):]
		j := strings.Index(s, markEnd)
		if j < 0 {
			break
		}
		raw.WriteString("$" + s[:j])
		s = s[j+len(markEnd):]
	}
	w := Word{Raw: raw.String(), Value: val.String(), Prefix: a[:k], Dynamic: true}
	if strings.Count(a, markUnknown) > 1 {
		w.code = code.String() // one unknown part is where Prefix ends (codeText)
	}
	return w
}

// dryDir returns the directory of a dry-run call, "" when it is unknown.
func dryDir(d string) string {
	if strings.Contains(d, markUnknown) {
		return ""
	}
	return d
}

// mergeDry merges the dry run's calls into the static reading. When the
// script is branch-free (exact), a top-level command with a word the
// static walk left dynamic (its program named literally) is replaced by
// what the dry run ran at its place, with what it runs in turn re-read;
// otherwise, and for a program named through a variable, the dry run's
// reading is added beside the static one, so the verdict can only get
// stricter. The dry run's other commands (eval'd, sourced or trapped
// text) are added after the static reading, Via "dry run", unless the
// static reading already has the same argv in the same directory.
func (w *walker) mergeDry(calls []dryCall, top frame, exact bool) {
	byOff := map[int][]dryCall{}
	var extra []dryCall
	for _, c := range calls {
		if c.offset >= 0 {
			byOff[c.offset] = append(byOff[c.offset], c)
		} else {
			extra = append(extra, c)
		}
	}
	// where the dry run knew every word of a command the static reading
	// did not (eval "$x" after x=…), the code the static reading took for
	// built at run time from those words is known: it is read again from
	// the dry run's argv
	known := map[int]bool{}
	for off, dc := range byOff {
		known[off] = !slices.ContainsFunc(dc, func(d dryCall) bool {
			return slices.ContainsFunc(d.args, func(a string) bool { return strings.Contains(a, markUnknown) })
		})
	}
	old := w.script.Commands
	w.script.Commands = make([]*Command, 0, len(old))
	w.out = &w.script.Commands
	dropped := map[*Command]bool{}
	seen := map[string]bool{}
	later := map[*Command]dryCall{}
	if exact {
		extra = deferredRuns(old, extra, later)
	}
	for _, c := range old {
		if w.err != nil {
			return
		}
		if ancestorIn(c, dropped) || c.built && c.Parent != nil && c.Parent.offset >= 0 && known[c.Parent.offset] && hasDynamic(c.Parent) {
			continue
		}
		if d, ok := later[c]; ok {
			dropped[c] = true
			w.emitDry(d, c, top, seen, true)
			continue
		}
		if dc, ok := byOff[c.offset]; ok && exact && c.offset >= 0 && len(c.Args) > 0 && !c.Args[0].Dynamic && varDynamic(c) {
			delete(byOff, c.offset)
			if !slices.ContainsFunc(dc, func(d dryCall) bool { return !sameReading(c.Args, w.unwrapped(d.args)) }) {
				w.script.Commands = append(w.script.Commands, c) // the dry run knows no more
				seen[callKey(c)] = true
				continue
			}
			dropped[c] = true
			for _, d := range dc {
				w.emitDry(d, c, top, seen, true)
			}
			continue
		}
		w.script.Commands = append(w.script.Commands, c)
		seen[callKey(c)] = true
	}
	for _, c := range old {
		if dc, ok := byOff[c.offset]; ok && c.offset >= 0 && !dropped[c] && hasDynamic(c) {
			delete(byOff, c.offset)
			for _, d := range dc {
				w.emitDry(d, c, top, seen, false)
			}
		}
	}
	for _, d := range extra {
		w.emitDry(d, nil, top, seen, false)
	}
}

// deferredRuns pairs the commands of text run later (a trap's action,
// read at no offset of the source) with the dry run's calls that fit
// them: a command whose words are dynamic only through variables, and
// one call whose words agree with its static words and certain ends
// ("rm -rf \"$TMP\"" in a trap, and rm -rf /tmp/tmp.x as the dry run ran
// it). A pair goes into later; the calls left unpaired are returned.
func deferredRuns(old []*Command, extra []dryCall, later map[*Command]dryCall) []dryCall {
	for _, c := range old {
		if c.offset >= 0 || c.Via != "trap" || len(c.Args) == 0 || c.Args[0].Dynamic || !varDynamic(c) {
			continue
		}
		at := -1
		for i, d := range extra {
			if fitsReading(c.Args, d.args) {
				if at >= 0 {
					at = -2
					break
				}
				at = i
			}
		}
		if at >= 0 {
			later[c] = extra[at]
			extra = slices.Delete(extra, at, at+1)
		}
	}
	return extra
}

// fitsReading reports whether a dry-run argv could be the run of the
// static words: the same count, the static words equal, each dynamic one
// starting and ending with its certain text.
func fitsReading(static []Word, dry []string) bool {
	if len(static) != len(dry) {
		return false
	}
	for i, s := range static {
		if strings.HasPrefix(dry[i], markUnknown) {
			return false
		}
		if !s.Dynamic && s.Value != dry[i] || s.Dynamic && (!strings.HasPrefix(dry[i], s.Prefix) || !strings.HasSuffix(dry[i], s.Suffix)) {
			return false
		}
	}
	return true
}

// ancestorIn reports whether a command a runs inside is in set.
func ancestorIn(c *Command, set map[*Command]bool) bool {
	for p := c.Parent; p != nil; p = p.Parent {
		if set[p] {
			return true
		}
	}
	return false
}

// hasDynamic reports whether a command has a dynamic word.
func hasDynamic(c *Command) bool {
	for _, a := range c.Args {
		if a.Dynamic {
			return true
		}
	}
	return false
}

// varDynamic reports whether a command has a word made dynamic by a
// variable (a parameter expansion), which the dry run may resolve. A word
// dynamic only through command substitution keeps its static reading:
// what the program printed is unknown, or known from the catalog but
// still data from this machine (whoami), which the reader must not
// launder into a literal.
func varDynamic(c *Command) bool {
	for _, a := range c.Args {
		if !a.Dynamic {
			continue
		}
		raw := a.Raw
		for i := 0; i+1 < len(raw); i++ {
			if raw[i] != '$' {
				continue
			}
			switch n := raw[i+1]; {
			case n == '(':
				i++
			case n == '{' || n == '_' || n == '@' || n == '*' || n == '#' || n == '?' || n == '!' ||
				n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z' || n >= '0' && n <= '9':
				return true
			}
		}
	}
	return false
}

// callKey identifies a command by its argv and directory.
func callKey(c *Command) string {
	var b strings.Builder
	b.WriteString(c.Cwd)
	for _, a := range c.Args {
		b.WriteByte(0)
		if a.Dynamic {
			b.WriteString(a.Raw)
			b.WriteByte(1)
		}
		b.WriteString(a.Value)
	}
	return b.String()
}

// emitDry emits one dry-run call as a command in the place of like (nil:
// at top level, Via "dry run"), then reads what it runs.
func (w *walker) emitDry(d dryCall, like *Command, top frame, seen map[string]bool, replace bool) {
	if len(d.args) == 0 || strings.HasPrefix(d.args[0], markUnknown) {
		return // a program only known at run time: the static reading has it
	}
	args := dryWords(d.args)
	if like != nil && !replace && sameReading(like.Args, w.unwrapped(d.args)) {
		return
	}
	f := top.nested("dry run")
	if like != nil {
		f.depth, f.via, f.parent = like.Depth, like.Via, like.Parent
		f.background, f.privileged, f.fn = like.Background, like.Privileged, like.Func
		f.remote, f.mounts = like.Remote, like.Mounts
	}
	saved := w.cwd
	w.cwd = dryDir(d.dir)
	defer func() { w.cwd = saved }()
	c := w.command(args, f)
	c.Text = argvText(args)
	if like != nil {
		c.Text = like.Text
		c.Assigns = like.Assigns
		c.Wrappers = append(c.Wrappers, like.Wrappers...)
	}
	w.unwrap(c)
	if like != nil && len(c.Args) == len(like.Args) {
		// where both readings are dynamic, the static word knows more (its
		// source text: "$(curl …)")
		for i := range c.Args {
			if c.Args[i].Dynamic && like.Args[i].Dynamic && c.Args[i].Prefix == like.Args[i].Prefix {
				c.Args[i] = like.Args[i]
			}
		}
	}
	w.finish(c, nil, f)
	if like != nil {
		c.Redirects, c.Stdin, c.Pipeline, c.Piped = like.Redirects, like.Stdin, like.Pipeline, like.Piped
		c.Effects = effects(c)
	}
	key := callKey(c)
	if !replace && seen[key] {
		return
	}
	seen[key] = true
	start := len(w.script.Commands)
	w.emit(c, nil)
	w.follow(c, f, false)
	for _, x := range w.script.Commands[min(start+1, len(w.script.Commands)):] {
		seen[callKey(x)] = true
	}
}

// unwrapped returns a dry-run argv as words with its wrappers peeled,
// to compare with a static command's Args.
func (w *walker) unwrapped(args []string) []Word {
	c := &Command{Args: dryWords(args)}
	w.unwrap(c)
	return c.Args
}

// dryWords converts a dry-run argv.
func dryWords(args []string) []Word {
	out := make([]Word, len(args))
	for i, a := range args {
		out[i] = dryWord(a)
	}
	return out
}

// sameReading reports whether a dry-run argv says nothing the static one
// did not: the same static words, dynamic where it was dynamic.
func sameReading(static, dry []Word) bool {
	if len(static) != len(dry) {
		return false
	}
	for i := range static {
		if static[i].Dynamic != dry[i].Dynamic || !static[i].Dynamic && static[i].Value != dry[i].Value {
			return false
		}
	}
	return true
}
