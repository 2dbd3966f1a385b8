package ops

import (
	"context"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// Analyzer is the operations analyzer. It looks at Bash calls only and
// needs in.Script; a nil Script (a non-Bash call, or a command that did
// not parse) yields nothing. Findings carry Analyzer "ops" and the
// categories "git", "database", "infrastructure", "system" and
// "privilege".
var Analyzer = &analysis.Analyzer{
	Name:  "ops",
	Rules: rules,
	Doc: "Stops operations that destroy work or access a developer cannot get back: " +
		"git resets, cleans, forced pushes and history rewrites; SQL DROP/TRUNCATE/unbounded DELETE, " +
		"FLUSHALL, dropDatabase, framework database resets; cloud, cluster and container deletions " +
		"and terraform destroy; shutdown, kill -1, stopping sshd, flushing or changing the firewall, crontab -r, " +
		"wiping shell history, running a program from a temporary directory as root. Warns on sudo. " +
		"Tags process control, permission inspection and protected deletes.",
	Tools: []string{toolwall.ToolBash},
	Run:   run,
}

// Finding scores (the task's conventions: ask 0.5–0.65, warn 0.4–0.5).
const (
	askScore  = 0.6
	warnScore = 0.45
)

// Categories of findings.
const (
	catGit       = "git"
	catDB        = "database"
	catInfra     = "infrastructure"
	catSystem    = "system"
	catPrivilege = "privilege"
)

// maxAliasDepth bounds how often a git alias defined on the command line
// expands into another.
const maxAliasDepth = 4

// checker holds the state of one Run.
type checker struct {
	in    *analysis.Input
	r     *analysis.Report
	found bool
	seen  map[string]bool
}

// cmdCtx is one command being judged: the command (for its directory,
// stdin, assignments and effects), its argv read through the program
// catalog, and the words quoted back in a reason.
type cmdCtx struct {
	cmd *shell.Command
	inv *shell.Invocation
	// args are the words shown in a reason (the command's argv).
	args []shell.Word
	// name is the catalog entry's name ("git" for /usr/bin/git), or the
	// command's own name when the catalog has none.
	name string
	// near is set when inv is a reading of words the program refuses as
	// written ([programs.Near]): what they were read as, said first in
	// every reason ("read as `reset --hard`"; the reason quotes the
	// command as written before it).
	near string
}

// sub returns the i-th subcommand word as written ("" when there is
// none): "push" for git push, "drop" for git stash drop.
func (x cmdCtx) sub(i int) string {
	if x.inv == nil || i >= len(x.inv.SubNames) {
		return ""
	}
	return x.inv.SubNames[i]
}

// operand returns the value of operand k, or "".
func (x cmdCtx) operand(k int) string {
	if x.inv == nil {
		return ""
	}
	return x.inv.Operand(k).Value
}

// operands returns the words of every operand.
func (x cmdCtx) operands() []shell.Word {
	if x.inv == nil {
		return nil
	}
	out := make([]shell.Word, len(x.inv.Operands))
	for k := range x.inv.Operands {
		out[k] = x.inv.Operand(k)
	}
	return out
}

// has reports whether one of the named options was given (and not later
// negated with --no-).
func (x cmdCtx) has(names ...string) bool {
	return x.inv != nil && x.inv.Has(names...)
}

// values returns the values of the named options, in order.
func (x cmdCtx) values(names ...string) []shell.Word {
	if x.inv == nil {
		return nil
	}
	return x.inv.Values(names...)
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	if in == nil || r == nil || in.Script == nil || in.Call.IsRoot() {
		return
	}
	k := &checker{in: in, r: r, seen: map[string]bool{}}
	var priv *shell.Command
	for _, c := range in.Script.Commands {
		if c == nil {
			continue
		}
		k.writes(c)
		if len(c.Args) > 0 {
			k.dispatch(c)
		}
		if c.Privileged {
			k.tempProgram(c)
		}
		if priv == nil && (c.Privileged || privWrapper(c.Name)) {
			priv = c
		}
	}
	if priv != nil && !k.found {
		k.privilege(priv)
	}
}

// invocation returns c's argv read through the catalog. A package runner's
// version suffix (npx prisma@5) names the package's program, which is
// read through its own entry.
func invocation(c *shell.Command) *shell.Invocation {
	v := c.Inv
	if v == nil || v.Program() != nil || len(c.Args) == 0 {
		return v
	}
	name := c.Args[0].Value
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if at := strings.IndexByte(name[min(1, len(name)):], '@'); at >= 0 {
		if p := programs.Lookup(name[:at+1]); p != nil {
			return reparse(p, c.Args)
		}
	}
	return v
}

// reparse reads args (args[0] names the program) through entry p: for an
// argv the catalog parser has not read yet (a git alias expanded, the
// words after python manage.py, a program word only known at run time).
func reparse(p *programs.Program, args []shell.Word) *shell.Invocation {
	toks := make([]programs.Token, len(args))
	for i, a := range args {
		toks[i] = programs.Token{Value: a.Value, Prefix: a.Prefix, Dynamic: a.Dynamic, Splits: a.Dynamic}
	}
	return &shell.Invocation{Parsed: programs.Parse(p, toks), Args: args}
}

// dispatch runs the rules for one command.
func (k *checker) dispatch(c *shell.Command) {
	v := invocation(c)
	x := cmdCtx{cmd: c, inv: v, args: c.Args, name: c.Name}
	if p := v.Program(); p != nil {
		x.name = p.Root().Name
	}
	if c.Args[0].Dynamic {
		if len(c.Candidates) == 0 { // else each value is judged as its own command
			k.dynamicProgram(x)
		}
		return
	}
	if strings.HasPrefix(c.Args[0].Value, "/etc/init.d/") || strings.HasPrefix(c.Args[0].Value, "/etc/rc.d/") {
		k.initScript(x)
		return
	}
	k.judge(x)
}

// judge runs the rules of the program x names.
func (k *checker) judge(x cmdCtx) {
	if k.gitFamily(x) || k.dbFamily(x) || k.infraFamily(x) {
		return
	}
	k.systemFamily(x)
}

// add reports a finding once per (rule, reason).
func (k *checker) add(act toolwall.Action, rule, category, reason string) {
	key := rule + "\x00" + reason
	if k.seen[key] {
		return
	}
	k.seen[key] = true
	score := askScore
	if act == toolwall.Warn {
		score = warnScore
	} else {
		k.found = true
	}
	k.r.Add(toolwall.Finding{Rule: rule, Category: category, Score: score, Action: act, Reason: reason})
}

// ask reports an Ask finding. why and instead complete the reason, which
// quotes the command as the model wrote it.
func (k *checker) ask(x cmdCtx, rule, category, why, instead string) {
	k.add(toolwall.Ask, rule, category, reason(x, why, instead))
}

// askShown reports an Ask finding whose reason quotes the command as the
// model wrote it, wrappers and quoting kept ([shell.Command.Shown]):
// "`…` needs confirmation: <why>. <instead>."
func (k *checker) askShown(x cmdCtx, rule, category, why, instead string) {
	k.add(toolwall.Ask, rule, category, x.cmd.Shown()+" needs confirmation: "+why+". "+instead+".")
}

// warn reports a Warn finding; its reason says the command was let
// through.
func (k *checker) warn(x cmdCtx, rule, category, why, instead string) {
	k.add(toolwall.Warn, rule, category, "`"+quote(x.args)+"` was allowed with a warning: "+why+". "+instead+".")
}

// protect tags a destructive operation on protected data; target is the
// absolute path it acts on when there is one (a repository), else "".
func (k *checker) protect(target string) {
	k.r.Tag(toolwall.TagDelete, target, "protected")
}

// reason writes "<what> needs confirmation: <why>. <instead>." (every ops
// rule that stops a call asks a human; none denies); a reading of words
// the program refuses says so before why.
func reason(x cmdCtx, why, instead string) string {
	if x.near != "" {
		why = x.near + ": " + why
	}
	return "`" + quote(x.args) + "` needs confirmation: " + why + ". " + instead + "."
}

// quote renders argv for a reason, at most 160 bytes.
func quote(args []shell.Word) string {
	var b strings.Builder
	for i, w := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		v := w.Value
		switch {
		case w.Dynamic:
			v = w.Raw
		case v == "" || strings.ContainsAny(v, " \t\n'\"$`\\"):
			v = "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
		}
		b.WriteString(v)
	}
	s := strings.Join(strings.Fields(b.String()), " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// words makes static words of strings (for argv built from a git alias or
// an assignment).
func words(ss []string) []shell.Word {
	out := make([]shell.Word, len(ss))
	for i, s := range ss {
		out[i] = shell.Word{Raw: s, Value: s, Prefix: s}
	}
	return out
}

// anyDynamic reports whether one of ws is only known at run time.
func anyDynamic(ws []shell.Word) bool {
	for _, w := range ws {
		if w.Dynamic {
			return true
		}
	}
	return false
}

// cwd is the directory x runs in: the call's when the reader lost it,
// "" for a command on another host or in a container.
func (k *checker) cwd(x cmdCtx) string {
	if x.cmd != nil && x.cmd.Remote {
		return ""
	}
	if x.cmd != nil && x.cmd.Cwd != "" {
		return x.cmd.Cwd
	}
	return k.in.Call.Cwd
}

// baseName is the lower-cased last path element of v.
func baseName(v string) string {
	if i := strings.LastIndexByte(v, '/'); i >= 0 {
		v = v[i+1:]
	}
	return strings.ToLower(v)
}
