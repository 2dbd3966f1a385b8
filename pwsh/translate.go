package pwsh

import (
	"encoding/base64"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/toolwall/toolwall/paths"
)

// marker is the assignment put before every command toolwall writes, so
// that the shell reading can be given back the PowerShell text it came
// from.
const marker = "TOOLWALL_PS"

// tr translates PowerShell statements into the bash text the shell
// reader reads: each PowerShell command becomes the command of the
// program catalog that does the same (cmdlets.txt), or keeps its own
// name; pipelines, statement lists, groups and script blocks keep their
// structure.
type tr struct {
	home, cwd, project string
	texts              []string
	depth              int
	// feeds: the element being translated feeds a pipe.
	feeds bool
	// input is what the previous pipeline element writes to the pipe,
	// for a cmdlet whose parameter takes the pipeline's items; nil at
	// the head of a pipeline.
	input *items
	// item is what $_ and $PSItem stand for in the script block being
	// translated (each item a ForEach-Object reads); nil elsewhere.
	item *items
	// vars are the variables the text assigns a literal string
	// ($c = 'Remove-Item …'), by lower-case name, for code that runs
	// them later (iex $c).
	vars map[string]string
}

// items are the objects one pipeline element writes to the next.
type items struct {
	// words are bash words for them (a glob under a directory), when
	// known.
	words []string
	// recursive: they are every entry below, not only the children.
	recursive bool
	// known is false when what flows is only known at run time.
	known bool
}

const maxCode = 8 // nesting of code in strings (iex, -Command, -EncodedCommand)

// mark returns the marker assignment for PowerShell text.
func (t *tr) mark(text string) string {
	t.texts = append(t.texts, text)
	return marker + "=" + strconv.Itoa(len(t.texts)-1) + " "
}

// stmts translates statements, one per line.
func (t *tr) stmts(ss []*stmt) string {
	var out []string
	for _, s := range ss {
		if x := t.stmt(s); x != "" {
			out = append(out, x)
		}
	}
	return strings.Join(out, "\n")
}

func (t *tr) stmt(s *stmt) string {
	var b strings.Builder
	if len(s.nested) > 0 {
		if x := t.stmts(s.nested); x != "" {
			b.WriteString("{\n" + x + "\n}")
		}
	}
	for i, pl := range s.pipes {
		if i > 0 {
			b.WriteString(" " + s.ops[i-1] + " ")
		}
		b.WriteString(t.pipeline(pl))
	}
	return b.String()
}

func (t *tr) pipeline(pl *pipeline) string {
	var parts []string
	var flow *items
	for i, e := range pl.elems {
		t.feeds = i+1 < len(pl.elems)
		t.input = flow
		parts = append(parts, t.elem(e, i > 0))
		flow = t.emitted(e, flow)
	}
	t.input = nil
	out := strings.Join(parts, " | ")
	if pl.background {
		out = "{ " + out + "; } &"
	}
	return out
}

// group wraps commands into one bash pipeline element.
func group(cmds []string) string {
	switch len(cmds) {
	case 0:
		return ":"
	case 1:
		return cmds[0]
	}
	return "{ " + strings.Join(cmds, "; ") + "; }"
}

// elem translates one pipeline element; piped says it reads the
// previous element's output.
func (t *tr) elem(e *elem, piped bool) string {
	redirs := t.redirs(e.redirs)
	if e.name == nil {
		return group(t.exprCommands(e)) + redirs
	}
	return t.command(e, piped) + redirs
}

// exprCommands lists the commands an expression element runs: the
// statements of its groups and blocks, the .NET calls that download,
// upload, read, write or delete, and a literal it outputs.
func (t *tr) exprCommands(e *elem) []string {
	t.assign(e)
	var cmds []string
	var lits []string
	for _, v := range e.expr {
		w, sides := t.value(v, false)
		cmds = append(cmds, sides...)
		if v.kind == vWord {
			if _, ok := v.literal(); ok {
				lits = append(lits, w)
			}
		}
	}
	if len(cmds) == 0 && len(lits) > 0 && len(e.expr) == len(lits) && (t.feeds || len(e.redirs) > 0) {
		cmds = append(cmds, t.mark(e.text)+"echo "+strings.Join(lits, " "))
	}
	return cmds
}

