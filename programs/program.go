package programs

import (
	"slices"
	"strings"
)

// Style says how a program reads its options; see the package doc.
type Style uint16

// Styles, combined with |.
const (
	Posix    Style = 1 << iota // options end at the first operand
	Exact                      // long options are never abbreviated
	Negate                     // --no-NAME turns NAME off
	DashLong                   // one dash starts a long option (-name)
	Modes                      // -w, -rwx are modes (operands), not options
	Plus                       // +x is an option too
	NoBundle                   // -abc is one option
	Dash                       // a lone "-" is an option
	Strict                     // an option the entry does not list makes the program refuse to run (bash builtins)
)

var styleNames = map[string]Style{
	"posix": Posix, "exact": Exact, "negate": Negate, "dashlong": DashLong,
	"modes": Modes, "plus": Plus, "nobundle": NoBundle, "dash": Dash, "strict": Strict,
}

// Arg says whether an option spelling takes a value.
type Arg uint8

// Kinds of option values.
const (
	NoArg  Arg = iota // a switch
	ReqArg            // a value, attached ("-ofile", "--out=file") or the next word
	OptArg            // a value only when attached ("-i.bak", "--color=auto")
	Digits            // optional digits attached (perl -l, -0777); the letters after them are more options
)

// Spelling is one way to write an option.
type Spelling struct {
	// Text is the option as written, without its value: "-x", "--name",
	// "-name" (style dashlong), "+o" (style plus).
	Text string
	// Arg says whether it takes a value.
	Arg Arg
	// Words is how many words a ReqArg value takes when it is not
	// attached (default 1; bwrap --bind SRC DEST takes 2).
	Words int
}

// long reports whether the spelling is a long option (more than one
// letter after its dash or plus).
func (s Spelling) long() bool {
	t := strings.TrimLeft(s.Text, "-+")
	return len(t) > 1 || strings.HasPrefix(s.Text, "--")
}

// Option is one option of a program: its spellings, its canonical name
// and what its value is.
type Option struct {
	// Spellings are the ways to write it.
	Spellings []Spelling
	// Name is the canonical name analyzers ask for.
	Name string
	// Role is what the value is (Unknown for a switch or data).
	Role Role
	// Ends: the option ends the options; every word after it (and its
	// value) is an operand (python -c, -m).
	Ends bool
}

// Cond is one term of a condition: an option's canonical name (or
// "noargs": the invocation has no operands), possibly negated. With
// Values (written NAME=V1|V2|P*), the option's last value must be one of
// them; the name "operand" then means any operand, each element of a
// comma-separated operand counting alone (kubectl get secrets,pods).
// Values match without regard to case, a trailing "*" matches any rest
// and a leading one any start,
// and a value only known at run time matches.
type Cond struct {
	Name   string
	Not    bool
	Values []string
}

// OperandRule gives operands their roles when Cond holds.
type OperandRule struct {
	// Roles in order; Roles[Repeat] repeats (Repeat -1: none repeats).
	Roles  []Role
	Repeat int
	// Cond must hold for the rule to apply (every term; empty: always).
	Cond []Cond
}

// StdinRule says what the program does with its standard input when
// Cond holds.
type StdinRule struct {
	Role Role
	Cond []Cond
}

