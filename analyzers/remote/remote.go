package remote

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids reported by this package.
const (
	RulePipeToShell    = "remote.pipe-to-shell"        // network content piped into an interpreter
	RuleProcessSubst   = "remote.process-substitution" // bash <(curl …), source <(curl …)
	RuleSubstituted    = "remote.substituted-script"   // sh -c "$(curl …)", eval "$(curl …)"
	RuleDecoded        = "remote.decoded-payload"      // base64 -d | sh, exec(b64decode(…))
	RuleInterpExec     = "remote.interpreter-exec"     // python -c "exec(urlopen(…).read())"
	RuleDownloadExec   = "remote.download-exec"        // curl -o f … && sh f in one call
	RulePackageInstall = "remote.package-install"      // dpkg -i of a download, rpm -i URL
	RuleRecursiveDel   = "interp.recursive-delete"     // shutil.rmtree, fs.rmSync(…{recursive}), …
	RuleReverseShell   = "remote.reverse-shell"        // bash -i >& /dev/tcp/…, nc -e sh, a socket handed to a shell in any language
	RuleDynamicCode    = "interp.dynamic-command"      // sh -c "$CMD", eval "$r", os.system(cmd): code only known at run time
	RuleForkBomb       = "fork-bomb"                   // perl -e 'fork while fork' (the destroy analyzer's id for the shell form)
	categoryRemote     = "remote-code"
	categoryDestroy    = "destructive"
	denyScore          = 0.95
	askScore           = 0.6
	maxUpstreamStages  = 64
)

// Analyzer reads Bash calls for code fetched from the network or decoded
// from a blob and run without being read, interpreter one-liners that
// fetch-and-execute or delete trees, and tags downloads, local executions
// and egress for chain rules. In RootContext it reports nothing (seed
// 004).
var Analyzer = &analysis.Analyzer{
	Name:  "remote",
	Rules: rules,
	Doc:   "Refuses remote code execution (curl | sh, bash <(curl), sh -c \"$(curl)\", base64 -d | sh, python -c exec(urlopen)), asks on interpreter one-liners that delete trees, and tags download-file, download-stdout, exec-local and egress effects.",
	Tools: []string{toolwall.ToolBash},
	Run:   run,
}

func run(ctx context.Context, in *analysis.Input, r *analysis.Report) {
	if in.Script == nil || in.Call.IsRoot() {
		return
	}
	a := &analyzer{ctx: ctx, in: in, r: r, cmds: in.Script.Commands, index: map[*shell.Command]int{}, seen: map[string]bool{}, fdNet: map[string]*shell.Command{}}
	for i, c := range a.cmds {
		a.index[c] = i
	}
	for i, c := range a.cmds {
		a.command(i, c)
	}
	a.downloadExec()
	if in.Call.Tool == toolwall.ToolPowerShell {
		// A PowerShell call is read into commands; the program it is
		// also answers to the remote-shell facts of its language, as
		// pwsh -Command's text does.
		if src, ok := in.Call.Field("command"); ok && a.codeShell(nil, langPwsh, src) {
			a.codeShellFinding(src, langPwsh)
		}
	}
}

// analyzer is the state of one run.
type analyzer struct {
	ctx   context.Context
	in    *analysis.Input
	r     *analysis.Report
	cmds  []*shell.Command
	index map[*shell.Command]int
	seen  map[string]bool
	// dls and execs record download and exec-local paths with the index
	// of their command, for download-exec in one call.
	dls   []pathAt
	execs []pathAt
	// fdNet maps a file descriptor an earlier exec opened on network
	// content (exec 3< <(curl …), exec 3<>/dev/tcp/h/80) to the command
	// that fetches it.
	fdNet map[string]*shell.Command
	// built holds the build inputs already tagged in this call.
	built map[string]bool
	// texts maps the files this call writes with static text (echo …
	// > f, cat > f <<EOF) to that text, so a program run from one is
	// read as its code.
	texts map[string]string
}

type pathAt struct {
	path string
	i    int
}

// add reports a finding once per rule.
func (a *analyzer) add(rule, category string, act toolwall.Action, reason string) {
	if a.seen[rule] {
		return
	}
	a.seen[rule] = true
	score := denyScore
	if act == toolwall.Ask {
		score = askScore
	}
	a.r.Add(toolwall.Finding{Rule: rule, Category: category, Score: score, Action: act, Reason: reason})
}

func (a *analyzer) cwd(c *shell.Command) string {
	if c.Cwd != "" {
		return c.Cwd
	}
	return a.in.Call.Cwd
}

// inlineVia reports the Via values of shell commands the reader took
// out of interpreter one-liners (os.system, execSync, system, backticks).
func inlineVia(v string) bool {
	switch v {
	case "python -c", "node -e", "perl -e", "ruby -e", "php -r", "lua -e", "Rscript -e", "julia -e", "osascript -e":
		return true
	}
	return false
}

