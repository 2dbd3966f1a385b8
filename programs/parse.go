package programs

import (
	"slices"
	"strings"
)

// Token is one argument word as the parser sees it.
type Token struct {
	// Value is the word after quote removal and the static expansions
	// the reader resolved.
	Value string
	// Prefix is the static text before the first dynamic part (Value
	// when the word is static).
	Prefix string
	// Dynamic is set when part of the word is only known at run time.
	Dynamic bool
	// Splits is set when the word holds an unquoted expansion, which the
	// shell may split into several words (or options).
	Splits bool
}

// Opt is one option found on a command line.
type Opt struct {
	// Name is the canonical name; for an option not in the entry, its
	// spelling without dashes ("" when the spelling itself is dynamic).
	Name string
	// Spelling is the option as matched ("-r", "--recursive", "-name").
	Spelling string
	// Word is the index of the word the option is in.
	Word int
	// Value is the option's value when HasValue: the attached text or the
	// next word.
	Value    Token
	HasValue bool
	// ValueWord is the index of the word holding the value (Word when it
	// is attached), -1 without a value.
	ValueWord int
	// End is the index after the last word the option used (find -exec's
	// terminator included).
	End int
	// Role is what the value is.
	Role Role
	// Known is set when the entry lists the option.
	Known bool
	// Negated is set for --no-NAME of a style negate program.
	Negated bool
	// Dynamic is set when the option word itself is only partly known.
	Dynamic bool
}

// Operand is one operand with its role.
type Operand struct {
	// Word is the operand's index.
	Word int
	// Role is what it is to the program.
	Role Role
}

// Parsed is one command line read through its program's entry.
type Parsed struct {
	// Program is the deepest entry that matched: the program, or the
	// subcommand named on the command line; nil when the program is not
	// in the catalog.
	Program *Program
	// Subs are the indexes of the words that named subcommands, and
	// SubNames those words as written.
	Subs     []int
	SubNames []string
	// Opts are the options in order.
	Opts []Opt
	// Operands are the operands in order.
	Operands []Operand
	// DashDash is the number of operands before a "--" word, -1 when
	// there was none.
	DashDash int
	// MaybeFlags is set when an unquoted dynamic word stood where the
	// shell's word splitting could turn it into options (rm $FLAGS x).
	MaybeFlags bool
	// Stdin is what the program does with its standard input (Unknown
	// when the entry does not say).
	Stdin Role
	// Near are the words the program refuses as written that nearly
	// spell a subcommand or option it has (git RESET --HARD), in order;
	// see [Near]. Options are read as not listed, a subcommand through
	// its entry.
	Near []Near

	// argv are the words read, for conditions on values.
	argv []Token
}

// Has reports whether any of the named options was given (and not later
// negated).
func (p *Parsed) Has(names ...string) bool {
	on := false
	for _, o := range p.Opts {
		for _, n := range names {
			if o.Name == n {
				on = !o.Negated
			}
		}
	}
	return on
}

// Count returns how many times any of the named options was given.
func (p *Parsed) Count(names ...string) int {
	c := 0
	for _, o := range p.Opts {
		for _, n := range names {
			if o.Name == n {
				if o.Negated {
					c = 0
				} else {
					c++
				}
			}
		}
	}
	return c
}

// Last returns the last occurrence of any of the named options.
func (p *Parsed) Last(names ...string) (Opt, bool) {
	var found Opt
	ok := false
	for _, o := range p.Opts {
		for _, n := range names {
			if o.Name == n {
				found, ok = o, true
			}
		}
	}
	return found, ok
}

// Values returns every occurrence of the named options that has a value.
func (p *Parsed) Values(names ...string) []Opt {
	var out []Opt
	for _, o := range p.Opts {
		for _, n := range names {
			if o.Name == n && o.HasValue {
				out = append(out, o)
			}
		}
	}
	return out
}

// Sub reports whether the command line named exactly the subcommand path
// given, as written ("push", or "compose", "up"; "ci" is not "commit").
func (p *Parsed) Sub(path ...string) bool {
	return slices.Equal(p.SubNames, path)
}