// Program is one catalog entry, or one subcommand of one.
type Program struct {
	// Name is the canonical name ("rm"; a subcommand's own name: "push").
	Name string
	// Names are every name it answers to, Name first.
	Names []string
	// Doc says what it is, one line.
	Doc string
	// Parent is the program a subcommand belongs to; nil for a program.
	Parent *Program
	// Style is how it reads options.
	Style Style
	// Versions: NAME followed by digits and dots is this program too.
	Versions bool
	// Privileged: it runs its command with raised privilege, unless
	// Unprivileged holds (systemd-run --user).
	Privileged   bool
	Unprivileged []Cond
	// Wrapper: the command it runs (its operands of role Argv) replaces it
	// in place, with its privilege, directory and environment changes
	// applied (sudo, env, timeout), rather than running as a command of
	// its own.
	Wrapper bool
	// Recursive: its deletes and changes reach whole trees whether or not
	// an option says so (find -delete); otherwise an option named
	// "recursive" says so.
	Recursive bool
	// Workdirs say where the command it runs starts when no option with
	// role Cd says: the first whose condition holds ("/" for chroot and a
	// system service, "~" for a user service).
	Workdirs []Workdir
	// TreeWrites: when it holds, the program writes entries it does not
	// name under its working directory (tar -x, unzip).
	TreeWrites []Cond
	HasTree    bool
	// Flows say what the files it writes and the text it prints are made
	// of: the files and URLs it reads, and its standard input, passed
	// through as Kind ("copy", "decoded", "archive", "transformed",
	// "network"); the first whose condition holds applies. A program
	// without one passes no origin on (package provenance).
	Flows []FlowRule
	// Runs are files under its working directory that it runs as code
	// when Cond holds (git commit runs .git/hooks/pre-commit); "." is
	// everything there (go generate).
	Runs []RunsRule
	// ShellConfig lists configuration keys (lower-case; "*" ends a
	// prefix) whose values, set with an option of role Config
	// (KEY=VALUE), are shell commands the program runs; a key ending in
	// "=!" counts only when the value starts with "!" (git alias.*).
	ShellConfig []string
	// EnvCommands lists environment variables whose value is a shell
	// command the program runs (GIT_SSH_COMMAND, GIT_PAGER of git).
	EnvCommands []string
	// Prints is what it prints, for the dry run ("tmpdir", "cwd", …), when
	// PrintsIf holds; "secret" marks a command whose output is a
	// credential (gh auth token), "shellenv" one whose output is shell
	// code of its own that sets up its environment (eval "$(pyenv init
	// -)" runs nothing from elsewhere).
	Prints   string
	PrintsIf []Cond
	// Lang is the language of its Code, Exec and stdin operands.
	Lang string
	// Exts are the file extensions of the scripts it runs (".py"), for
	// a file run by its name or judged before it runs.
	Exts []string
	// Grammar names Go code that reads its arguments ("find", "dd", "tar").
	Grammar string
	// Options, in catalog order.
	Options []*Option
	// Operands are the operand rules; the first that holds applies.
	Operands []OperandRule
	// Stdin are the stdin rules; the first that holds applies.
	Stdin []StdinRule
	// Subs are the subcommands.
	Subs []*Program
	// File and Line say where the entry is in the catalog.
	File string
	Line int

	spell map[string]spelled // option spelling text → option
	longs []string           // long spellings ("--name"), sorted
}

type spelled struct {
	opt   *Option
	arg   Arg
	words int
}

// FlowRule is one "flow" directive: when Cond holds, what the program
// writes or prints is made of what it reads, passed through as Kind.
type FlowRule struct {
	Kind string
	Cond []Cond
}

// RunsRule is one "runs" directive: when Cond holds, the program runs
// Files (relative to its working directory) as code.
type RunsRule struct {
	Files []string
	Cond  []Cond
}

// FlowKinds are the kinds a "flow" directive may name.
var FlowKinds = []string{"copy", "decoded", "archive", "transformed", "network"}

// Workdir is where a program's command starts when Cond holds.
type Workdir struct {
	Dir  string
	Cond []Cond
}

// Path returns the program and subcommand names: "git push".
func (p *Program) Path() string {
	if p.Parent == nil {
		return p.Name
	}
	return p.Parent.Path() + " " + p.Name
}

// Root returns the program a subcommand belongs to (p itself for a
// program).
func (p *Program) Root() *Program {
	for p.Parent != nil {
		p = p.Parent
	}
	return p
}

// Sub returns the subcommand named name, or nil.
func (p *Program) Sub(name string) *Program {
	for _, s := range p.Subs {
		for _, n := range s.Names {
			if n == name {
				return s
			}
		}
	}
	return nil
}

// Option returns the option with canonical name name, looking in p and
// then its parents; nil when there is none.
func (p *Program) Option(name string) *Option {
	for q := p; q != nil; q = q.Parent {
		for _, o := range q.Options {
			if o.Name == name {
				return o
			}
		}
	}
	return nil
}

// lookup finds an option spelling in p and then its parents.
func (p *Program) lookup(text string) (spelled, bool) {
	for q := p; q != nil; q = q.Parent {
		if s, ok := q.spell[text]; ok {
			return s, true
		}
	}
	return spelled{}, false
}

// abbrev finds the long spelling of p (then its parents) that text is a
// unique prefix of: several spellings of one option count once (GNU
// getopt_long). It returns the option and the full spelling.
func (p *Program) abbrev(text string) (spelled, string, bool) {
	for q := p; q != nil; q = q.Parent {
		var (
			found spelled
			full  string
			n     int
		)
		i, _ := slices.BinarySearch(q.longs, text)
		for ; i < len(q.longs) && strings.HasPrefix(q.longs[i], text); i++ {
			s := q.spell[q.longs[i]]
			if n == 0 || s.opt != found.opt {
				n++
				found, full = s, q.longs[i]
			}
		}
		switch {
		case n == 1:
			return found, full, true
		case n > 1:
			return spelled{}, "", false
		}
	}
	return spelled{}, "", false
}
