package programs

import "strings"

// grammar reads the arguments of a program whose command line is a
// language of its own. It fills out's options and returns the indexes of
// the operands; Parse gives them roles from the entry's rules.
type grammar func(p *Program, argv []Token, out *Parsed) []int

// grammarOf returns the named grammar the catalog's "grammar" directive
// selects, or nil.
func grammarOf(name string) grammar {
	switch name {
	case "find":
		return findGrammar
	case "dd":
		return ddGrammar
	case "tar":
		return tarGrammar
	case "parallel":
		return parallelGrammar
	case "httpie":
		return httpieGrammar
	}
	return nil
}

// findGrammar reads find(1) (GNU findutils): leading options -H -L -P
// -D LIST -Olevel, the starting points (operands: the words before the
// first that starts with "-", "(", "!" or ","), then the expression. Each
// primary is an option of the entry (style dashlong: -name: takes one
// word); -exec, -execdir, -ok and -okdir take the words up to ";" (or
// "+" right after "{}") as an Argv value, and -fprintf takes a file and a
// format. Operators ( ) ! , -a -o -not -and -or are skipped.
func findGrammar(p *Program, argv []Token, out *Parsed) []int {
	i := 1
	for ; i < len(argv) && !argv[i].Dynamic; i++ {
		v := argv[i].Value
		switch {
		case v == "-H" || v == "-L" || v == "-P":
			out.Opts = append(out.Opts, Opt{Name: v[1:], Spelling: v, Word: i, ValueWord: -1, End: i + 1, Known: true})
			continue
		case v == "-D" && i+1 < len(argv):
			out.Opts = append(out.Opts, Opt{Name: "D", Spelling: v, Word: i, Value: argv[i+1], HasValue: true, ValueWord: i + 1, End: i + 2, Known: true})
			i++
			continue
		case strings.HasPrefix(v, "-O"):
			continue
		}
		break
	}
	var ops []int
	for ; i < len(argv); i++ {
		v := argv[i].Prefix
		if strings.HasPrefix(v, "-") && len(v) > 1 || v == "(" || v == "!" || v == "," {
			break
		}
		ops = append(ops, i)
	}
	for ; i < len(argv); i++ {
		t := argv[i]
		v := t.Value
		switch v {
		case "(", ")", "!", ",", "-a", "-o", "-not", "-and", "-or":
			if !t.Dynamic {
				continue
			}
		}
		if !strings.HasPrefix(t.Prefix, "-") {
			continue // a stray word: find would refuse it
		}
		o := Opt{Name: strings.TrimPrefix(v, "-"), Spelling: v, Word: i, ValueWord: -1, End: i + 1, Dynamic: t.Dynamic}
		sp, ok := p.lookup(v)
		if ok {
			o.Name, o.Role, o.Known = sp.opt.Name, sp.opt.Role, true
		}
		switch {
		case ok && sp.opt.Role == Argv:
			j := i + 1
			for ; j < len(argv); j++ {
				a := argv[j]
				if !a.Dynamic && (a.Value == ";" || a.Value == "+" && j > i+1 && argv[j-1].Value == "{}") {
					break
				}
			}
			if j > i+1 {
				o.Value, o.HasValue, o.ValueWord = argv[i+1], true, i+1
			}
			o.End = min(j+1, len(argv))
			i = j
		case v == "-fprintf" && i+2 < len(argv):
			o.Value, o.HasValue, o.ValueWord, o.End = argv[i+1], true, i+1, i+3
			i += 2
		case ok && sp.arg == ReqArg && i+1 < len(argv):
			o.Value, o.HasValue, o.ValueWord, o.End = argv[i+1], true, i+1, i+2
			i++
		}
		out.Opts = append(out.Opts, o)
	}
	return ops
}