func (a *analyzer) command(i int, c *shell.Command) {
	a.revshell(c)
	a.fds(i, c)
	switch {
	case inlineVia(c.Via) && len(c.Args) > 0 && c.Args[0].Dynamic:
		// os.system(cmd): a command only known at run time, inside code
		// that runs it; what cannot be resolved is not safe (DESIGN, 2).
		a.add(RuleDynamicCode, "remote-code", toolwall.Ask, fmt.Sprintf(
			"The `%s` one-liner needs approval: it runs a shell command built at run time, so toolwall cannot see what it would do. Write the command out literally, or run it as its own Bash call.", c.Via))
	case c.BuiltAtRunTime() && c.Parent != nil:
		// sh -c "$CMD", eval "$r", bash <<<"$x": the code a shell runs
		// is only known at run time
		a.add(RuleDynamicCode, "remote-code", toolwall.Ask, fmt.Sprintf(
			"%s needs approval: the code it runs is built at run time (from a variable, a command's output or its input), so toolwall cannot see what it would do. Write the commands out literally.", c.Parent.Shown()))
	}
	a.substitutedProgram(i, c)
	root := rootName(c)
	a.urls(c)
	if p, ok := programOf(c); ok {
		a.interpreter(i, c, p)
		a.codeURLs(p)
	} else if root == "parallel" && parallelRunsStdin(c) {
		// GNU parallel without input sources runs each stdin line as a command.
		a.interpreter(i, c, program{lang: langShell, stdin: true})
	}
	switch {
	case root == "curl" || root == "wget" || root == "aria2c" || root == "http" || root == "fetch" || root == "curlie":
		a.client(c)
	case root == "gh" && c.Inv.Sub("release", "download"):
		a.client(c)
	case root == "nc" || root == "socat" || root == "ftp" || root == "socket" || root == "ztcp":
		if c.Inv.Has("listen") || listens(c) {
			a.r.Tag(toolwall.TagDownloadStdout, "", c.Name)
		} else {
			a.r.Tag(toolwall.TagEgress, stdinPath(c), c.Name)
		}
	case root == "scp" || root == "sftp" || root == "rsync":
		a.copyOut(c)
	case root == "ssh":
		if c.Stdin.Kind == shell.StdinPipe || c.Stdin.Kind == shell.StdinFile {
			a.r.Tag(toolwall.TagEgress, stdinPath(c), "ssh stdin")
		}
	default:
		if c.Name != "" && isNetSource(c) {
			a.r.Tag(toolwall.TagDownloadStdout, "", c.Name)
		}
	}
	if c.Stdin.Kind == shell.StdinPipe && !blocksFlow(c) && a.upstream(c.Stdin.From).net != nil {
		a.savedDownload(i, c)
	}
	a.copiedDownload(i, c)
	a.packages(i, c)
	a.build(i, c)
	if len(c.Args) > 0 && !c.Args[0].Dynamic && strings.Contains(c.Args[0].Value, "/") && !c.Remote {
		f := paths.Abs(c.Args[0].Value, a.cwd(c))
		a.exec(i, f)
		if t, ok := a.texts[f]; ok {
			// printf '#!/usr/bin/env python3\n…' > t.py; ./t.py: the
			// program its first line names runs it
			if l := shebangLang(t); l != notInterp && l != langShell {
				a.code(c, l, t)
			}
		}
	} else if c.Name != "" {
		a.execFromPath(i, c.Name)
	}
	for _, e := range c.Effects {
		if e.Kind == shell.Runs && e.Path != "" && !e.Remote {
			if root == "go" && !strings.HasSuffix(e.Path, ".go") {
				continue // go run PACKAGE: a directory (build-input)
			}
			a.exec(i, e.Path)
			if t, ok := a.texts[e.Path]; ok && root == "go" {
				a.code(c, langGo, t)
			}
		}
	}
	a.written(c)
}

// written records the static text c writes into files: echo or printf
// of literal words, or a static heredoc or here-string that cat or tee
// copies, sent to a file by a redirection (or tee's operands).
func (a *analyzer) written(c *shell.Command) {
	text, ok := "", false
	switch {
	case (c.Name == "echo" || c.Name == "printf") && staticText(c):
		var parts []string
		for _, w := range c.Args[1:] {
			parts = append(parts, w.Value)
		}
		text, ok = strings.Join(parts, " "), true
	case (c.Name == "cat" || c.Name == "tee") && len(c.Args) <= 2 && c.Stdin.Kind == shell.StdinHeredoc && !c.Stdin.Dynamic:
		text, ok = c.Stdin.Text, true
	}
	if !ok {
		return
	}
	var files []string
	for _, r := range c.Redirects {
		if r.Writes() && (r.Fd == "" || r.Fd == "1") && !r.Target.Dynamic {
			files = append(files, paths.Abs(r.Target.Value, a.cwd(c)))
		}
	}
	if c.Name == "tee" {
		for _, e := range c.Effects {
			if (e.Kind == shell.Writes || e.Kind == shell.Appends) && e.Path != "" {
				files = append(files, e.Path)
			}
		}
	}
	for _, f := range files {
		if a.texts == nil {
			a.texts = map[string]string{}
		}
		a.texts[f] = text
	}
}

