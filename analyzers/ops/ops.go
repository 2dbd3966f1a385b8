package ops

import (
	"context"
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
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
		"and terraform destroy; shutdown, kill -1, stopping sshd, flushing the firewall, crontab -r, " +
		"wiping shell history. Warns on sudo. Tags process control, permission inspection and " +
		"protected deletes.",
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

// maxInnerDepth bounds how often one argv is unwrapped into another
// (npx prisma, bundle exec rails, docker exec … psql, git aliases).
const maxInnerDepth = 4

// checker holds the state of one Run.
type checker struct {
	in    *analysis.Input
	r     *analysis.Report
	found bool
	seen  map[string]bool
}

// cmdCtx is one argv being checked: the command it came from (for Cwd,
// Stdin, Assigns) and the words that run, args[0] being the program.
type cmdCtx struct {
	cmd   *shell.Command
	args  []shell.Word
	name  string
	depth int
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
		k.history(c)
		if len(c.Args) > 0 {
			k.dispatch(cmdCtx{cmd: c, args: c.Args, name: c.Name})
		}
		if priv == nil && (c.Privileged || privWrappers[c.Name]) {
			priv = c
		}
	}
	if priv != nil && !k.found {
		k.privilege(priv)
	}
}

// dispatch runs the rules for one argv.
func (k *checker) dispatch(x cmdCtx) {
	if x.depth > maxInnerDepth || len(x.args) == 0 {
		return
	}
	name := x.name
	if name == "" && !x.args[0].Dynamic {
		name = strings.ToLower(path.Base(x.args[0].Value))
	}
	x.name = name
	if strings.HasPrefix(x.args[0].Value, "/etc/init.d/") || strings.HasPrefix(x.args[0].Value, "/etc/rc.d/") {
		k.initScript(x)
		return
	}
	if f, ok := commands[name]; ok {
		f(k, x)
		return
	}
	if x.args[0].Dynamic && len(x.args) > 1 {
		// "$g reset --hard" with g=git: an unknown program given a git
		// subcommand that can destroy work is judged as git would run it.
		if _, ok := gitSubs[x.args[1].Value]; ok && x.args[1].Value != "config" {
			k.git(x)
			return
		}
	}
	switch {
	case strings.HasPrefix(name, "python"):
		k.python(x)
	case strings.HasPrefix(name, "iptables"), strings.HasPrefix(name, "ip6tables"):
		k.iptables(x)
	}
}

// inner checks argv words that another program runs (npx, bundle exec,
// docker exec, a git alias), keeping the outer command's context.
func (k *checker) inner(x cmdCtx, args []shell.Word) {
	if len(args) == 0 || args[0].Dynamic {
		return
	}
	k.dispatch(cmdCtx{cmd: x.cmd, args: args, depth: x.depth + 1})
}

// commands maps a program's lower-cased base name to its rules; filled in
// init by the files of each area, so that the table and the functions it
// names do not form an initialization cycle.
var commands = map[string]func(*checker, cmdCtx){}

func register(f func(*checker, cmdCtx), names ...string) {
	for _, n := range names {
		commands[n] = f
	}
}

// add reports a finding once per (rule, command).
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

// ask reports an Ask finding. what is the refused operation as the model
// wrote it, why and instead complete the reason.
func (k *checker) ask(x cmdCtx, rule, category, why, instead string) {
	k.add(toolwall.Ask, rule, category, reason(x, why, instead))
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
// rule that stops a call asks a human; none denies).
func reason(x cmdCtx, why, instead string) string {
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
// an option value).
func words(ss []string) []shell.Word {
	out := make([]shell.Word, len(ss))
	for i, s := range ss {
		out[i] = shell.Word{Raw: s, Value: s, Prefix: s}
	}
	return out
}

// values returns the Value of each word.
func values(ws []shell.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
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

// cwd is the directory x runs in, or the call's when the reader lost it.
func (k *checker) cwd(x cmdCtx) string {
	if x.cmd != nil && x.cmd.Cwd != "" {
		return x.cmd.Cwd
	}
	return k.in.Call.Cwd
}