// assign remembers "$name = 'literal'": the variable holds that text.
// A variable assigned twice is unknown from then on (a branch may have
// skipped either assignment).
func (t *tr) assign(e *elem) {
	if len(e.expr) != 2 || e.expr[0].kind != vWord || len(e.expr[0].parts) != 1 || e.expr[0].parts[0].varb == "" ||
		e.expr[1].kind != vGroup {
		return
	}
	name := strings.ToLower(e.expr[0].parts[0].varb)
	if _, again := t.vars[name]; again {
		t.vars[name+"\x00twice"] = ""
	}
	delete(t.vars, name)
	if _, twice := t.vars[name+"\x00twice"]; twice {
		return
	}
	rhs := e.expr[1].stmts
	if len(rhs) != 1 || len(rhs[0].pipes) != 1 || len(rhs[0].pipes[0].elems) != 1 {
		return
	}
	el := rhs[0].pipes[0].elems[0]
	if el.name != nil || len(el.expr) != 1 || el.expr[0].kind != vWord {
		return
	}
	lit, ok := el.expr[0].literal()
	if !ok {
		return
	}
	if t.vars == nil {
		t.vars = map[string]string{}
	}
	t.vars[name] = lit
}

// redirs translates redirections (2>&1 and > $null keep their meaning).
func (t *tr) redirs(rs []redir) string {
	var b strings.Builder
	for _, r := range rs {
		if r.target == nil {
			b.WriteString(" " + strings.TrimPrefix(r.op, "*"))
			continue
		}
		if lit, ok := r.target.literal(); ok && strings.EqualFold(lit, "$null") {
			continue
		}
		if len(r.target.parts) == 1 && strings.EqualFold(r.target.parts[0].varb, "null") {
			continue
		}
		op := r.op
		if strings.HasPrefix(op, "*") {
			op = "&" + op[1:]
		}
		w, _ := t.pathValue(r.target, false)
		b.WriteString(" " + op + " " + w)
	}
	return b.String()
}