// fds records file descriptors that exec opens on network content:
// exec N< <(client …), exec N</dev/tcp/…, exec N<>/dev/tcp/….
func (a *analyzer) fds(i int, c *shell.Command) {
	if rootName(c) == "ztcp" {
		// zsh's ztcp leaves the connection's descriptor in $REPLY.
		a.fdNet["$REPLY"] = c
		a.fdNet["${REPLY}"] = c
		return
	}
	if c.Name != "exec" || len(c.Args) > 1 {
		return
	}
	for _, r := range c.Redirects {
		if r.Fd == "" || (r.Op != "<" && r.Op != "<>") {
			continue
		}
		var src *shell.Command
		switch {
		case devNet(r.Target.Value):
			src = c
		case strings.HasPrefix(r.Target.Raw, "<("):
			src = a.nestOrigin(i).net
		}
		if src == nil {
			continue
		}
		a.fdNet[r.Fd] = src
	}
}

// stdinFd returns the network client behind c's standard input when it
// is a descriptor an earlier exec opened on network content (bash <&3).
func (a *analyzer) stdinFd(c *shell.Command) *shell.Command {
	for _, r := range c.Redirects {
		if r.Op == "<&" && (r.Fd == "" || r.Fd == "0") && !r.Target.Dynamic {
			if src, ok := a.fdNet[r.Target.Value]; ok {
				return src
			}
		}
	}
	return nil
}

// netSource reports whether c's standard output is network content:
// isNetSource, or its stdin is a descriptor open on the network.
func (a *analyzer) netSource(c *shell.Command) bool {
	return isNetSource(c) || a.stdinFd(c) != nil
}

// rootName is the canonical name of c's program in the catalog ("" when
// it has none).
func rootName(c *shell.Command) string {
	if p := c.Inv.Program(); p != nil {
		return p.Root().Name
	}
	return ""
}

// listens reports a socat whose first address listens (TCP-LISTEN:…,
// UDP-LISTEN:…): what it prints comes from whoever connects.
func listens(c *shell.Command) bool {
	if rootName(c) != "socat" {
		return false
	}
	for _, w := range c.Inv.OperandsOf(programs.None) {
		u := strings.ToUpper(w.Value)
		return strings.Contains(u, "-LISTEN:") || strings.HasPrefix(u, "TCP-L:") || strings.HasPrefix(u, "TCP4-L:")
	}
	return false
}

// execFromPath tags a command run by name when this call downloaded a file
// of that name into a directory on the usual PATH.
func (a *analyzer) execFromPath(i int, name string) {
	home := a.in.Call.Home
	for _, d := range a.dls {
		dir, base := path.Split(d.path)
		dir = strings.TrimSuffix(dir, "/")
		if base != name {
			continue
		}
		switch dir {
		case "/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "/sbin", "/opt/homebrew/bin",
			home + "/bin", home + "/.local/bin", home + "/go/bin", home + "/.cargo/bin":
			a.exec(i, d.path)
			return
		}
	}
}

// copiedDownload follows a file downloaded earlier in the call through
// cp, install, mv and ln: the copy is downloaded content too ("curl -o t
// x && install -m755 t /usr/local/bin/t && t"). Its effects say what it
// reads or moves and where that lands.
func (a *analyzer) copiedDownload(i int, c *shell.Command) {
	switch rootName(c) {
	case "cp", "install", "mv", "ln":
	default:
		return
	}
	if len(a.dls) == 0 {
		return
	}
	from := false
	for _, e := range c.Effects {
		if (e.Kind == shell.Reads || e.Kind == shell.Moves) && e.Path != "" {
			for _, d := range a.dls {
				from = from || d.path == e.Path && d.i < i
			}
		}
	}
	if !from {
		return
	}
	for _, e := range c.Effects {
		if (e.Kind == shell.Writes || e.Kind == shell.Links) && e.Role == programs.Dest && e.Path != "" {
			a.r.Tag(toolwall.TagDownloadFile, e.Path, c.Name)
			a.dls = append(a.dls, pathAt{e.Path, i})
		}
	}
}

// savedDownload tags files a pass-through stage downstream of a network
// client writes: tee operands and a stdout redirect (curl x | tee f,
// curl x | gunzip > f).
func (a *analyzer) savedDownload(i int, c *shell.Command) {
	var files []string
	if rootName(c) == "tee" {
		for _, e := range c.Effects {
			if (e.Kind == shell.Writes || e.Kind == shell.Appends) && e.Role != programs.Unknown && e.Path != "" {
				files = append(files, e.Path)
			}
		}
	}
	for _, r := range c.Redirects {
		if r.Writes() && (r.Fd == "" || r.Fd == "1") && !r.Target.Dynamic {
			files = append(files, paths.Abs(r.Target.Value, a.cwd(c)))
		}
	}
	for _, p := range files {
		if p == "/dev/null" || p == "/dev/stdout" || p == "/dev/stderr" {
			continue
		}
		a.r.Tag(toolwall.TagDownloadFile, p, c.Name)
		a.dls = append(a.dls, pathAt{p, i})
	}
}

