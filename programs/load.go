package programs

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
)

// Catalog is a set of program entries, by name. Entries are read from
// their text when first looked up. It is safe for concurrent use.
type Catalog struct {
	srcs  []source
	index map[string]loc // name → where its entry is
	exts  map[string]loc // file extension (".py") → the entry that runs such files

	mu     sync.Mutex
	parsed map[loc]*Program
	err    error // the first error met parsing an entry
}

// source is one catalog file.
type source struct {
	file, text string
}

// loc is where one entry is: its source and byte range.
type loc struct {
	src, start, end int
}

var (
	builtin     *Catalog
	builtinOnce sync.Once
)

// Builtin returns the catalog embedded in the binary. Only the names are
// indexed at first use; an entry is read the first time a command uses
// it. Lookup panics when an entry is malformed: the package's tests read
// every entry, so that cannot ship.
func Builtin() *Catalog {
	builtinOnce.Do(func() {
		builtin = index(embedded())
	})
	return builtin
}

// Lookup returns the entry of the program named name in the builtin
// catalog; see [Catalog.Lookup].
func Lookup(name string) *Program { return Builtin().Lookup(name) }

// openFS reads every *.txt file under dir of fsys and indexes it.
func openFS(fsys fs.FS, dir string) (*Catalog, error) {
	names, err := fs.Glob(fsys, dir+"/*.txt")
	if err != nil {
		return nil, err
	}
	var srcs []source
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, source{file: strings.TrimPrefix(n, dir+"/"), text: string(data)})
	}
	return index(srcs), nil
}

// index indexes the entry names of srcs: one pass over each file's lines,
// an entry starting at a line that starts with "program ".
func index(srcs []source) *Catalog {
	c := &Catalog{srcs: srcs, index: make(map[string]loc, 2048), exts: map[string]loc{}, parsed: map[loc]*Program{}}
	for i, src := range c.srcs {
		text := src.text
		var names, exts []string // the names and file extensions of the entry being read
		start := -1
		flush := func(end int) {
			l := loc{src: i, start: start, end: end}
			for _, nm := range names {
				if _, dup := c.index[nm]; !dup {
					c.index[nm] = l
				}
			}
			for _, x := range exts {
				if _, dup := c.exts[x]; !dup {
					c.exts[x] = l
				}
			}
			exts = nil
		}
		for off := 0; off < len(text); {
			nl := strings.IndexByte(text[off:], '\n')
			line := text[off:]
			if nl >= 0 {
				line = text[off : off+nl]
			}
			if strings.HasPrefix(line, "program ") {
				if start >= 0 {
					flush(off)
				}
				start, names = off, strings.Fields(line)[1:]
			} else if t := strings.TrimSpace(line); start >= 0 && strings.HasPrefix(t, "ext ") {
				exts = append(exts, strings.Fields(t)[1:]...)
			}
			if nl < 0 {
				break
			}
			off += nl + 1
		}
		if start >= 0 {
			flush(len(text))
		}
	}
	return c
}

// Lookup returns the entry for a command name: its base name, matched
// exactly, then case-insensitively, then without a version suffix of
// digits and dots for entries marked "versions" (python3.12 → python);
// nil when the catalog has none.
func (c *Catalog) Lookup(name string) *Program {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if p := c.get(name); p != nil {
		return p
	}
	low := strings.ToLower(name)
	if p := c.get(low); p != nil {
		return p
	}
	if base := strings.TrimRight(low, "0123456789."); base != low && base != "" {
		if p := c.get(base); p != nil && p.Versions {
			return p
		}
	}
	return nil
}

// ForFile returns the entry of the program that runs a file named name
// by its extension (r.py: python), from the entries' ext lines; nil
// when none does. The extension is matched without regard to case.
func (c *Catalog) ForFile(name string) *Program {
	x := strings.ToLower(path.Ext(name))
	if x == "" {
		return nil
	}
	l, ok := c.exts[x]
	if !ok {
		return nil
	}
	return c.at(l)
}

// ForFile returns the program that runs a file by its extension in the
// builtin catalog; see [Catalog.ForFile].
func ForFile(name string) *Program { return Builtin().ForFile(name) }

// get returns the entry indexed under name, reading it on first use.
func (c *Catalog) get(name string) *Program {
	l, ok := c.index[name]
	if !ok {
		return nil
	}
	return c.at(l)
}

// at returns the entry at l, reading it on first use.
func (c *Catalog) at(l loc) *Program {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.parsed[l]; ok {
		return p
	}
	src := c.srcs[l.src]
	line := 1 + strings.Count(src.text[:l.start], "\n")
	ps, err := parseEntries(src.file, src.text[l.start:l.end], line)
	if err != nil {
		panic(err)
	}
	c.parsed[l] = ps[0]
	return ps[0]
}

