package pwsh

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

//go:embed cmdlets.txt
var cmdletsText string

// cmdlet is one entry of cmdlets.txt.
type cmdlet struct {
	name   string
	as     []string // nil for "as -"
	params []param
	// piped are the words added when the cmdlet reads the pipe
	// (Invoke-WebRequest sends it as the body: curl -d @-).
	piped []string
	// emits says what the cmdlet writes to the pipeline, when a later
	// cmdlet can take it as its operands: "children" (the entries under
	// its path operands, or under the working directory; every entry
	// below with its -Recurse), "items" (the items its path operands
	// name, Get-Item) or "input" (some of the items it reads, passed on:
	// Where-Object).
	emits string
	// input names the parameter the pipeline's items bind to when it is
	// not given (Remove-Item's -Path): the items become the operands.
	input string
}

// param is one parameter of a cmdlet.
type param struct {
	names []string // canonical first, lower-cased
	kind  string   // "param", "switch", "code", "run", "args"
	pos   int      // -1 when it has no position
	path  bool
	// literal: a path whose * and ? are not wildcards (-LiteralPath).
	literal bool
	tmpl    string // "@", "_", "-x"
}

var (
	tableOnce sync.Once
	table     map[string]*cmdlet // by lower-cased name and alias
	tableErr  error
)

// cmdlets returns the cmdlet table, read on first use.
func cmdlets() (map[string]*cmdlet, error) {
	tableOnce.Do(func() { table, tableErr = load(cmdletsText) })
	return table, tableErr
}

// load reads the cmdlet table's text format (see cmdlets.txt).
func load(text string) (map[string]*cmdlet, error) {
	out := map[string]*cmdlet{}
	var cur *cmdlet
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		fail := func(msg string) error { return fmt.Errorf("cmdlets.txt:%d: %s: %q", n+1, msg, line) }
		switch f[0] {
		case "cmdlet":
			if len(f) < 2 {
				return nil, fail("cmdlet needs a name")
			}
			cur = &cmdlet{name: f[1]}
			for _, a := range f[1:] {
				k := strings.ToLower(a)
				if _, dup := out[k]; dup {
					return nil, fail("name given twice: " + a)
				}
				out[k] = cur
			}
		case "as":
			if cur == nil || len(f) < 2 {
				return nil, fail("as outside a cmdlet or empty")
			}
			if f[1] != "-" {
				cur.as = f[1:]
			}
		case "piped":
			if cur == nil || len(f) < 2 {
				return nil, fail("piped outside a cmdlet or empty")
			}
			cur.piped = f[1:]
		case "emits":
			if cur == nil || len(f) != 2 || f[1] != "children" && f[1] != "items" && f[1] != "input" {
				return nil, fail("emits outside a cmdlet or not \"children\", \"items\" or \"input\"")
			}
			cur.emits = f[1]
		case "input":
			if cur == nil || len(f) != 2 {
				return nil, fail("input outside a cmdlet or without a parameter")
			}
			cur.input = strings.ToLower(f[1])
		case "param", "switch", "code", "run", "args":
			if cur == nil || len(f) < 2 {
				return nil, fail("parameter outside a cmdlet")
			}
			p := param{kind: f[0], pos: -1, names: strings.Split(strings.ToLower(f[1]), ",")}
			rest := f[2:]
			for len(rest) > 0 && rest[0] != "->" {
				switch w := rest[0]; {
				case strings.HasPrefix(w, "pos"):
					k, err := strconv.Atoi(w[3:])
					if err != nil {
						return nil, fail("bad position")
					}
					p.pos = k
				case w == "path":
					p.path = true
				case w == "literal":
					p.literal = true
				default:
					return nil, fail("unknown word " + w)
				}
				rest = rest[1:]
			}
			switch {
			case len(rest) == 2 && rest[0] == "->":
				p.tmpl = rest[1]
			case len(rest) == 0 && (p.kind == "code" || p.kind == "run" || p.kind == "args"):
			default:
				return nil, fail("want -> TEMPLATE")
			}
			cur.params = append(cur.params, p)
		default:
			return nil, fail("unknown directive")
		}
	}
	return out, nil
}

// common reports whether name is a common parameter every cmdlet takes
// (toolwall ignores them), and whether it takes a value.
func common(name string) (takes, known bool) {
	switch name {
	case "verbose", "vb", "debug", "db", "whatif", "wi", "confirm", "cf":
		return false, true
	case "erroraction", "ea", "warningaction", "wa", "informationaction", "infa", "errorvariable", "ev",
		"warningvariable", "wv", "informationvariable", "iv", "outvariable", "ov", "outbuffer", "ob",
		"pipelinevariable", "pv", "progressaction", "proga":
		return true, true
	}
	return false, false
}

// find returns the parameter name matches: an exact name or alias, else
// the one parameter it is a prefix of. ok is false when it is none of
// the cmdlet's (a common parameter, or unknown).
func (c *cmdlet) find(name string) (*param, bool) {
	name = strings.ToLower(name)
	var hit *param
	for i := range c.params {
		for _, n := range c.params[i].names {
			if n == name {
				return &c.params[i], true
			}
			if strings.HasPrefix(n, name) && hit == nil {
				hit = &c.params[i]
			}
		}
	}
	return hit, hit != nil
}