func (a *analyzer) exec(i int, p string) {
	a.r.Tag(toolwall.TagExecLocal, p, "")
	a.execs = append(a.execs, pathAt{p, i})
}

// interpreter judges an interpreter command by where its program comes
// from.
func (a *analyzer) interpreter(i int, c *shell.Command, p program) {
	name := c.Name
	if p.stdin || (p.lang != langShell && evalsStdin(p.lang, p.codeText())) {
		if src := a.stdinFd(c); src != nil {
			a.add(RulePipeToShell, categoryRemote, toolwall.Deny, fmt.Sprintf(
				"%s was refused: %s reads its program from a descriptor opened on content fetched by %s, so code nobody has read runs with your privileges. Download it to a file first, show it to the user for review, and run it only if they approve.",
				quote(c.String()), name, fetcher(src)))
		}
		switch c.Stdin.Kind {
		case shell.StdinPipe:
			o := a.upstream(c.Stdin.From)
			pipe := a.pipeline(c)
			switch {
			case o.net != nil:
				a.add(RulePipeToShell, categoryRemote, toolwall.Deny, fmt.Sprintf(
					"%s was refused: it pipes content downloaded by %s straight into %s, so code nobody has read runs with your privileges. Download it to a file first (e.g. curl -fsSLo install.sh URL), show it to the user for review, and run it only if they approve.",
					quote(pipe), fetcher(o.net), name))
			case o.dec != nil:
				a.decoded(pipe, name)
			case o.dynamic:
				a.add(RulePipeToShell, categoryRemote, toolwall.Ask, fmt.Sprintf(
					"%s needs approval: %s runs whatever a command chosen at run time prints, which cannot be read before it runs. Run the producing command on its own first and show its output.",
					quote(pipe), name))
			}
			for _, f := range o.files {
				a.exec(i, f)
			}
			if p.lang != langShell && o.text != "" {
				a.code(c, p.lang, o.text)
			}
		case shell.StdinHeredoc:
			if c.Stdin.Dynamic {
				a.substituted(i, c, name)
			}
			if p.lang != langShell {
				a.code(c, p.lang, c.Stdin.Text)
			}
		case shell.StdinFile:
			if a.procSubstRedirect(i, c, name) {
				break
			}
			if c.Stdin.Path != "" && !c.Stdin.Dynamic {
				a.exec(i, c.Stdin.Path)
			}
		}
	}
	if p.file != nil && !p.stdin {
		switch {
		case p.file.Dynamic && strings.HasPrefix(p.file.Raw, "<("):
			a.procSubst(i, c, name)
		case !p.file.Dynamic:
			f := paths.Abs(p.file.Value, a.cwd(c))
			a.exec(i, f)
			if t, ok := a.texts[f]; ok && p.lang != langShell {
				// cat > /tmp/x.py <<EOF … EOF; python3 /tmp/x.py
				a.code(c, p.lang, t)
			}
		}
	}
	if c.Via == "xargs" && c.Parent != nil && c.Parent.Stdin.Kind == shell.StdinPipe && p.codeDynamic() {
		// curl … | xargs sh -c: the input lines become shell code.
		if o := a.upstream(c.Parent.Stdin.From); o.net != nil {
			a.add(RulePipeToShell, categoryRemote, toolwall.Deny, fmt.Sprintf(
				"%s was refused: xargs turns content downloaded by %s into code for %s, which runs unread. Download it to a file first, show it to the user for review, and run it only if they approve.",
				quote(a.pipeline(c.Parent)+" ..."), fetcher(o.net), name))
		}
	}
	if len(p.code) > 0 {
		if p.codeDynamic() && c.Stdin.Kind == shell.StdinPipe {
			// curl … | bash -c "$(cat)", curl … | while read l; do eval "$l"; done:
			// code made at run time while stdin is network content.
			if o := a.upstream(c.Stdin.From); o.net != nil {
				a.add(RulePipeToShell, categoryRemote, toolwall.Deny, fmt.Sprintf(
					"%s was refused: %s runs code assembled at run time while its input is content downloaded by %s, so downloaded text can become the code. Download it to a file first, show it to the user for review, and run it only if they approve.",
					quote(a.pipeline(c)), name, fetcher(o.net)))
			}
		}
		if p.codeDynamic() && c.Via != "xargs" {
			a.substituted(i, c, name)
		}
		if p.encoded {
			a.decoded(c.String(), name)
		}
		if p.lang != langShell {
			a.code(c, p.lang, p.codeText())
		}
	}
}

// code applies the one-liner text rules to program text of language l.
func (a *analyzer) code(c *shell.Command, l lang, text string) {
	switch {
	case a.codeShell(c, l, text):
		a.codeShellFinding(c.String(), l)
	case fetchAndEval(l, text):
		a.add(RuleInterpExec, categoryRemote, toolwall.Deny, fmt.Sprintf(
			"%s was refused: the %s code downloads code from the network and executes it, unread. Download the code to a file, show it to the user for review, and run it only if they approve.",
			quote(c.String()), langNames[l]))
	case decodeAndEval(l, text):
		a.decoded(c.String(), c.Name)
	}
	if forkBomb(l, text) {
		a.add(RuleForkBomb, categoryDestroy, toolwall.Deny, fmt.Sprintf(
			"%s was refused: its %s code is a fork bomb: it forks in an endless loop, so processes multiply until the machine stops responding. Run a bounded number of workers instead.",
			quote(c.String()), langNames[l]))
	}
	if d, ok := recursiveDelete(l, text, a.in.Call.Home); ok {
		a.recursiveDelete(c, l, d)
	}
}