// Parse reads argv (argv[0] is the program name, as written) through
// entry p; p nil reads it as a program not in the catalog: options are
// parsed the GNU way, every operand has role Unknown.
func Parse(p *Program, argv []Token) *Parsed {
	out := &Parsed{Program: p, DashDash: -1, argv: argv}
	if len(argv) == 0 {
		return out
	}
	if p != nil && p.Grammar != "" {
		out.assign(argv, grammarOf(p.Grammar)(p, argv, out))
		return out
	}
	ps := parser{argv: argv, out: out, cur: p}
	ps.run(1)
	out.assign(argv, ps.ops)
	return out
}

type parser struct {
	argv []Token
	out  *Parsed
	cur  *Program
	// operands collected but not yet given roles
	ops []int
}

func (ps *parser) style() Style {
	if ps.cur == nil {
		return 0
	}
	return ps.cur.Style
}

// run parses argv[i:].
func (ps *parser) run(i int) {
	argv := ps.argv
	for ; i < len(argv); i++ {
		t := argv[i]
		v := t.Value
		st := ps.style()
		switch {
		case v == "--" && !t.Dynamic:
			ps.out.DashDash = len(ps.ops)
			for j := i + 1; j < len(argv); j++ {
				ps.ops = append(ps.ops, j)
			}
			return
		case t.Dynamic && !strings.HasPrefix(t.Prefix, "-") && !strings.HasPrefix(t.Prefix, "+"):
			if t.Prefix == "" && t.Splits {
				ps.out.MaybeFlags = true
			}
			if ps.operand(i) {
				return
			}
		case v == "-" && st&Dash == 0:
			if ps.operand(i) {
				return
			}
		case strings.HasPrefix(v, "--") && len(v) > 2:
			i = ps.long(i, v)
			if ps.ended(i) {
				return
			}
		case strings.HasPrefix(v, "-") && len(v) > 1 && st&Modes != 0 && isMode(v):
			if ps.operand(i) {
				return
			}
		case len(v) > 2 && (v[0] == '-' || v[0] == '+') && v[1] != '-' && ps.whole(v):
			i = ps.single(i, v)
			if ps.ended(i) {
				return
			}
		case strings.HasPrefix(v, "-") && len(v) > 1 && st&(DashLong|NoBundle) != 0:
			i = ps.single(i, v)
			if ps.ended(i) {
				return
			}
		case v == "-" && st&Dash != 0:
			i = ps.single(i, v)
		case strings.HasPrefix(v, "-") && len(v) > 1:
			i = ps.short(i, v, "-")
			if ps.ended(i) {
				return
			}
		case strings.HasPrefix(v, "+") && len(v) > 1 && st&Plus != 0 && ps.plusWhole(i, v):
		case strings.HasPrefix(v, "+") && len(v) > 1 && st&Plus != 0:
			i = ps.short(i, v, "+")
		default:
			if ps.operand(i) {
				return
			}
		}
	}
}

// operand records argv[i] as an operand. It reports true when parsing
// ended: a subcommand took over the rest, or a posix program's options
// ended.
func (ps *parser) operand(i int) bool {
	t := ps.argv[i]
	if ps.cur != nil && len(ps.cur.Subs) > 0 && len(ps.ops) == 0 && !t.Dynamic {
		s := ps.cur.Sub(t.Value)
		if s == nil {
			// git RESET: git refuses it, but the words after it are read
			// as reset's
			lower := strings.ToLower(t.Value)
			if s = ps.cur.Sub(lower); s != nil {
				ps.out.Near = append(ps.out.Near, Near{Word: i, As: []string{lower}})
			}
		}
		if s != nil {
			ps.out.Subs = append(ps.out.Subs, i)
			ps.out.SubNames = append(ps.out.SubNames, t.Value)
			ps.cur = s
			ps.out.Program = s
			if s.Grammar != "" {
				rest := append([]Token{t}, ps.argv[i+1:]...)
				sub := &Parsed{Program: s, DashDash: -1}
				ops := grammarOf(s.Grammar)(s, rest, sub)
				for _, o := range sub.Opts {
					o.Word += i
					if o.ValueWord >= 0 {
						o.ValueWord += i
					}
					o.End += i
					ps.out.Opts = append(ps.out.Opts, o)
				}
				for _, k := range ops {
					ps.ops = append(ps.ops, k+i)
				}
				return true
			}
			ps.run(i + 1)
			return true
		}
	}
	ps.ops = append(ps.ops, i)
	if ps.style()&Posix != 0 || ps.restRole() {
		for j := i + 1; j < len(ps.argv); j++ {
			ps.ops = append(ps.ops, j)
		}
		return true
	}
	return false
}