// ddGrammar reads dd(1)'s KEY=VALUE operands as options named KEY with
// the roles the entry gives "--KEY" (if= is read, of= is written); a word
// without "=" is an operand.
func ddGrammar(p *Program, argv []Token, out *Parsed) []int {
	var ops []int
	for i := 1; i < len(argv); i++ {
		t := argv[i]
		key, _, ok := strings.Cut(t.Prefix, "=")
		if !ok || strings.HasPrefix(key, "-") {
			if strings.HasPrefix(t.Value, "-") && !t.Dynamic {
				out.Opts = append(out.Opts, Opt{Name: strings.TrimLeft(t.Value, "-"), Spelling: t.Value, Word: i, ValueWord: -1, End: i + 1})
				continue
			}
			ops = append(ops, i)
			continue
		}
		o := Opt{Name: key, Spelling: key + "=", Word: i, Value: sub(t, t.Value[len(key)+1:], len(key)+1), HasValue: true, ValueWord: i, End: i + 1}
		if sp, ok := p.lookup("--" + key); ok {
			o.Name, o.Role, o.Known = sp.opt.Name, sp.opt.Role, true
		}
		out.Opts = append(out.Opts, o)
	}
	return ops
}

// tarGrammar reads tar(1)'s traditional first word: letters without a
// dash ("xzf"), each an option, where the letters that take a value take
// the next words in order ("tar cf out.tar -C dir ."). The rest is read
// the usual way.
func tarGrammar(p *Program, argv []Token, out *Parsed) []int {
	i := 1
	if len(argv) > 1 && !argv[1].Dynamic && argv[1].Value != "" && !strings.HasPrefix(argv[1].Value, "-") && isLetters(argv[1].Value) {
		next := 2
		for _, c := range argv[1].Value {
			text := "-" + string(c)
			o := Opt{Name: string(c), Spelling: text, Word: 1, ValueWord: -1, End: 2}
			if sp, ok := p.lookup(text); ok {
				o.Name, o.Role, o.Known = sp.opt.Name, sp.opt.Role, true
				if sp.arg == ReqArg && next < len(argv) {
					o.Value, o.HasValue, o.ValueWord, o.End = argv[next], true, next, next+1
					next++
				}
			}
			out.Opts = append(out.Opts, o)
		}
		i = next
	}
	ps := parser{argv: argv, out: out, cur: p}
	ps.run(i)
	return ps.ops
}

func isLetters(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// parallelGrammar reads GNU parallel(1): options, then the command words
// (operands) up to the first input separator (":::", "::::", ":::+",
// "::::+"), whose first input is recorded as an option named ":::" (or
// "::::" for an input file, role read).
func parallelGrammar(p *Program, argv []Token, out *Parsed) []int {
	end := len(argv)
	for i := 1; i < len(argv); i++ {
		if v := argv[i].Value; !argv[i].Dynamic && (v == ":::" || v == "::::" || v == ":::+" || v == "::::+") {
			end = i
			o := Opt{Name: strings.TrimSuffix(v, "+"), Spelling: v, Word: i, ValueWord: -1, End: len(argv), Known: true}
			if i+1 < len(argv) {
				o.Value, o.HasValue, o.ValueWord = argv[i+1], true, i+1
			}
			if o.Name == "::::" {
				o.Role = Read
			}
			defer func() { out.Opts = append(out.Opts, o) }()
			break
		}
	}
	ps := parser{argv: argv[:end], out: out, cur: p}
	ps.run(1)
	return ps.ops
}

// httpieGrammar reads HTTPie and xh: options, then an optional METHOD
// (an upper-case word), the URL and the request items. The METHOD, when
// there is one, is recorded as an option named "method".
func httpieGrammar(p *Program, argv []Token, out *Parsed) []int {
	ps := parser{argv: argv, out: out, cur: p}
	ps.run(1)
	ops := ps.ops
	if len(ops) > 1 && isMethod(argv[ops[0]]) {
		out.Opts = append(out.Opts, Opt{Name: "method", Spelling: argv[ops[0]].Value, Word: ops[0], Value: argv[ops[0]], HasValue: true, ValueWord: ops[0], End: ops[0] + 1, Known: true})
		ops = ops[1:]
	}
	return ops
}

func isMethod(t Token) bool {
	if t.Dynamic || t.Value == "" {
		return false
	}
	for _, c := range t.Value {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}