// codeShellFinding reports program text of language l that is a
// remote shell; what is the command shown back.
func (a *analyzer) codeShellFinding(what string, l lang) {
	a.r.Tag(toolwall.TagEgress, "", "remote shell")
	a.add(RuleReverseShell, categoryRemote, toolwall.Deny, fmt.Sprintf(
		"%s was refused: its %s code opens a network connection and hands it to a program it starts (or runs what arrives on it), a remote shell on this machine for whoever is at the other end. If you need to reach another machine, use ssh with the user's keys, or ask the user.",
		quote(what), langNames[l]))
}

// recursiveDelete judges a tree deleted by one-liner code the way `rm -rf
// TARGET` is judged (spec c428: shutil.rmtree('build') is rm -rf build):
// a literal target the destroy rules refuse is refused, one they ask
// about asks, one they pass passes; the root or the home directory
// however the language spells it is refused; a target that is not a
// literal asks.
func (a *analyzer) recursiveDelete(c *shell.Command, l lang, d deletion) {
	if d.catastrophic != "" {
		target := "/"
		if d.catastrophic == "home" {
			target = "the home directory"
		}
		a.add(RuleRecursiveDel, categoryDestroy, toolwall.Deny, fmt.Sprintf(
			"%s was refused: its %s code recursively deletes %s (%s), which cannot be undone. Delete only the specific project paths you need, with rm on an explicit path so it can be checked.",
			quote(c.String()), langNames[l], target, d.call))
		return
	}
	act, rule, target := toolwall.Allow, "", ""
	for _, t := range d.targets {
		if t2, ok := expandHome(t, a.in.Call.Home); ok {
			t = t2
		}
		if x, r := a.judgeDelete(c, t); toolwall.Stricter(act, x) != act {
			act, rule, target = x, r, t
		}
	}
	switch {
	case act == toolwall.Deny:
		a.add(RuleRecursiveDel, categoryDestroy, toolwall.Deny, fmt.Sprintf(
			"%s was refused: its %s code recursively deletes %s (%s), which is what `rm -rf %s` does and rule %s refuses: it cannot be undone. Delete only the specific project paths you need, with rm on an explicit path so it can be checked.",
			quote(c.String()), langNames[l], target, d.call, target, rule))
	case act == toolwall.Ask:
		a.add(RuleRecursiveDel, categoryDestroy, toolwall.Ask, fmt.Sprintf(
			"%s needs approval: its %s code recursively deletes %s (%s), which is what `rm -rf %s` does and rule %s asks about. Delete it with rm on the explicit path so it can be checked, or confirm with the user.",
			quote(c.String()), langNames[l], target, d.call, target, rule))
	case d.unknown || len(d.targets) == 0:
		a.add(RuleRecursiveDel, categoryDestroy, toolwall.Ask, fmt.Sprintf(
			"%s needs approval: its %s code deletes a directory tree (%s) whose path is not written out, which cannot be undone and which shell rules cannot check inside code. Prefer rm -r on an explicit path so the target is visible, or confirm the target with the user.",
			quote(c.String()), langNames[l], d.call))
	}
}

// expandHome spells "~" and "~/…" with the caller's home.
func expandHome(t, home string) (string, bool) {
	if rest, ok := strings.CutPrefix(t, "~"); ok && home != "" && (rest == "" || rest[0] == '/') {
		return home + rest, true
	}
	return t, false
}

func (a *analyzer) decoded(what, name string) {
	a.add(RuleDecoded, categoryRemote, toolwall.Deny, fmt.Sprintf(
		"%s was refused: it decodes an encoded blob and runs it in %s, which hides what will execute. Decode it to the terminal first, show the decoded commands, and run them directly if they are what is wanted.",
		quote(what), name))
}

// origin is what feeds an interpreter's standard input.
type origin struct {
	net     *shell.Command // the first network client upstream
	dec     *shell.Command // the first decoder upstream
	dynamic bool           // a stage whose command name is only known at run time
	files   []string       // files a "cat f" head reads (absolute)
	text    string         // static text an echo/printf head prints
}