// command translates a command element.
func (t *tr) command(e *elem, piped bool) string {
	name, static := e.name.literal()
	for _, a := range e.args {
		for _, v := range a.values {
			if l, ok := v.literal(); ok && l == "/?" && a.param == "" {
				return ":" // the Windows help switch: prints help, runs nothing
			}
		}
	}
	if !static {
		// & $exe …, & (Get-Command x) …: the program is known at run time.
		w, sides := t.value(e.name, false)
		return group(append(sides, t.mark(e.text)+w+t.rawArgs(e.args)))
	}
	base := strings.ToLower(name)
	if strings.ContainsAny(base, `\/`) {
		base = path.Base(strings.ReplaceAll(base, `\`, "/"))
	}
	base = strings.TrimSuffix(base, ".exe")
	tab, _ := cmdlets()
	if c, ok := tab[base]; ok && !strings.ContainsAny(name, `\/`) {
		return t.cmdlet(c, e, piped)
	}
	switch base {
	case "powershell", "pwsh", "powershell_ise":
		return t.powershell(e, base)
	case "cmd":
		return t.cmd(e)
	}
	prog := name
	if strings.ContainsAny(name, `\/`) || strings.HasPrefix(name, "~") {
		prog = t.path(name)
		if !strings.HasPrefix(prog, "/") {
			prog = "./" + prog // a relative path runs that file, not a program on the PATH
		}
	} else {
		prog = strings.TrimSuffix(strings.TrimSuffix(prog, ".exe"), ".EXE")
	}
	if e.call == "." && strings.HasSuffix(strings.ToLower(name), ".ps1") {
		return t.mark(e.text) + "source " + quote(prog) + t.rawArgs(e.args)
	}
	return t.mark(e.text) + quote(prog) + t.rawArgs(e.args) + t.tail(e)
}

// tail is the verbatim rest after --%.
func (t *tr) tail(e *elem) string {
	if e.rawTail == "" {
		return ""
	}
	return " " + quote(e.rawTail)
}

// rawArgs translates the arguments of a program toolwall reads without a
// cmdlet entry: each as it is, Windows paths read as paths.
func (t *tr) rawArgs(args []*arg) string {
	var b strings.Builder
	for _, a := range args {
		if a.param != "" {
			b.WriteString(" " + quote("-"+a.param))
			if !a.colon {
				continue
			}
		}
		for _, v := range a.values {
			w, sides := t.pathValue(v, true)
			b.WriteString(" " + w)
			for _, s := range sides {
				b.WriteString(" \"$(" + s + ")\"")
			}
		}
	}
	return b.String()
}

// bound is a cmdlet's arguments bound to its parameters.
type bound struct {
	values  map[*param][]*value
	on      map[*param]bool
	whatIf  bool
	unknown []*arg
	// splat: an @variable stands for arguments only known at run time.
	splat *value
}

// bind binds args to c's parameters the way PowerShell does: by name or
// unique prefix, switches with an optional :$false, then positional
// values in order of position. ok is false when a positional value is
// left over (PowerShell then refuses the command and runs nothing).
func bind(c *cmdlet, args []*arg) (bound, bool) {
	b := bound{values: map[*param][]*value{}, on: map[*param]bool{}}
	var positional [][]*value // each a value, or a comma list (one array argument)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.param == "" {
			if v := a.values[0]; len(a.values) == 1 {
				if lit, ok := v.literal(); ok && len(lit) > 1 && lit[0] == '@' && len(v.parts) == 1 && !v.parts[0].quoted {
					b.splat = v
					continue
				}
			}
			positional = append(positional, a.values)
			continue
		}
		p, ok := c.find(a.param)
		if !ok {
			lp := strings.ToLower(a.param)
			if lp == "whatif" || lp == "wi" {
				b.whatIf = !a.colon || !falsy(a.values)
			}
			if takes, known := common(lp); known && takes && !a.colon && i+1 < len(args) && args[i+1].param == "" {
				i++
			} else if !known {
				b.unknown = append(b.unknown, a)
			}
			continue
		}
		if p.kind == "switch" {
			b.on[p] = !a.colon || !falsy(a.values)
			continue
		}
		switch {
		case a.colon:
			b.values[p] = append(b.values[p], a.values...)
		case i+1 < len(args) && args[i+1].param == "":
			b.values[p] = append(b.values[p], args[i+1].values...)
			i++
		}
	}
	for k := 0; len(positional) > 0; k++ {
		var p *param
		for i := range c.params {
			if c.params[i].pos == k {
				p = &c.params[i]
			}
		}
		if p == nil {
			return b, k > 8 || len(c.params) == 0
		}
		if _, named := b.values[p]; named {
			continue
		}
		b.values[p] = append(b.values[p], positional[0]...)
		positional = positional[1:]
	}
	return b, true
}

// falsy reports whether a switch's :value is $false (or 0).
func falsy(vs []*value) bool {
	if len(vs) != 1 {
		return false
	}
	v := vs[0]
	if len(v.parts) == 1 && (strings.EqualFold(v.parts[0].varb, "false") || v.parts[0].lit == "0") {
		return true
	}
	return false
}

// cmdlet translates a cmdlet with a table entry.
func (t *tr) cmdlet(c *cmdlet, e *elem, piped bool) string {
	b, ok := bind(c, e.args)
	if !ok || b.whatIf {
		return ":" // a binding error, or -WhatIf: the cmdlet runs nothing
	}
	m := t.mark(e.text)
	if c.as == nil {
		return t.special(c, b, e, m, piped)
	}
	argv := append([]string{}, c.as...)
	var operands []string
	var sides []string
	remote := ""
	if b.splat != nil {
		// Arguments only known at run time: every switch may be on, and
		// the operands are unknown.
		lit, _ := b.splat.literal()
		operands = append(operands, dynamic(lit[1:]))
	}
	bodied := false
	for i := range c.params {
		p := &c.params[i]
		if p.kind == "param" && len(b.values[p]) > 0 && (p.tmpl == "-d" || p.tmpl == "-T") {
			bodied = true
		}
	}
	if piped && !bodied {
		argv = append(argv, c.piped...)
	}
	fromPipe := piped && c.input != "" && t.input != nil && b.splat == nil
	for i := range c.params {
		p := &c.params[i]
		if fromPipe && (p.names[0] == c.input || p.names[0] == "literalpath") && len(b.values[p]) > 0 {
			fromPipe = false // the path is given: the pipe is not read for it
		}
	}
	xargs := false
	if fromPipe {
		for i := range c.params {
			p := &c.params[i]
			switch {
			case p.kind == "switch" && p.names[0] == "recurse" && t.input.recursive && !b.on[p]:
				// every entry below is fed to it: the cmdlet reaches the
				// whole tree, as with its own -Recurse
				argv = append(argv, p.tmpl)
			case p.names[0] == c.input && t.input.known:
				operands = append(operands, t.input.words...)
			case p.names[0] == c.input:
				xargs = true
			}
		}
	}
	for i := range c.params {
		p := &c.params[i]
		switch {
		case p.kind == "switch" && (b.on[p] || b.splat != nil) && p.tmpl != "_":
			argv = append(argv, p.tmpl)
		case p.kind == "param" && p.tmpl != "_":
			for _, v := range b.values[p] {
				w, ss := t.render(v, p.path, p.path && !p.literal)
				sides = append(sides, ss...)
				switch {
				case p.tmpl == "@":
					operands = append(operands, w)
				case p.tmpl == "-remote":
					remote = w
				default:
					argv = append(argv, p.tmpl, w)
				}
			}
		}
	}
	cmd := m + strings.Join(argv, " ")
	if xargs {
		// items only known at run time: what xargs would pass
		cmd = m + "xargs " + strings.Join(argv, " ")
	}
	if len(operands) > 0 {
		cmd += " -- " + strings.Join(operands, " ")
	}
	if remote != "" {
		cmd = m + "ssh " + remote + " " + quote(cmd)
	}
	return group(append(sides, cmd))
}

// special translates the cmdlets kept as themselves ("as -"): code they
// run (Invoke-Expression, Invoke-Command, ForEach-Object, Start-Job),
// programs they start (Start-Process), and the rest as the cmdlet's name
// with its parameters, for the windows analyzer.
func (t *tr) special(c *cmdlet, b bound, e *elem, m string, piped bool) string {
	name := strings.ToLower(c.name)
	var cmds []string
	var remote string
	for i := range c.params {
		p := &c.params[i]
		if p.tmpl == "-remote" {
			for _, v := range b.values[p] {
				remote, _ = t.valueAs(v, false)
			}
		}
	}
	for i := range c.params {
		p := &c.params[i]
		if p.kind != "code" || p.tmpl == "_" {
			continue
		}
		for _, v := range b.values[p] {
			saved := t.item
			if piped && t.input != nil && t.input.known {
				t.item = t.input // $_ in the block is each item read
			}
			code := t.code(v, m)
			t.item = saved
			if remote != "" {
				code = m + "ssh " + remote + " " + quote(code)
			}
			cmds = append(cmds, code)
		}
		if name == "invoke-expression" && piped && len(b.values[p]) == 0 {
			cmds = append(cmds, m+"sh") // … | iex: the pipe's text runs
		}
	}
	if name == "start-process" {
		return t.startProcess(c, b, m)
	}
	if len(cmds) > 0 || c.find2("code") {
		return group(cmds)
	}
	// Kept as itself: name and every parameter as -Name value.
	argv := []string{name}
	var sides []string
	for _, a := range e.args {
		if a.param != "" {
			argv = append(argv, quote("-"+a.param))
			if !a.colon {
				continue
			}
		}
		for _, v := range a.values {
			w, ss := t.pathValue(v, true)
			argv = append(argv, w)
			sides = append(sides, ss...)
		}
	}
	return group(append(sides, m+strings.Join(argv, " ")))
}

// find2 reports whether c has a parameter of kind.
func (c *cmdlet) find2(kind string) bool {
	for _, p := range c.params {
		if p.kind == kind {
			return true
		}
	}
	return false
}

// code translates a value that is PowerShell code: a script block, or a
// string (read as PowerShell); code only known at run time is an eval
// of what produces it (a download, a decoding, a variable).
func (t *tr) code(v *value, m string) string {
	switch v.kind {
	case vBlock:
		return "( " + t.stmts(v.stmts) + "\n)"
	case vWord:
		if len(v.parts) == 1 && v.parts[0].varb != "" && len(v.args) == 0 {
			if val, ok := t.vars[strings.ToLower(v.parts[0].varb)]; ok {
				return t.source(val) // iex $c: the text assigned to it
			}
		}
		if lit, ok := t.expanded(v); ok {
			return t.source(lit)
		}
	}
	if text, ok := t.decoded(v); ok {
		// Decoded text run as code: judged as the code it is, and as the
		// decoded payload it arrives as.
		return "( " + t.source(text) + "\n) ; " + m + "printf %s " + quote(base64.StdEncoding.EncodeToString([]byte(text))) + " | base64 -d | sh"
	}
	w, sides := t.value(v, false)
	if len(sides) > 0 {
		return m + "eval \"$(" + strings.Join(sides, "; ") + ")\""
	}
	return m + "eval " + w
}

// source translates PowerShell source text found in a string.
func (t *tr) source(src string) string {
	if t.depth >= maxCode {
		panic(&LimitError{Msg: "code nested in strings too deeply"})
	}
	ss, err := parse(src)
	if err != nil {
		panic(err)
	}
	t.depth++
	defer func() { t.depth-- }()
	if x := t.stmts(ss); x != "" {
		return "( " + x + "\n)"
	}
	return ":"
}

// startProcess translates Start-Process FILE -ArgumentList ARGS as the
// command line it starts.
func (t *tr) startProcess(c *cmdlet, b bound, m string) string {
	var file, args []string
	var sides []string
	for i := range c.params {
		p := &c.params[i]
		for _, v := range b.values[p] {
			switch p.kind {
			case "run":
				if lit, ok := v.literal(); ok {
					file = append(file, lit)
				} else {
					w, ss := t.value(v, false)
					return group(append(ss, m+w))
				}
			case "args":
				if lit, ok := v.literal(); ok {
					args = append(args, lit)
				} else {
					w, ss := t.value(v, false)
					args = append(args, w)
					sides = append(sides, ss...)
				}
			}
		}
	}
	if len(file) == 0 {
		return ":"
	}
	line := psQuote(file[0])
	for _, a := range args {
		line += " " + a
	}
	return group(append(sides, t.source(line)))
}

// psQuote quotes s as one PowerShell word.
func psQuote(s string) string {
	if !strings.ContainsAny(s, " \t'\"$`;|&(){}") {
		return s
	}
	return "& '" + strings.ReplaceAll(s, "'", "''") + "'"
}

// powershell translates powershell.exe / pwsh: -Command, -EncodedCommand
// (base64 of UTF-16LE text), -File, or a first bare argument (a command
// for powershell.exe, a file for pwsh).
func (t *tr) powershell(e *elem, exe string) string {
	m := t.mark(e.text)
	args := e.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		value := func() (*value, []*arg) {
			if a.colon && len(a.values) > 0 {
				return a.values[0], args[i+1:]
			}
			if i+1 < len(args) && args[i+1].param == "" && len(args[i+1].values) > 0 {
				return args[i+1].values[0], args[i+2:]
			}
			return nil, nil
		}
		if a.param == "" {
			if exe == "pwsh" {
				return t.runFile(m, a.values[0], args[i+1:])
			}
			return t.codeArgs(m, args[i:])
		}
		switch p := strings.ToLower(a.param); {
		case p == "c" || prefixOf(p, "command", 1):
			if v, _ := value(); v != nil && v.kind == vBlock {
				return t.code(v, m)
			}
			if a.colon {
				return t.codeArgs(m, append([]*arg{{values: a.values}}, args[i+1:]...))
			}
			return t.codeArgs(m, args[i+1:])
		case p == "e" || p == "ec" || prefixOf(p, "encodedcommand", 2):
			v, _ := value()
			if v == nil {
				return m + "pwsh" // no command: PowerShell stops with an error
			}
			lit, ok := v.literal()
			if !ok {
				w, sides := t.value(v, false)
				return group(append(sides, m+"eval "+w))
			}
			text, err := decodeUTF16(lit)
			if err != nil {
				panic(&SyntaxError{Msg: "the -EncodedCommand is not base64 of UTF-16LE text: " + err.Error()})
			}
			return t.source(text)
		case p == "f" || prefixOf(p, "file", 2):
			v, rest := value()
			if v == nil {
				return ":"
			}
			return t.runFile(m, v, rest)
		case prefixOf(p, "executionpolicy", 2) || p == "ep" || prefixOf(p, "windowstyle", 1) || prefixOf(p, "version", 1) ||
			prefixOf(p, "outputformat", 1) || prefixOf(p, "inputformat", 1) || prefixOf(p, "configurationname", 4) ||
			prefixOf(p, "workingdirectory", 2) || p == "wd" || p == "settingsfile" || p == "psconsolefile" || p == "encodedarguments" || p == "ea":
			if !a.colon {
				i++
			}
		}
	}
	return m + "pwsh"
}

// prefixOf reports whether p abbreviates name in at least n letters.
func prefixOf(p, name string, n int) bool {
	return len(p) >= n && strings.HasPrefix(name, p)
}

// codeArgs translates the rest of a command line that is PowerShell code
// (powershell -Command a b c: the words joined).
func (t *tr) codeArgs(m string, args []*arg) string {
	var words []string
	for _, a := range args {
		if a.param != "" {
			words = append(words, "-"+a.param)
			if !a.colon {
				continue
			}
		}
		for _, v := range a.values {
			if v.kind == vBlock {
				return t.code(v, m)
			}
			lit, ok := t.expanded(v)
			if !ok {
				w, sides := t.value(v, false)
				return group(append(sides, m+"eval "+w))
			}
			words = append(words, lit)
		}
	}
	if len(words) == 1 && words[0] == "-" {
		return m + "sh" // powershell -Command -: the code comes on stdin
	}
	return t.source(strings.Join(words, " "))
}

// runFile translates running a script file with arguments.
func (t *tr) runFile(m string, v *value, rest []*arg) string {
	w, sides := t.pathValue(v, true)
	return group(append(sides, m+"sh "+w+t.rawArgs(rest)))
}

// decodeUTF16 decodes -EncodedCommand's base64 of UTF-16LE text.
func decodeUTF16(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return "", err
	}
	if len(b)%2 != 0 {
		return "", fmt.Errorf("odd length")
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), nil
}