// restRole reports whether the operand just recorded has a role that
// takes the rest of the words (a command to run): options after it
// belong to that command, not to this program.
func (ps *parser) restRole() bool {
	if ps.cur == nil {
		return false
	}
	n := len(ps.ops)
	r := ps.out.rule(ps.cur, n)
	return r != nil && r.roleOf(ps.argv, ps.ops, n-1).Rest()
}

// long parses "--name[=value]" at argv[i] and returns the index of the
// last word used.
func (ps *parser) long(i int, v string) int {
	name, value, eq := strings.Cut(v, "=")
	o := Opt{Spelling: name, Word: i, ValueWord: -1, End: i + 1, Dynamic: ps.argv[i].Dynamic}
	sp, ok := ps.find(name)
	if !ok && ps.style()&Negate != 0 && strings.HasPrefix(name, "--no-") {
		if s2, ok2 := ps.find("--" + name[5:]); ok2 {
			sp, ok, o.Negated = s2, true, true
			sp.arg = NoArg
		}
	}
	if ok {
		o.Name, o.Role, o.Known = sp.opt.Name, sp.opt.Role, true
		if o.Spelling != name && !o.Negated {
			o.Spelling = name
		}
	} else {
		o.Name = strings.TrimLeft(name, "-")
		if ps.cur != nil && !o.Dynamic {
			if as := ps.cur.nearLong(name); as != nil {
				ps.out.Near = append(ps.out.Near, Near{Word: i, As: as})
			}
		}
	}
	switch {
	case eq:
		o.Value = sub(ps.argv[i], value, len(name)+1)
		o.HasValue, o.ValueWord = true, i
	case ok && sp.arg == ReqArg:
		i = ps.value(&o, sp, i)
	}
	ps.out.Opts = append(ps.out.Opts, o)
	return i
}

// find looks a long spelling up, exactly or (unless the style is exact)
// as a unique prefix; it returns the spelling with its full text in
// ps.full.
func (ps *parser) find(name string) (spelled, bool) {
	if ps.cur == nil {
		return spelled{}, false
	}
	if sp, ok := ps.cur.lookup(name); ok {
		return sp, true
	}
	if ps.style()&Exact != 0 || !strings.HasPrefix(name, "--") || len(name) < 3 {
		return spelled{}, false
	}
	sp, _, ok := ps.cur.abbrev(name)
	return sp, ok
}

// ended reports whether the last option read ends the options; the
// words after argv[i] are then operands.
func (ps *parser) ended(i int) bool {
	if len(ps.out.Opts) == 0 || ps.cur == nil {
		return false
	}
	last := ps.out.Opts[len(ps.out.Opts)-1]
	if !last.Known {
		return false
	}
	sp, ok := ps.cur.lookup(last.Spelling)
	if !ok || !sp.opt.Ends {
		return false
	}
	for j := i + 1; j < len(ps.argv); j++ {
		ps.ops = append(ps.ops, j)
	}
	return true
}

// whole reports whether a one-dash word of several letters is itself a
// spelling of the entry ("-pe" of node, "-ls" of screen), read whole
// rather than as a bundle.
func (ps *parser) whole(v string) bool {
	if ps.cur == nil {
		return false
	}
	name, _, _ := strings.Cut(v, "=")
	_, ok := ps.cur.lookup(name)
	return ok
}

// value takes the value of option o (spelling sp) from the words after
// argv[i] and returns the index of the last word used.
func (ps *parser) value(o *Opt, sp spelled, i int) int {
	n := max(sp.words, 1)
	if i+n >= len(ps.argv) {
		return i
	}
	o.Value, o.HasValue, o.ValueWord, o.End = ps.argv[i+1], true, i+1, i+1+n
	return i + n
}

// single parses a one-dash long option of a dashlong or nobundle program
// ("-name", "-name=value").
func (ps *parser) single(i int, v string) int {
	name, value, eq := strings.Cut(v, "=")
	o := Opt{Spelling: name, Word: i, ValueWord: -1, End: i + 1, Dynamic: ps.argv[i].Dynamic}
	sp, ok := ps.cur.lookup(name)
	if !ok && len(name) > 2 && ps.style()&DashLong != 0 {
		// -abc of a dashlong program that also bundles short options
		if _, short := ps.cur.lookup(name[:2]); short {
			return ps.short(i, v, "-")
		}
	}
	if ok {
		o.Name, o.Role, o.Known = sp.opt.Name, sp.opt.Role, true
	} else {
		o.Name = strings.TrimLeft(name, "-")
	}
	switch {
	case eq:
		o.Value, o.HasValue, o.ValueWord = sub(ps.argv[i], value, len(name)+1), true, i
	case ok && sp.arg == ReqArg:
		i = ps.value(&o, sp, i)
	}
	ps.out.Opts = append(ps.out.Opts, o)
	return i
}