// upstream walks a pipeline upstream from from, through pass-through
// stages, until a stage that does not forward its input (a digest such as
// sha256sum, or a producer such as echo) or the head of the pipeline.
func (a *analyzer) upstream(from *shell.Command) origin {
	var o origin
	var transform, head *shell.Command
	for c, n := from, 0; c != nil && n < maxUpstreamStages; c, n = c.Stdin.From, n+1 {
		if o.net == nil && a.netSource(c) {
			o.net = c
		}
		if o.dec == nil && isDecoder(c) {
			o.dec = c
		}
		if c.Name == "" && len(c.Args) > 0 && c.Args[0].Dynamic {
			o.dynamic = true
		}
		no := a.nestOrigin(a.index[c])
		if o.net == nil {
			o.net = no.net
		}
		if o.dec == nil {
			o.dec = no.dec
		}
		if c.Name == "cat" || decompresses(c) {
			for _, w := range c.Args[1:] {
				if !w.Dynamic && !strings.HasPrefix(w.Value, "-") {
					o.files = append(o.files, paths.Abs(w.Value, a.cwd(c)))
				}
			}
		}
		if (c.Name == "echo" || c.Name == "printf") && c.Stdin.Kind != shell.StdinPipe {
			var parts []string
			for _, w := range c.Args[1:] {
				parts = append(parts, w.Value)
			}
			o.text = strings.Join(parts, " ")
		}
		if c.Stdin.Kind == shell.StdinFile && strings.HasPrefix(redirectRaw(c, "<"), "<(") {
			no := a.nestOrigin(a.index[c])
			if o.net == nil {
				o.net = no.net
			}
		}
		if isTransform(c) && transform == nil {
			transform = c
		}
		head = c
		if blocksFlow(c) || c.Stdin.Kind != shell.StdinPipe {
			break
		}
	}
	// echo 'ez -es ~' | tr a-z n-za-m | sh: static text, rewritten on
	// its way into the interpreter, is a decoded payload too.
	if o.dec == nil && transform != nil && (transform != head && staticText(head) ||
		transform == head && head.Stdin.Kind == shell.StdinHeredoc && !head.Stdin.Dynamic) {
		o.dec = transform
	}
	return o
}

// staticText reports whether c is echo or printf of literal text only.
func staticText(c *shell.Command) bool {
	if c == nil || (c.Name != "echo" && c.Name != "printf") {
		return false
	}
	for _, w := range c.Args[1:] {
		if w.Dynamic {
			return false
		}
	}
	return true
}

// nest returns the commands nested in cmds[i]: the $() and <() bodies
// and a called function's body emitted right after it, and what runs
// inside them.
func (a *analyzer) nest(i int) []*shell.Command {
	in := map[*shell.Command]bool{}
	j := i + 1
	for ; j < len(a.cmds); j++ {
		c := a.cmds[j]
		fn := a.cmds[i].Name != "" && c.Via == "function "+a.cmds[i].Name
		if fn || c.Via == "$()" || c.Via == "<()" || (c.Parent != nil && in[c.Parent]) || (c.Stdin.From != nil && in[c.Stdin.From]) {
			in[c] = true
			continue
		}
		break
	}
	return a.cmds[i+1 : j]
}

// nestOrigin looks for network clients and decoders among the commands
// nested in cmds[i].
func (a *analyzer) nestOrigin(i int) origin {
	var o origin
	for _, c := range a.nest(i) {
		if o.net == nil && a.netSource(c) {
			o.net = c
		}
		if o.dec == nil && isDecoder(c) {
			o.dec = c
		}
	}
	return o
}

// substituted judges an interpreter whose code is only known at run time.
func (a *analyzer) substituted(i int, c *shell.Command, name string) {
	var o origin
	if c.Stdin.Kind == shell.StdinHeredoc || hasSubstitution(c.Args) {
		o = a.nestOrigin(i)
	}
	switch {
	case o.net != nil:
		a.add(RuleSubstituted, categoryRemote, toolwall.Deny, fmt.Sprintf(
			"%s was refused: the code %s runs is the output of %s, i.e. network content run unread. Download it to a file first, show it to the user for review, and run it only if they approve.",
			quote(c.String()), name, fetcher(o.net)))
		return
	case o.dec != nil:
		a.decoded(c.String(), name)
		return
	}
	// The code comes from a variable: was network content captured earlier?
	for _, prev := range a.cmds[:i] {
		if prev.Via == "$()" && isNetSource(prev) {
			a.add(RuleSubstituted, categoryRemote, toolwall.Ask, fmt.Sprintf(
				"%s needs approval: %s runs code held in a variable, and this command line captures network output from %s earlier. If the variable holds downloaded code, save it to a file and review it first.",
				quote(c.String()), name, fetcher(prev)))
			return
		}
	}
}

// substitutedProgram judges a command whose program word is the output
// of a substitution ($(curl …) run as a command, `base64 -d <<< …`):
// the words it prints run as a command line, so network content there
// is run unread, as curl … | sh runs it.
func (a *analyzer) substitutedProgram(i int, c *shell.Command) {
	if len(c.Args) == 0 || !c.Args[0].Dynamic {
		return
	}
	raw := c.Args[0].Raw
	subs := a.nest(i)
	if !hasSubstitution(c.Args[:1]) {
		// x=$(curl …); $x: the value assigned earlier in this call
		raw = a.assigned(i, raw)
		if raw == "" {
			return
		}
		subs = a.cmds[:i]
	}
	for _, n := range subs {
		if n.Via != "$()" || n.Text == "" || !strings.Contains(raw, n.Text) {
			continue
		}
		switch {
		case a.netSource(n):
			a.add(RuleSubstituted, categoryRemote, toolwall.Deny, fmt.Sprintf(
				"%s was refused: the command it runs is the output of %s, i.e. network content run unread. Download it to a file first, show it to the user for review, and run it only if they approve.",
				quote(raw), quote(n.String())))
			return
		case isDecoder(n):
			a.decoded(raw, "the shell")
			return
		}
	}
}