// Programs returns every entry, sorted by name. It reads every entry.
func (c *Catalog) Programs() []*Program {
	var out []*Program
	seen := map[loc]bool{}
	for _, l := range c.index {
		if seen[l] {
			continue
		}
		seen[l] = true
		src := c.srcs[l.src]
		if p := c.get(strings.Fields(strings.TrimPrefix(strings.TrimSpace(src.text[l.start:l.end]), "program "))[0]); p != nil {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *Program) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// LoadFS reads every *.txt file under dir of fsys as catalog text and
// every entry in it, checking the whole: a malformed line or a name given
// twice is an error naming the file and line. Tests use it; the builtin
// catalog is read lazily.
func LoadFS(fsys fs.FS, dir string) (*Catalog, error) {
	c, err := openFS(fsys, dir)
	if err != nil {
		return nil, err
	}
	where := map[string]*Program{}
	for _, src := range c.srcs {
		ps, err := parseEntries(src.file, src.text, 1)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			for _, nm := range p.Names {
				if old := where[nm]; old != nil {
					return nil, &Error{File: p.File, Line: p.Line, Msg: fmt.Sprintf("%s is already in the catalog at %s:%d", nm, old.File, old.Line)}
				}
				where[nm] = p
			}
			c.parsed[c.index[p.Name]] = p
		}
	}
	return c, nil
}

// Error is a malformed catalog line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("programs: %s:%d: %s", e.File, e.Line, e.Msg) }

// parseEntries reads catalog text (file names it in errors; its first
// line is line first of the file) and returns its entries in order.
func parseEntries(file, text string, first int) ([]*Program, error) {
	var (
		out  []*Program
		prog *Program // the current program
		cur  *Program // the current program or subcommand
	)
	finish := func() error {
		if prog == nil {
			return nil
		}
		return prog.index()
	}
	for n, line := range strings.Split(text, "\n") {
		n += first
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		fail := func(format string, args ...any) error {
			return &Error{File: file, Line: n, Msg: fmt.Sprintf(format, args...)}
		}
		key, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		if key == "program" {
			if err := finish(); err != nil {
				return nil, err
			}
			names := strings.Fields(rest)
			if len(names) == 0 {
				return nil, fail("program needs a name")
			}
			prog = &Program{Name: names[0], Names: names, File: file, Line: n}
			cur = prog
			out = append(out, prog)
			continue
		}
		if cur == nil {
			return nil, fail("%s before the first program", key)
		}
		var err error
		switch key {
		case "doc":
			cur.Doc = rest
		case "style":
			for _, w := range strings.Fields(rest) {
				st, ok := styleNames[w]
				if !ok && w != "gnu" {
					return nil, fail("unknown style %q", w)
				}
				if w == "gnu" {
					// a sub takes its program's style; gnu drops
					// posix again (git's subcommands permute)
					cur.Style &^= Posix
				}
				cur.Style |= st
			}
		case "versions":
			cur.Versions = true
		case "wrapper":
			cur.Wrapper = true
		case "recursive":
			cur.Recursive = true
		case "privileged":
			cur.Privileged = true
			if _, cond, ok := strings.Cut(" "+rest, " unless "); ok {
				cur.Unprivileged = parseCond(cond)
			}
		case "workdir":
			dir, cond, _ := strings.Cut(rest, " if ")
			cur.Workdirs = append(cur.Workdirs, Workdir{Dir: strings.TrimSpace(dir), Cond: parseCond(cond)})
		case "writes-tree":
			cur.HasTree = true
			if _, cond, ok := strings.Cut(" "+rest, " if "); ok {
				cur.TreeWrites = parseCond(cond)
			}
		case "flow":
			kind, cond, _ := strings.Cut(rest, " if ")
			kind = strings.TrimSpace(kind)
			if !slices.Contains(FlowKinds, kind) {
				return nil, fail("unknown flow %q", kind)
			}
			cur.Flows = append(cur.Flows, FlowRule{Kind: kind, Cond: parseCond(cond)})
		case "runs":
			files, cond, _ := strings.Cut(rest, " if ")
			if len(strings.Fields(files)) == 0 {
				return nil, fail("runs names no file")
			}
			cur.Runs = append(cur.Runs, RunsRule{Files: strings.Fields(files), Cond: parseCond(cond)})
		case "shellconfig":
			for _, k := range strings.Fields(rest) {
				cur.ShellConfig = append(cur.ShellConfig, strings.ToLower(k))
			}
		case "envcommand":
			cur.EnvCommands = append(cur.EnvCommands, strings.Fields(rest)...)
		case "prints":
			what, cond, _ := strings.Cut(rest, " if ")
			switch what = strings.TrimSpace(what); what {
			case "tmpdir", "tmpfile", "cwd", "user", "home", "nothing", "secret", "stdin", "shellenv", "dirname", "basename", "realpath":
				cur.Prints, cur.PrintsIf = what, parseCond(cond)
			default:
				return nil, fail("unknown prints %q", rest)
			}
		case "lang":
			cur.Lang = rest
		case "ext":
			for _, x := range strings.Fields(rest) {
				if !strings.HasPrefix(x, ".") {
					return nil, fail("an extension starts with a dot: %q", x)
				}
				cur.Exts = append(cur.Exts, x)
			}
		case "grammar":
			if grammarOf(rest) == nil {
				return nil, fail("unknown grammar %q", rest)
			}
			cur.Grammar = rest
		case "opt":
			err = cur.addOption(rest)
		case "opts":
			for _, w := range strings.Fields(rest) {
				if err = cur.addOption(strings.ReplaceAll(w, "|", " ")); err != nil {
					break
				}
			}
		case "operands":
			err = cur.addOperands(rest)
		case "stdin":
			err = cur.addStdin(rest)
		case "sub":
			rest, alias, isAlias := strings.Cut(rest, " = ")
			path := strings.Fields(rest)
			if len(path) == 0 {
				return nil, fail("sub needs a name")
			}
			parent := prog
			for _, p := range path[:len(path)-1] {
				s := parent.Sub(p)
				if s == nil {
					return nil, fail("sub %q: no sub %q before it", rest, p)
				}
				parent = s
			}
			names := strings.Split(path[len(path)-1], "|")
			if parent.Sub(names[0]) != nil {
				return nil, fail("sub %q defined twice", rest)
			}
			if isAlias {
				target := prog
				for _, p := range strings.Fields(alias) {
					if target = target.Sub(p); target == nil {
						return nil, fail("sub %q: no sub %q to stand for", rest, alias)
					}
				}
				for _, nm := range names {
					if !slices.Contains(target.Names, nm) {
						return nil, fail("sub %q: an alias must keep one of %s's names", rest, target.Path())
					}
				}
				parent.Subs = append(parent.Subs, target)
				continue
			}
			cur = &Program{Name: names[0], Names: names, Parent: parent, Style: prog.Style, Lang: prog.Lang, File: file, Line: n}
			parent.Subs = append(parent.Subs, cur)
		default:
			return nil, fail("unknown directive %q", key)
		}
		if err != nil {
			return nil, fail("%v", err)
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return out, nil
}

// addOption reads "SPELLING… [= NAME] [-> ROLE]".
func (p *Program) addOption(s string) error {
	o := &Option{}
	if body, ok := strings.CutSuffix(strings.TrimSpace(s), " ends"); ok {
		s, o.Ends = body, true
	}
	if i := strings.Index(s, "->"); i >= 0 {
		r, ok := ParseRole(strings.TrimSpace(s[i+2:]))
		if !ok {
			return fmt.Errorf("unknown role %q", strings.TrimSpace(s[i+2:]))
		}
		o.Role, s = r, s[:i]
	}
	if i := strings.Index(s, " = "); i >= 0 {
		o.Name, s = strings.TrimSpace(s[i+3:]), s[:i]
		if o.Name == "" || strings.ContainsAny(o.Name, " =") {
			return fmt.Errorf("bad option name %q", o.Name)
		}
	}
	for _, w := range strings.Fields(s) {
		sp := Spelling{Text: w, Words: 1}
		if i := strings.LastIndexByte(w, ':'); i > 0 && i == len(w)-2 && w[i+1] >= '2' && w[i+1] <= '9' {
			sp.Words = int(w[i+1] - '0')
			w = w[:i+1]
		}
		switch {
		case strings.HasSuffix(w, ":#"):
			sp.Text, sp.Arg = strings.TrimSuffix(w, ":#"), Digits
		case strings.HasSuffix(w, "::"):
			sp.Text, sp.Arg = strings.TrimSuffix(w, "::"), OptArg
		case strings.HasSuffix(w, "=?"):
			sp.Text, sp.Arg = strings.TrimSuffix(w, "=?"), OptArg
		case strings.HasSuffix(w, ":"):
			sp.Text, sp.Arg = strings.TrimSuffix(w, ":"), ReqArg
		case strings.HasSuffix(w, "="):
			sp.Text, sp.Arg = strings.TrimSuffix(w, "="), ReqArg
		}
		t := sp.Text
		switch {
		case t == "":
			return fmt.Errorf("bad option spelling %q", w)
		case t == "-" && p.Style&Dash != 0:
		case strings.HasPrefix(t, "--") && len(t) > 2:
		case (t[0] == '-' || t[0] == '+' && p.Style&Plus != 0) && len(t) >= 2:
		case t == "+" && p.Style&Plus != 0 && sp.Arg != NoArg:
		default:
			return fmt.Errorf("bad option spelling %q", w)
		}
		o.Spellings = append(o.Spellings, sp)
	}
	if len(o.Spellings) == 0 {
		return fmt.Errorf("option without a spelling")
	}
	if o.Name == "" {
		o.Name = strings.TrimLeft(o.Spellings[0].Text, "-+")
		for _, sp := range o.Spellings {
			if sp.long() {
				o.Name = strings.TrimLeft(sp.Text, "-")
				break
			}
		}
	}
	p.Options = append(p.Options, o)
	return nil
}

// parseCond reads "NAME,!NAME".
func parseCond(s string) []Cond {
	var out []Cond
	for _, t := range strings.Split(s, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		c := Cond{Name: strings.TrimPrefix(t, "!"), Not: strings.HasPrefix(t, "!")}
		if name, vals, ok := strings.Cut(c.Name, "="); ok {
			c.Name, c.Values = name, strings.Split(strings.ToLower(vals), "|")
		}
		out = append(out, c)
	}
	return out
}

// addOperands reads "ROLE… [if COND]".
func (p *Program) addOperands(s string) error {
	r := OperandRule{Repeat: -1}
	if body, cond, ok := strings.Cut(s, " if "); ok {
		s, r.Cond = body, parseCond(cond)
	}
	for i, w := range strings.Fields(s) {
		name, rep := strings.CutSuffix(w, "…")
		if !rep {
			name, rep = strings.CutSuffix(w, "...")
		}
		role, ok := ParseRole(name)
		if !ok {
			return fmt.Errorf("unknown role %q", name)
		}
		if rep {
			if r.Repeat >= 0 {
				return fmt.Errorf("two repeated roles in %q", s)
			}
			r.Repeat = i
		}
		r.Roles = append(r.Roles, role)
	}
	p.Operands = append(p.Operands, r)
	return nil
}

// addStdin reads "ROLE [if COND]".
func (p *Program) addStdin(s string) error {
	r := StdinRule{}
	if body, cond, ok := strings.Cut(s, " if "); ok {
		s, r.Cond = body, parseCond(cond)
	}
	role, ok := ParseRole(strings.TrimSpace(s))
	if !ok {
		return fmt.Errorf("unknown role %q", s)
	}
	r.Role = role
	p.Stdin = append(p.Stdin, r)
	return nil
}

// index builds the spelling tables of p and its subcommands and checks
// that conditions name real options.
func (p *Program) index() error {
	p.spell = map[string]spelled{}
	for _, o := range p.Options {
		for _, sp := range o.Spellings {
			if old, ok := p.spell[sp.Text]; ok && old.opt != o {
				return &Error{File: p.File, Line: p.Line, Msg: fmt.Sprintf("%s: option %s listed twice", p.Path(), sp.Text)}
			}
			p.spell[sp.Text] = spelled{opt: o, arg: sp.Arg, words: sp.Words}
			if strings.HasPrefix(sp.Text, "--") {
				p.longs = append(p.longs, sp.Text)
			}
		}
	}
	slices.Sort(p.longs)
	check := func(cs []Cond) error {
		for _, c := range cs {
			if c.Name != "noargs" && !(c.Name == "operand" && len(c.Values) > 0) && p.Option(c.Name) == nil {
				return &Error{File: p.File, Line: p.Line, Msg: fmt.Sprintf("%s: condition names %q, which is no option", p.Path(), c.Name)}
			}
		}
		return nil
	}
	for _, r := range p.Operands {
		if err := check(r.Cond); err != nil {
			return err
		}
	}
	for _, r := range p.Stdin {
		if err := check(r.Cond); err != nil {
			return err
		}
	}
	for _, w := range p.Workdirs {
		if err := check(w.Cond); err != nil {
			return err
		}
	}
	if err := check(p.Unprivileged); err != nil {
		return err
	}
	if err := check(p.TreeWrites); err != nil {
		return err
	}
	for _, f := range p.Flows {
		if err := check(f.Cond); err != nil {
			return err
		}
	}
	for _, r := range p.Runs {
		if err := check(r.Cond); err != nil {
			return err
		}
	}
	if err := check(p.PrintsIf); err != nil {
		return err
	}
	for _, s := range p.Subs {
		if err := s.index(); err != nil {
			return err
		}
	}
	return nil
}