// plusWhole reads "+TEXT" at argv[i] as the entry's option spelled "+"
// with TEXT its value (vim +CMD, +NUM, +/PAT), when the entry has one; it
// reports whether it did.
func (ps *parser) plusWhole(i int, v string) bool {
	if ps.cur == nil {
		return false
	}
	sp, ok := ps.cur.lookup("+")
	if !ok {
		return false
	}
	o := Opt{Spelling: "+", Word: i, ValueWord: i, End: i + 1, Dynamic: ps.argv[i].Dynamic,
		Name: sp.opt.Name, Role: sp.opt.Role, Known: true, HasValue: true}
	o.Value = sub(ps.argv[i], v[1:], 1)
	ps.out.Opts = append(ps.out.Opts, o)
	return true
}

// short parses a bundle of short options ("-rf", "-ofile", "+x") at
// argv[i] and returns the index of the last word used.
func (ps *parser) short(i int, v, sign string) int {
	dyn := ps.argv[i].Dynamic
	for j := 1; j < len(v); j++ {
		text := sign + v[j:j+1]
		o := Opt{Spelling: text, Word: i, ValueWord: -1, End: i + 1, Dynamic: dyn}
		var sp spelled
		ok := false
		if ps.cur != nil {
			sp, ok = ps.cur.lookup(text)
		}
		if ok {
			o.Name, o.Role, o.Known = sp.opt.Name, sp.opt.Role, true
		} else {
			o.Name = v[j : j+1]
		}
		if ok && sp.arg == Digits {
			k := j + 1
			for k < len(v) && (v[k] >= '0' && v[k] <= '9' || v[k] == 'x' && k > j+1) {
				k++
			}
			if k > j+1 {
				o.Value, o.HasValue, o.ValueWord = sub(ps.argv[i], v[j+1:k], j+1), true, i
			}
			ps.out.Opts = append(ps.out.Opts, o)
			j = k - 1
			continue
		}
		if ok && sp.arg != NoArg {
			switch {
			case j+1 < len(v), dyn && j+1 == len(v) && len(ps.argv[i].Prefix) == len(v):
				// a value attached, or only known at run time (-c"$X")
				o.Value, o.HasValue, o.ValueWord = sub(ps.argv[i], v[j+1:], j+1), true, i
			case sp.arg == ReqArg:
				i = ps.value(&o, sp, i)
			}
			ps.out.Opts = append(ps.out.Opts, o)
			return i
		}
		ps.out.Opts = append(ps.out.Opts, o)
	}
	return i
}

// sub returns the part of t from byte off on as a token of its own.
func sub(t Token, v string, off int) Token {
	s := Token{Value: v, Prefix: v, Dynamic: t.Dynamic, Splits: t.Splits}
	if t.Dynamic {
		if off < len(t.Prefix) {
			s.Prefix = t.Prefix[off:]
		} else {
			s.Prefix = ""
		}
	}
	return s
}

// isMode reports whether a word starting with "-" is a chmod mode such as
// "-w" or "-rwx,g+s" rather than an option bundle.
func isMode(v string) bool {
	for i := 1; i < len(v); i++ {
		if !strings.ContainsRune("rwxXstugoa=+-,01234567", rune(v[i])) {
			return false
		}
	}
	return true
}

// rule returns the first operand rule of p that holds for the options
// parsed so far and n operands, or nil.
func (out *Parsed) rule(p *Program, n int) *OperandRule {
	if p == nil {
		return nil
	}
	for k := range p.Operands {
		if r := &p.Operands[k]; out.holds(r.Cond, n) {
			return r
		}
	}
	return nil
}

// Holds reports whether every term of cs holds for the options and
// operands read.
func (out *Parsed) Holds(cs []Cond) bool { return out.holds(cs, len(out.Operands)) }