// cmd translates cmd.exe /c (or /k) BODY: the body read as cmd.exe
// commands joined by &, &&, || and |.
func (t *tr) cmd(e *elem) string {
	m := t.mark(e.text)
	for i, a := range e.args {
		if a.param != "" || len(a.values) == 0 {
			continue
		}
		lit, ok := a.values[0].literal()
		if !ok {
			continue
		}
		if l := strings.ToLower(lit); l == "/c" || l == "/k" || l == "/r" {
			var words []string
			for _, b := range e.args[i+1:] {
				if b.param != "" {
					words = append(words, "-"+b.param)
				}
				for _, v := range b.values {
					if w, ok := v.literal(); ok {
						words = append(words, w)
					} else {
						words = append(words, v.text)
					}
				}
			}
			if e.rawTail != "" {
				words = append(words, e.rawTail)
			}
			return t.cmdBody(m, strings.Join(words, " "))
		}
	}
	return m + "cmd"
}

// cmdBody translates cmd.exe commands: del, erase, rd, rmdir, copy,
// move, type, md and mkdir by what they do; anything else as the program
// it names.
func (t *tr) cmdBody(m, body string) string {
	body = t.cmdVars(body)
	var out strings.Builder
	for _, piece := range splitCmd(body) {
		if piece == "&" || piece == "&&" || piece == "||" || piece == "|" {
			if piece == "&" {
				piece = ";"
			}
			out.WriteString(" " + piece + " ")
			continue
		}
		f := cmdFields(piece)
		if len(f) == 0 {
			out.WriteString(":")
			continue
		}
		var flags, ops []string
		for _, w := range f[1:] {
			if strings.HasPrefix(w, "/") && len(w) <= 3 {
				flags = append(flags, strings.ToLower(w))
			} else if cmdVarRE(w) {
				ops = append(ops, dynamic(w)) // %VAR% only known at run time
			} else {
				ops = append(ops, globQuote(t.path(w)))
			}
		}
		has := func(s string) bool {
			for _, f := range flags {
				if f == s {
					return true
				}
			}
			return false
		}
		if has("/?") {
			out.WriteString(":")
			continue
		}
		switch strings.ToLower(strings.TrimSuffix(strings.ToLower(f[0]), ".exe")) {
		case "del", "erase":
			c := "rm -f"
			if has("/s") {
				c = "rm -r -f"
			}
			out.WriteString(m + c + " -- " + strings.Join(ops, " "))
		case "rd", "rmdir":
			c := "rmdir"
			if has("/s") {
				c = "rm -r -f"
			}
			out.WriteString(m + c + " -- " + strings.Join(ops, " "))
		case "copy", "xcopy", "robocopy":
			out.WriteString(m + "cp -r -- " + strings.Join(ops, " "))
		case "move":
			out.WriteString(m + "mv -- " + strings.Join(ops, " "))
		case "type":
			out.WriteString(m + "cat -- " + strings.Join(ops, " "))
		case "md", "mkdir":
			out.WriteString(m + "mkdir -p -- " + strings.Join(ops, " "))
		case "powershell", "pwsh":
			out.WriteString(t.source(piece))
		default:
			words := []string{quote(strings.TrimSuffix(f[0], ".exe"))}
			for _, w := range f[1:] {
				if strings.HasPrefix(w, "/") && len(w) <= 3 {
					words = append(words, quote(w))
				} else if cmdVarRE(w) {
					words = append(words, dynamic(w))
				} else {
					words = append(words, quote(t.path(w)))
				}
			}
			out.WriteString(m + strings.Join(words, " "))
		}
	}
	return "{ " + out.String() + "; }"
}