// assigned returns the raw value last assigned, before cmds[i], to the
// variable a word of the form $NAME, ${NAME} or "$NAME" expands, when it
// holds a substitution; "" otherwise.
func (a *analyzer) assigned(i int, word string) string {
	name := strings.Trim(word, `"`)
	name, ok := strings.CutPrefix(name, "$")
	if !ok {
		return ""
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "{"), "}")
	if name == "" || strings.ContainsAny(name, "$(){}[]:-+=#%/ ") {
		return ""
	}
	for j := i - 1; j >= 0; j-- {
		for _, as := range a.cmds[j].Assigns {
			if v, ok := strings.CutPrefix(as, name+"="); ok {
				if strings.Contains(v, "$(") || strings.Contains(v, "`") {
					return v
				}
				return ""
			}
		}
	}
	return ""
}

// procSubst judges "bash <(…)" and "source <(…)".
func (a *analyzer) procSubst(i int, c *shell.Command, name string) {
	o := a.nestOrigin(i)
	switch {
	case o.net != nil:
		a.add(RuleProcessSubst, categoryRemote, toolwall.Deny, fmt.Sprintf(
			"%s was refused: %s runs a script fetched by %s through process substitution, unread. Download it to a file first, show it to the user for review, and run it only if they approve.",
			quote(c.String()), name, fetcher(o.net)))
	case o.dec != nil:
		a.decoded(c.String(), name)
	}
}

// procSubstRedirect judges "bash < <(curl …)".
func (a *analyzer) procSubstRedirect(i int, c *shell.Command, name string) bool {
	if !strings.HasPrefix(redirectRaw(c, "<"), "<(") {
		return false
	}
	a.procSubst(i, c, name)
	return true
}

// redirectRaw returns the raw target of c's last redirect with operator op.
func redirectRaw(c *shell.Command, op string) string {
	raw := ""
	for _, r := range c.Redirects {
		if r.Op == op && (r.Fd == "" || r.Fd == "0") {
			raw = r.Target.Raw
		}
	}
	return raw
}

// pipeline renders the pipeline ending in c as "a | b | c".
func (a *analyzer) pipeline(c *shell.Command) string {
	var parts []string
	for s, n := c, 0; s != nil && n < maxUpstreamStages; s, n = s.Stdin.From, n+1 {
		parts = append([]string{s.String()}, parts...)
		if s.Stdin.Kind != shell.StdinPipe {
			break
		}
	}
	return strings.Join(parts, " | ")
}

// client tags what a network client downloads (a file, or stdout),
// sends (egress, with the file sent) and checks its URLs for metadata
// endpoints.
func (a *analyzer) client(c *shell.Command) {
	i := a.index[c]
	for _, d := range downloads(c, a.cwd(c), a.in.Call.Home) {
		if d.stdout {
			a.r.Tag(toolwall.TagDownloadStdout, "", c.Name)
			continue
		}
		a.r.Tag(toolwall.TagDownloadFile, d.path, c.Name)
		a.dls = append(a.dls, pathAt{d.path, i})
	}
	if posts(c) {
		a.r.Tag(toolwall.TagEgress, "", c.Name+" upload")
	}
	for _, e := range c.Effects {
		if e.Kind == shell.Sends && !e.Data && e.Path != "" {
			a.r.Tag(toolwall.TagEgress, e.Path, c.Name+" upload")
		}
	}
	if hasSubstitution(c.Args[1:]) {
		a.r.Tag(toolwall.TagEgress, "", c.Name+" argument holds a command substitution")
	}
}

// urls judges the URLs c connects to: the words its catalog entry gives
// the url role (curl's operands and --url, wget's, HTTPie's, git
// clone's, aws --endpoint-url), curl's proxies and --resolve and
// --connect-to pins, and for a client run by xargs the static text
// piped into xargs (echo URL | xargs curl).
func (a *analyzer) urls(c *shell.Command) {
	v := c.Inv
	if v == nil || v.Program() == nil {
		return
	}
	for _, u := range append(v.ValuesOf(programs.URL), v.OperandsOf(programs.URL)...) {
		a.judgeURL(u.Value)
	}
	if !fetchClient(rootName(c)) {
		return
	}
	for _, u := range v.Values("proxy") {
		a.judgeURL(u.Value)
	}
	for _, p := range pins(c) {
		a.judgeURL(p)
	}
	if c.Via == "xargs" && c.Parent != nil && c.Parent.Stdin.Kind == shell.StdinPipe {
		for _, u := range strings.Fields(a.upstream(c.Parent.Stdin.From).text) {
			a.judgeURL(u)
		}
	}
}