// operandIs reports whether an operand, or an element of a
// comma-separated one, is one of vals (see [Cond]).
func (out *Parsed) operandIs(vals []string) bool {
	for _, op := range out.Operands {
		if op.Word >= len(out.argv) {
			continue
		}
		t := out.argv[op.Word]
		if t.Dynamic {
			return true
		}
		for _, el := range strings.Split(t.Value, ",") {
			if valueIs(el, vals) {
				return true
			}
		}
	}
	return false
}

// valueIs matches v against lower-cased values, a trailing "*" matching
// any rest.
func valueIs(v string, vals []string) bool {
	v = strings.ToLower(v)
	for _, p := range vals {
		pre, head := strings.CutSuffix(p, "*")
		suf, tail := strings.CutPrefix(p, "*")
		if head && strings.HasPrefix(v, pre) || tail && strings.HasSuffix(v, suf) || p == v {
			return true
		}
	}
	return false
}

// holds reports whether every term of cs holds with nops operands.
func (out *Parsed) holds(cs []Cond, nops int) bool {
	for _, c := range cs {
		var on bool
		switch {
		case c.Name == "noargs":
			on = nops == 0
		case c.Name == "operand" && len(c.Values) > 0:
			on = out.operandIs(c.Values)
		case len(c.Values) > 0:
			o, ok := out.Last(c.Name)
			on = ok && !o.Negated && o.HasValue && (o.Value.Dynamic || valueIs(o.Value.Value, c.Values))
		default:
			on = out.Has(c.Name)
		}
		if on == c.Not {
			return false
		}
	}
	return true
}

// assign records the operands at the indexes ops with the roles of the
// program's first rule that holds, and the program's stdin role. A "--"
// where a command to run would start, after the runner's own operands,
// only separates the two (aws-vault exec PROFILE -- CMD): it is dropped
// and DashDash set there.
func (out *Parsed) assign(argv []Token, ops []int) {
	p := out.Program
	r := out.rule(p, len(ops))
	if r != nil && out.DashDash < 0 {
		for k := 1; k+1 < len(ops); k++ {
			if !r.roleOf(argv, ops, k).Rest() {
				continue
			}
			if t := argv[ops[k]]; !t.Dynamic && t.Value == "--" {
				ops = append(ops[:k:k], ops[k+1:]...)
				out.DashDash = k
				r = out.rule(p, len(ops))
			}
			break
		}
	}
	out.Operands = make([]Operand, len(ops))
	for k, i := range ops {
		out.Operands[k] = Operand{Word: i}
		if r != nil {
			out.Operands[k].Role = r.roleOf(argv, ops, k)
		}
	}
	if p != nil {
		for _, s := range p.Stdin {
			if out.holds(s.Cond, len(ops)) {
				out.Stdin = s.Role
				break
			}
		}
	}
}

// roleOf returns the role of operand k (of the operands at the indexes
// ops): the head roles before the repeated one, the tail roles after it
// for the last operands, the repeated role for those between. A repeated
// Env role covers only the leading NAME=value operands. Words after an
// operand with a rest role (Argv, ShellJoin, Remote) share its role.
func (r *OperandRule) roleOf(argv []Token, ops []int, k int) Role {
	roles := r.Roles
	if r.Repeat < 0 {
		for j := 0; j <= k && j < len(roles); j++ {
			if roles[j].Rest() {
				return roles[j]
			}
		}
		if k < len(roles) {
			return roles[k]
		}
		return Unknown
	}
	head, rep, tail := roles[:r.Repeat], roles[r.Repeat], roles[r.Repeat+1:]
	for j := 0; j < len(head) && j < len(ops); j++ {
		if head[j].Rest() && j <= k {
			return head[j]
		}
		if j == k {
			return head[j]
		}
	}
	n := len(ops)
	mid := len(head)
	if rep == Env {
		for mid < n && isAssign(argv[ops[mid]].Prefix) {
			mid++
		}
		if k < mid {
			return Env
		}
		// the tail follows the assignments
		for j := 0; j < len(tail); j++ {
			if tail[j].Rest() && mid+j <= k {
				return tail[j]
			}
			if mid+j == k {
				return tail[j]
			}
		}
		return Unknown
	}
	if k >= n-len(tail) && n-len(tail) >= len(head) {
		t := tail[k-(n-len(tail))]
		return t
	}
	return rep
}

// isAssign reports whether v starts NAME=value.
func isAssign(v string) bool {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := v[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