// splitCmd splits a cmd.exe line at &, &&, || and | outside quotes.
func splitCmd(s string) []string {
	var out []string
	var b strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
			b.WriteByte(c)
		case c == '^' && i+1 < len(s) && !quoted:
			i++
			b.WriteByte(s[i])
		case (c == '&' || c == '|') && !quoted:
			out = append(out, b.String())
			b.Reset()
			op := string(c)
			if i+1 < len(s) && s[i+1] == c {
				op += string(c)
				i++
			}
			out = append(out, op)
		default:
			b.WriteByte(c)
		}
	}
	return append(out, b.String())
}

// cmdFields splits a cmd.exe command into words; double quotes group.
func cmdFields(s string) []string {
	var out []string
	var b strings.Builder
	quoted, in := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, in = !quoted, true
		case (r == ' ' || r == '\t') && !quoted:
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

// quote quotes s as one bash word.
func quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// path reads a static word as a path in the POSIX namespace: Windows
// paths converted (paths.FromWindows), ~ and the known places in the
// letter case the call uses.
func (t *tr) path(s string) string {
	if s == "~" || strings.HasPrefix(s, `~\`) || strings.HasPrefix(s, "~/") {
		if t.home == "" {
			return s
		}
		s = t.home + "/" + s[min(len(s), 2):]
	}
	q, ok := paths.FromWindows(s)
	if !ok {
		return s
	}
	for _, place := range []string{t.home, t.project, t.cwd, "/Users", "/Windows", "/Program Files", "/Program Files (x86)", "/ProgramData"} {
		if place == "" || len(q) < len(place) || !strings.EqualFold(q[:len(place)], place) || len(q) > len(place) && q[len(place)] != '/' {
			continue
		}
		q = place + q[len(place):]
	}
	return q
}

// emitted says what pipeline element e writes to the pipe: for a cmdlet
// that emits the children of its paths (Get-ChildItem), a glob under
// each path (its Filter or Include narrowing it), recursive with its
// Recurse switch; for one that emits the items its paths name
// (Get-Item), those paths; for one that passes on what it reads
// (Where-Object), in; otherwise items only known at run time.
func (t *tr) emitted(e *elem, in *items) *items {
	if e.name == nil {
		return &items{}
	}
	name, ok := e.name.literal()
	if !ok {
		return &items{}
	}
	tab, _ := cmdlets()
	c, ok := tab[strings.ToLower(name)]
	if !ok || c.emits == "" {
		return &items{}
	}
	if c.emits == "input" {
		if in == nil {
			return &items{}
		}
		return in
	}
	b, ok := bind(c, e.args)
	if !ok || b.splat != nil {
		return &items{}
	}
	out := &items{known: true}
	glob := "*"
	var dirs []string
	for i := range c.params {
		p := &c.params[i]
		switch {
		case p.kind == "switch" && p.names[0] == "recurse":
			out.recursive = b.on[p]
		case p.kind == "param" && p.tmpl == "@":
			for _, v := range b.values[p] {
				w, sides := t.render(v, p.path, p.path && !p.literal)
				if len(sides) > 0 {
					return &items{}
				}
				dirs = append(dirs, w)
			}
		case p.kind == "param" && (p.names[0] == "filter" || p.names[0] == "include") && len(b.values[p]) == 1:
			if lit, ok := b.values[p][0].literal(); ok && lit != "" {
				glob = globQuote(lit)
			} else {
				glob = dynamic(p.names[0])
			}
		}
	}
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	if c.emits == "items" {
		out.words, out.recursive = dirs, false
		return out
	}
	if glob != "*" {
		// narrowed to the entries that match, at whatever depth: those
		// entries, not the trees under the paths
		out.recursive = false
	}
	for _, d := range dirs {
		out.words = append(out.words, d+"/"+glob)
	}
	return out
}

// cmdVars expands cmd.exe's %NAME% references whose values toolwall
// knows (%USERPROFILE%, %APPDATA%, %TEMP%, …, as $env:NAME is); the
// others stay for cmdVarRE.
func (t *tr) cmdVars(body string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(body, '%')
		if i < 0 {
			break
		}
		j := strings.IndexByte(body[i+1:], '%')
		if j < 0 {
			break
		}
		name := body[i+1 : i+1+j]
		if val, ok := t.known("env:" + name); ok && name != "" && !strings.ContainsAny(name, " \t") {
			b.WriteString(body[:i] + val)
			body = body[i+2+j:]
			continue
		}
		b.WriteString(body[:i+1])
		body = body[i+1:]
	}
	return b.String() + body
}

// cmdVarRE reports a word that still holds a %NAME% reference: its
// value is only known at run time.
func cmdVarRE(w string) bool {
	i := strings.IndexByte(w, '%')
	if i < 0 {
		return false
	}
	j := strings.IndexByte(w[i+1:], '%')
	return j > 0
}