// codeURLs judges the URLs written in a one-liner that fetches or
// connects
// (python -c "urllib.request.urlopen('http://…')", node -e
// "fetch('http://…')", ruby -e, php -r, perl -e) as a command's URLs.
func (a *analyzer) codeURLs(p program) {
	if p.lang == langShell {
		return
	}
	code := p.codeText()
	if _, connects := readShellCode(p.lang, code); !fetches(p.lang, code) && !connects {
		return
	}
	for _, u := range urlLiteral.get().FindAllString(code, 16) {
		a.judgeURL(u)
	}
	// a host given apart from a URL: socket.create_connection(("169.254.169.254", 80)),
	// http.get({host: "169.254.169.254"}), HTTPConnection("169.254.169.254")
	for _, m := range hostLiteral.get().FindAllStringSubmatch(code, 16) {
		a.judgeURL("http://" + m[1] + "/")
	}
}

// urlLiteral finds URLs written in code.
var urlLiteral = lazyRegexp(`(?i)\b(?:https?|ftp|gopher|dict)://[^\s'"\x60<>(){}\\,;]+`)

// hostLiteral finds a quoted dotted-quad address or metadata name in
// code; other quoted words are too often not hosts ('0', 'v1').
var hostLiteral = lazyRegexp(`['"\x60]((?:\d{1,3}\.){3}\d{1,3}|metadata\.google\.internal|metadata)['"\x60]`)

// judgeURL reports a URL a command connects to as package ssrf judges
// it for commands, once per rule.
func (a *analyzer) judgeURL(u string) {
	if f, ok := commandURL(u); ok && !a.seen[f.Rule] {
		a.seen[f.Rule] = true
		a.r.Add(f)
	}
}

// pins returns, as URLs, the addresses curl is told to connect to in
// place of a URL's host: --resolve HOST:PORT:ADDR[,ADDR…] and
// --connect-to HOST:PORT:HOST2:PORT2. A pin to 169.254.169.254 sends
// an innocent-looking URL to the metadata endpoint.
func pins(c *shell.Command) []string {
	var out []string
	for _, o := range c.Inv.Opts {
		if !o.HasValue || o.Value.Dynamic {
			continue
		}
		v := o.Value.Value
		switch o.Spelling {
		case "--resolve":
			// [+]HOST:PORT:ADDR[,ADDR]…, an IPv6 address in brackets
			parts := strings.SplitN(strings.TrimPrefix(v, "+"), ":", 3)
			if len(parts) == 3 {
				for _, addr := range strings.Split(parts[2], ",") {
					out = append(out, "http://"+addr+"/")
				}
			}
		case "--connect-to":
			// HOST1:PORT1:HOST2:PORT2; HOST2 may be a bracketed IPv6
			parts := strings.SplitN(v, ":", 3)
			if len(parts) == 3 {
				rest := parts[2]
				host := rest
				if strings.HasPrefix(rest, "[") {
					if j := strings.IndexByte(rest, ']'); j > 0 {
						host = rest[:j+1]
					}
				} else if j := strings.LastIndexByte(rest, ':'); j >= 0 {
					host = rest[:j]
				}
				if host != "" {
					out = append(out, "http://"+host+"/")
				}
			}
		}
	}
	return out
}

// copyOut tags scp/sftp/rsync to a remote destination as egress of each
// local source (the Sends effects of the transfer).
func (a *analyzer) copyOut(c *shell.Command) {
	for _, e := range c.Effects {
		if e.Kind == shell.Sends && e.Path != "" {
			a.r.Tag(toolwall.TagEgress, e.Path, c.Name)
		}
	}
}

// downloadExec denies a file downloaded and executed in the same call.
func (a *analyzer) downloadExec() {
	for _, e := range a.execs {
		for _, d := range a.dls {
			if d.path == e.path && d.i < e.i {
				a.add(RuleDownloadExec, categoryRemote, toolwall.Deny, fmt.Sprintf(
					"%s was refused: it downloads %s and executes it in the same call, so the file is never reviewed. Download it in one step, show it to the user, and run it in a separate step only if they approve.",
					quote(a.in.Script.Source), d.path))
				return
			}
		}
	}
}

// hasSubstitution reports whether a dynamic word holds a command
// substitution ($(…) or backquotes).
func hasSubstitution(ws []shell.Word) bool {
	for _, w := range ws {
		if w.Dynamic && (strings.Contains(w.Raw, "$(") || strings.Contains(w.Raw, "`")) {
			return true
		}
	}
	return false
}

// stdinPath is the file a command reads on stdin, or "".
func stdinPath(c *shell.Command) string {
	if c.Stdin.Kind == shell.StdinFile && !c.Stdin.Dynamic {
		return c.Stdin.Path
	}
	return ""
}

// parallelRunsStdin reports whether GNU parallel runs its stdin lines as
// commands: no command template, no ::: or :::: input source, no -a
// argument file.
func parallelRunsStdin(c *shell.Command) bool {
	v := c.Inv
	return len(v.OperandsOf(programs.Argv)) == 0 && !v.Has(":::", "::::", ":::+", "::::+", "arg-file", "a")
}

// quote quotes a command for a reason, shortened to 160 bytes.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return fmt.Sprintf("%q", s)
}
