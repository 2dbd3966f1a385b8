package ops

import (
	"slices"
	"strings"

	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// gitRepo is what one git invocation acts on: its repository and the
// configuration set for this run.
type gitRepo struct {
	repo   string            // absolute directory it acts on ("" on another host)
	config map[string]string // -c and GIT_CONFIG_KEY_n settings, keys lower-cased
}

// gitFamily runs the rules of git, git-filter-repo and gh; it reports
// whether x was one of them.
func (k *checker) gitFamily(x cmdCtx) bool {
	switch x.name {
	case "git":
		k.git(x)
	case "git-filter-repo":
		k.filterRepo(x, &gitRepo{repo: k.cwd(x)})
	case "gh":
		k.gh(x)
	default:
		return false
	}
	return true
}

// dynamicProgram judges a command whose program word is only known at run
// time ("$g reset --hard" with g=git): when its first argument is a git
// subcommand that can destroy work, it is judged as git would run it.
func (k *checker) dynamicProgram(x cmdCtx) {
	if len(x.args) < 2 {
		return
	}
	git := programs.Lookup("git")
	y := x
	y.inv, y.name = reparse(git, x.args), "git"
	if sub := strings.ToLower(y.sub(0)); sub == "" || sub == "config" || !gitJudged(sub) {
		return
	}
	k.git(y)
}

// gitJudged reports whether ops has a rule for the git subcommand sub.
func gitJudged(sub string) bool {
	switch sub {
	case "reset", "clean", "checkout", "restore", "switch", "stash", "branch", "push", "reflog", "gc",
		"prune", "filter-branch", "filter-repo", "update-ref", "worktree", "rm", "read-tree",
		"checkout-index", "config":
		return true
	}
	return false
}

// git judges one git invocation.
func (k *checker) git(x cmdCtx) {
	g := k.gitContext(x)
	if len(x.inv.Operands) == 0 && len(x.inv.SubNames) == 0 {
		return
	}
	if why := g.inlineExec(x); why != "" {
		k.ask(x, "git.config-exec", catGit, why,
			"Run the command directly so it can be checked, without handing it to git as a setting")
	}
	k.gitSub(x, g, 0)
}

// gitSub judges the subcommand of a git invocation in repository g as
// written and, when git would refuse words of it that nearly spell a
// subcommand or option (git RESET --HARD), as what they spell; depth
// counts alias expansions.
func (k *checker) gitSub(x cmdCtx, g *gitRepo, depth int) {
	found := k.found
	k.found = false
	k.gitRules(x, g, depth)
	if !k.found {
		k.gitNear(x, g, depth)
	}
	k.found = k.found || found
}

// maxNearReadings bounds how many readings of near words one git
// command line is judged in (each near word times what it may spell).
const maxNearReadings = 8

// gitNear judges the readings of a git command line whose words git
// refuses as written but which nearly spell a subcommand or long option
// it has ([programs.Near]): "RESET" (git looks commands up
// case-sensitively), "--HARD" (parse-options compares case-sensitively),
// "--force-with-lease-if-includes" (no option: it goes on after --force
// and after --force-with-lease), "--forc" (the start of several: git
// refuses it as ambiguous). git runs none of them, but an agent that
// writes one means the destructive command it spells and will write that
// next, so each rule judges every reading (the word replaced by one of
// what it spells, its "=VALUE" kept) and its reason says what was read.
// A rule that fires asks, as on the command spelled right.
func (k *checker) gitNear(x cmdCtx, g *gitRepo, depth int) {
	if x.near != "" || x.inv == nil || len(x.inv.Near) == 0 || x.inv.Program() == nil {
		return
	}
	near := x.inv.Near
	n := 1
	for _, w := range near {
		n *= len(w.As)
		if n >= maxNearReadings {
			n = maxNearReadings
			break
		}
	}
	root := x.inv.Program().Root()
	for r := 0; r < n; r++ {
		argv := slices.Clone(x.inv.Args)
		var read []string
		for i, left := 0, r; i < len(near); i++ {
			w := near[i]
			as := w.As[left%len(w.As)]
			left /= len(w.As)
			old := argv[w.Word].Value
			if _, val, ok := strings.Cut(old, "="); ok && strings.HasPrefix(old, "--") {
				as += "=" + val
			}
			argv[w.Word] = shell.Word{Raw: as, Value: as, Prefix: as}
			read = append(read, as)
		}
		y := x
		y.inv = reparse(root, argv)
		y.near = "read as `" + strings.Join(read, " ") + "`"
		k.gitRules(y, g, depth)
	}
}

// gitRules runs the rule of the subcommand x names as written.
func (k *checker) gitRules(x cmdCtx, g *gitRepo, depth int) {
	sub := x.sub(0)
	if sub == "" {
		k.gitAlias(x, g, depth)
		return
	}
	switch sub {
	case "reset":
		k.gitReset(x, g)
	case "clean":
		k.gitClean(x, g)
	case "checkout":
		k.gitCheckout(x, g)
	case "restore":
		k.gitRestore(x, g)
	case "switch":
		k.gitSwitch(x, g)
	case "stash":
		k.gitStash(x, g)
	case "branch":
		k.gitBranch(x, g)
	case "push":
		k.gitPush(x, g)
	case "reflog":
		k.gitReflog(x, g)
	case "gc":
		k.gitGC(x, g)
	case "prune":
		k.gitPrune(x, g)
	case "filter-branch":
		k.historyRewrite(x, g)
	case "filter-repo":
		k.filterRepo(x, g)
	case "update-ref":
		k.gitUpdateRef(x, g)
	case "worktree":
		k.gitWorktree(x, g)
	case "rm":
		k.gitRm(x, g)
	case "read-tree":
		k.gitReadTree(x, g)
	case "checkout-index":
		k.gitCheckoutIndex(x, g)
	case "config":
		k.gitConfig(x, g)
	}
	switch sub {
	case "reset", "clean", "stash", "branch":
		// one unknown word can turn these destructive (--hard, -f, drop, -D)
		if !k.found && unknownWord(x.operands()) {
			k.warn(x, "git.dynamic-argument", catGit,
				"an argument of git "+sub+" is only known at run time and may be a destructive option",
				"Write the options out literally")
		}
	}
}

// topOpts returns the options written before the first subcommand (git's
// own: -C, -c, --git-dir), or every option when none was named.
func topOpts(v *shell.Invocation) []programs.Opt {
	if len(v.Subs) == 0 {
		return v.Opts
	}
	var out []programs.Opt
	for _, o := range v.Opts {
		if o.Word < v.Subs[0] {
			out = append(out, o)
		}
	}
	return out
}

// gitContext reads the repository (-C, --git-dir) and the configuration
// of this run (-c, clone -c, GIT_CONFIG_KEY_n) of a git invocation.
func (k *checker) gitContext(x cmdCtx) *gitRepo {
	g := &gitRepo{repo: k.cwd(x), config: map[string]string{}}
	home := k.in.Call.Home
	for _, o := range topOpts(x.inv) {
		val := x.inv.Value(o)
		switch o.Name {
		case "C":
			if val.Value != "" && g.repo != "" {
				g.repo = paths.Abs(paths.Expand(val.Value, home), g.repo)
			}
		case "git-dir":
			if g.repo != "" {
				g.repo = paths.Abs(paths.Expand(val.Value, home), g.repo)
			}
		}
	}
	for _, o := range x.inv.Opts {
		if o.Role == programs.Config && o.HasValue {
			key, val, _ := strings.Cut(x.inv.Value(o).Value, "=")
			g.config[strings.ToLower(key)] = val
		}
	}
	if x.cmd != nil {
		g.envConfig(x.cmd.Assigns)
	}
	return g
}

// envConfig reads GIT_CONFIG_COUNT-style settings from the command's
// assignments (git-config(1), ENVIRONMENT).
func (g *gitRepo) envConfig(assigns []string) {
	env := map[string]string{}
	for _, a := range assigns {
		if n, v, ok := strings.Cut(a, "="); ok {
			env[n] = v
		}
	}
	for n, key := range env {
		if idx, ok := strings.CutPrefix(n, "GIT_CONFIG_KEY_"); ok {
			g.config[strings.ToLower(key)] = env["GIT_CONFIG_VALUE_"+idx]
		}
	}
}

// gitExecEnv reports environment variables whose value git runs as a
// command.
func gitExecEnv(name string) bool {
	switch name {
	case "GIT_PAGER", "GIT_EDITOR", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXTERNAL_DIFF", "GIT_SEQUENCE_EDITOR",
		"GIT_ASKPASS", "PAGER", "EDITOR", "VISUAL":
		return true
	}
	return false
}

// gitExecKey reports configuration keys whose value git runs as a command
// (git-config(1)). Keys whose value is usually a plain program name
// (core.pager = delta) are only asked about when the value holds shell
// syntax.
func gitExecKey(key string) bool {
	switch key {
	case "core.sshcommand", "core.pager", "core.editor", "sequence.editor", "diff.external", "credential.helper",
		"gpg.program", "core.askpass", "pager.log", "pager.diff", "pager.show", "pager.branch", "merge.tool",
		"diff.tool", "core.gitproxy", "uploadpack.packobjectshook":
		return true
	}
	return false
}

// inlineExec says why a git command hands a command to git through its
// own settings for this run (git -c core.pager=…, GIT_SSH_COMMAND=… git):
// git runs it, and only the reader's re-reading of the value shows what
// it is. A plain program name (core.pager=less, EDITOR=vim) passes; shell
// syntax or a "!" alias asks.
func (g *gitRepo) inlineExec(x cmdCtx) string {
	for key, val := range g.config {
		switch {
		case strings.HasPrefix(key, "alias.") && strings.HasPrefix(strings.TrimSpace(val), "!"):
			return "-c " + key + " defines an alias that runs a shell command"
		case credentialKey(key) && !plainHelper(val):
			return "-c " + key + " hands git a program to run for credentials"
		case gitExecKey(key) && !credentialKey(key) && !plainTool(val):
			return "-c " + key + " hands git a shell command to run"
		case key == "core.hookspath" && !insideRepo(g, val):
			return "-c core.hooksPath makes git run hook scripts from outside the repository"
		case key == "core.fsmonitor" && !gitBool(val):
			return "-c core.fsmonitor hands git a command it runs on status"
		case strings.HasPrefix(key, "filter.") || strings.HasPrefix(key, "diff.") && strings.HasSuffix(key, ".textconv"):
			return "-c " + key + " hands git a command it runs on the files"
		}
	}
	if x.cmd == nil {
		return ""
	}
	for _, a := range x.cmd.Assigns {
		n, v, _ := strings.Cut(a, "=")
		if gitExecEnv(n) && !plainTool(v) {
			return n + " hands git a shell command to run"
		}
	}
	return ""
}

// plainToolName reports programs git is commonly told to use as pager,
// editor, ssh or diff tool.
func plainToolName(name string) bool {
	switch name {
	case "less", "more", "most", "cat", "bat", "delta", "diff-so-fancy", "vim", "nvim", "vi", "nano", "emacs",
		"emacsclient", "code", "code-insiders", "cursor", "zed", "subl", "mate", "micro", "hx", "kak", "gedit",
		"kate", "idea", "true", "ssh", "git-credential-manager", "gpg", "gpg2", "difft", "difftastic", "meld",
		"kdiff3", "vimdiff", "nvimdiff", "opendiff", "ssh-keygen":
		return true
	}
	return false
}

// plainTool reports whether a command-valued setting is one plain command
// of a known pager, editor or ssh, as the shell reads it ("less -R",
// "ssh -i ~/.ssh/key", "code --wait"). A value the reader finds more
// commands in (ssh -o ProxyCommand=…, a pipe, a list) is not plain.
func plainTool(v string) bool {
	if strings.TrimSpace(v) == "" {
		return true
	}
	s, err := shell.Read(v, shell.Options{})
	if err != nil || len(s.Commands) != 1 {
		return false
	}
	c := s.Commands[0]
	if c.Via != "" || len(c.Wrappers) != 0 || len(c.Redirects) != 0 || len(c.Args) == 0 || !systemProgram(c.Args[0]) {
		return false
	}
	// a program the catalog does not describe is taken for a pager or
	// editor someone installed; one it describes (sh, python, rm, curl)
	// is not a tool git hands text to
	return plainToolName(c.Name) || programs.Lookup(c.Name) == nil
}

// systemProgram reports whether a command's program word is a name
// looked up in PATH or a path in a directory programs are installed in,
// not a script the agent may have written (/tmp/x.sh, ./tool).
func systemProgram(w shell.Word) bool {
	if w.Dynamic {
		return false
	}
	if !strings.Contains(w.Value, "/") {
		return true
	}
	for _, dir := range []string{"/usr/", "/bin/", "/sbin/", "/opt/", "/Applications/", "/snap/", "/nix/"} {
		if strings.HasPrefix(w.Value, dir) {
			return true
		}
	}
	return false
}

// credentialKey reports a key that names a credential helper
// (credential.helper, credential.URL.helper).
func credentialKey(key string) bool {
	return key == "credential.helper" || strings.HasPrefix(key, "credential.") && strings.HasSuffix(key, ".helper")
}

// plainHelper reports whether a credential helper is one git ships or a
// known tool provides: a bare name is git credential-NAME (store, cache,
// osxkeychain, manager, libsecret); "!CMD" and a path run CMD or the
// file, which passes only for a known tool's own helper (gh auth
// git-credential, a git-credential-* program).
func plainHelper(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return true
	}
	body, bang := strings.CutPrefix(v, "!")
	if !bang && !strings.Contains(strings.Fields(v)[0], "/") {
		return !strings.ContainsAny(v, "|;&`$<>(")
	}
	s, err := shell.Read(body, shell.Options{})
	if err != nil || len(s.Commands) != 1 {
		return false
	}
	c := s.Commands[0]
	if c.Via != "" || len(c.Wrappers) != 0 || len(c.Redirects) != 0 || len(c.Args) == 0 || !systemProgram(c.Args[0]) {
		return false
	}
	switch c.Name {
	case "gh", "glab", "aws", "gcloud", "op", "git-credential-manager", "git-credential-manager-core":
		return true
	}
	return strings.HasPrefix(c.Name, "git-credential-")
}

// gitAlias expands a git alias defined on the command line (-c
// alias.NAME=…, GIT_CONFIG_KEY_n) and judges what it runs; an operand
// only known at run time may be any subcommand.
func (k *checker) gitAlias(x cmdCtx, g *gitRepo, depth int) {
	if len(x.inv.Operands) == 0 {
		return
	}
	op := x.inv.Operands[0]
	w := x.inv.Args[op.Word]
	if w.Dynamic {
		k.warn(x, "git.dynamic-subcommand", catGit,
			"the git subcommand is only known at run time, so it may be a destructive one (reset --hard, clean -f, push --force)",
			"Write the subcommand out literally")
		return
	}
	body, ok := g.config["alias."+strings.ToLower(w.Value)]
	if !ok || depth >= maxAliasDepth {
		return
	}
	if strings.HasPrefix(strings.TrimSpace(body), "!") {
		k.ask(x, "git.shell-alias", catGit,
			"it defines a git alias on the command line that runs a shell command, which cannot be checked before it runs",
			"Run the shell command directly so it can be checked")
		return
	}
	fields := strings.Fields(body)
	if len(fields) == 0 {
		return
	}
	argv := append(append([]shell.Word{x.inv.Args[0]}, words(fields)...), x.inv.Args[op.Word+1:]...)
	y := x
	y.inv = reparse(x.inv.Program().Root(), argv)
	k.gitSub(y, g, depth+1)
}

// unknownWord reports a word that is wholly dynamic (no static text at
// all), so it may be any option.
func unknownWord(ws []shell.Word) bool {
	for _, w := range ws {
		if w.Dynamic && w.Value == "" {
			return true
		}
	}
	return false
}

// gitReset: reset --hard discards the index and working tree; --merge
// discards staged changes that the working tree does not change further
// (git-reset(1), DISCUSSION: "working B, index B, HEAD C" ends as C C C).
// --keep aborts rather than lose local changes, so it passes.
func (k *checker) gitReset(x cmdCtx, g *gitRepo) {
	mode := ""
	for _, o := range x.inv.Opts {
		switch o.Name {
		case "mixed", "soft", "hard", "merge", "keep":
			mode = o.Name
			if o.Negated {
				mode = ""
			}
		}
	}
	switch mode {
	case "hard":
		k.ask(x, "git.reset-hard", catGit,
			"git reset --hard throws away every uncommitted change in the index and working tree, and nothing can bring them back",
			"Run `git stash` first (or commit), or use `git reset --keep` / `--soft`; ask the user before discarding their work")
	case "merge":
		k.ask(x, "git.reset-merge", catGit,
			"git reset --merge throws away staged changes that the working tree does not change further, and nothing can bring them back",
			"Run `git stash` first (or commit), or use `git reset --keep`, which refuses to lose local changes; to abort a merge ask the user first")
	default:
		return
	}
	k.protect(g.repo)
}

// gitClean: clean deletes untracked files, which git never saw and cannot
// restore. It refuses without -f unless clean.requireForce is false.
func (k *checker) gitClean(x cmdCtx, g *gitRepo) {
	if x.has("dry-run") {
		return
	}
	v, set := g.config["clean.requireforce"]
	noForceNeeded := set && gitFalse(v)
	if x.inv.Count("force") == 0 && !x.has("interactive") && !noForceNeeded {
		return
	}
	k.ask(x, "git.clean", catGit,
		"git clean deletes untracked files, which git has no copy of",
		"Preview with `git clean -n` and delete only the paths that are really build output, or ask the user")
	k.protect(g.repo)
}

// gitCheckout: checkout overwrites working-tree files when it is given
// paths (after "--", after a tree-ish, or a path-like single operand) or
// -f. Switching branches without -f keeps local changes and passes.
func (k *checker) gitCheckout(x cmdCtx, g *gitRepo) {
	switch {
	case x.has("force"):
		k.ask(x, "git.checkout-discard", catGit,
			"git checkout --force throws away local changes to every tracked file it touches",
			"Commit or `git stash` the changes first, then switch without --force")
		k.protect(g.repo)
		return
	case x.has("patch"), x.has("b", "B", "orphan"):
		return
	}
	ops := x.operands()
	dd := x.inv.DashDash
	discard := dd >= 0 && len(ops) > dd || x.has("pathspec-from-file")
	if dd < 0 {
		switch {
		case len(ops) >= 2:
			discard = true
		case len(ops) == 1:
			discard = pathLike(ops[0])
		}
	}
	if !discard {
		return
	}
	k.ask(x, "git.checkout-discard", catGit,
		"git checkout with paths overwrites those files in the working tree and their uncommitted changes are lost",
		"Look at `git diff` first and `git stash` what should be kept; ask the user before discarding their changes")
	k.protect(g.repo)
}

// pathLike reports whether a checkout operand is a path rather than a
// branch: ".", "..", "./x", "../x", "/x", ":/x", or a glob.
func pathLike(w shell.Word) bool {
	v := w.Value
	return w.Glob || v == "." || v == ".." || strings.HasPrefix(v, "./") ||
		strings.HasPrefix(v, "../") || strings.HasPrefix(v, "/") ||
		strings.HasPrefix(v, ":") || strings.ContainsAny(v, "*?[")
}

// gitRestore: restore writes the working tree unless only --staged is
// given (git-restore(1): "-W" is the default).
func (k *checker) gitRestore(x cmdCtx, g *gitRepo) {
	worktree := x.has("worktree") || !x.has("staged")
	if !worktree || x.has("patch") {
		return
	}
	if len(x.inv.Operands) == 0 && !x.has("pathspec-from-file") {
		return
	}
	k.ask(x, "git.restore-worktree", catGit,
		"git restore of the working tree overwrites those files and their uncommitted changes are lost",
		"Use `git restore --staged <file>` to only unstage, or `git stash` what should be kept; ask the user before discarding their changes")
	k.protect(g.repo)
}

// gitSwitch: switch --discard-changes (-f) throws local changes away.
func (k *checker) gitSwitch(x cmdCtx, g *gitRepo) {
	if !x.has("discard-changes") {
		return
	}
	k.ask(x, "git.checkout-discard", catGit,
		"git switch --discard-changes throws away local changes to every tracked file",
		"Commit or `git stash` the changes first, then switch without it")
	k.protect(g.repo)
}

// gitStash: drop and clear delete stashed work for good.
func (k *checker) gitStash(x cmdCtx, g *gitRepo) {
	switch x.sub(1) {
	case "drop", "clear":
		k.ask(x, "git.stash-drop", catGit,
			"it deletes stashed work, which is then only reachable by hunting dangling commits",
			"Leave the stash in place (`git stash list` shows it), or ask the user which stash may go")
		k.protect(g.repo)
	}
}

// gitBranch: -D (or -d with --force) deletes a branch even when it is not
// merged anywhere, and its commits go with it.
func (k *checker) gitBranch(x cmdCtx, g *gitRepo) {
	if !x.has("D") && !(x.has("delete") && x.has("force")) {
		return
	}
	k.ask(x, "git.branch-force-delete", catGit,
		"git branch -D deletes the branch even though its commits are not merged anywhere",
		"Use `git branch -d`, which refuses for unmerged branches, or ask the user")
	k.protect(g.repo)
}

// gitPush: --force (which overrides --force-with-lease), a "+" refspec and
// --mirror overwrite remote history; --delete, ":ref" and --prune delete
// remote branches (git-push(1)). remote.*.push and remote.*.mirror set
// for this run count too.
func (k *checker) gitPush(x cmdCtx, g *gitRepo) {
	if x.has("dry-run") {
		return
	}
	force := x.has("force")
	del := x.has("delete") || x.has("prune")
	ops := x.operands()
	if len(ops) > 1 {
		for _, r := range ops[1:] {
			if strings.HasPrefix(r.Value, "+") {
				force = true
			}
			if strings.HasPrefix(r.Value, ":") && len(r.Value) > 1 {
				del = true
			}
		}
	}
	mirror := x.has("mirror")
	for key, val := range g.config {
		if strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".push") && strings.HasPrefix(val, "+") {
			force = true
		}
		if strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".mirror") && strings.EqualFold(val, "true") {
			mirror = true
		}
	}
	switch {
	case force || mirror:
		k.ask(x, "git.push-force", catGit,
			"a forced push overwrites the remote branch and the commits other people pushed there are lost",
			"Use `git push --force-with-lease` (without --force or a `+` refspec), or ask the user")
	case del:
		k.ask(x, "git.push-delete", catGit,
			"it deletes branches on the remote, which may hold work that exists nowhere else",
			"Ask the user before deleting remote branches")
	default:
		return
	}
	k.protect(g.repo)
}

// gitReflog: expiring the reflog now, or deleting or dropping entries,
// removes the only way back to commits dropped by reset, rebase or
// branch -D. --dry-run only reports.
func (k *checker) gitReflog(x cmdCtx, g *gitRepo) {
	if x.has("dry-run") {
		return
	}
	switch x.sub(1) {
	case "delete", "drop":
	case "expire":
		explicit := false
		for _, w := range x.values("expire", "expire-unreachable") {
			if v := strings.ToLower(w.Value); v != "never" && v != "false" {
				explicit = true
			}
		}
		if !explicit {
			return
		}
	default:
		return
	}
	k.ask(x, "git.reflog-expire", catGit,
		"it erases reflog entries, the only record of commits dropped by reset, rebase or branch -D",
		"Leave the reflog to expire on its own schedule, or ask the user")
	k.protect(g.repo)
}

// gitGC: gc --prune=DATE deletes unreachable objects without the
// two-week grace period (--prune alone keeps it; never keeps all).
func (k *checker) gitGC(x cmdCtx, g *gitRepo) {
	o, ok := x.inv.Last("prune")
	if !ok || !o.HasValue || strings.EqualFold(x.inv.Value(o).Value, "never") {
		return
	}
	k.ask(x, "git.prune-now", catGit,
		"it deletes unreachable objects without git's grace period, so dropped commits and stashes cannot be recovered",
		"Run plain `git gc`, which keeps recent unreachable objects, or ask the user")
	k.protect(g.repo)
}

// gitPrune: git prune removes every unreachable loose object unless
// --expire keeps some; -n only reports.
func (k *checker) gitPrune(x cmdCtx, g *gitRepo) {
	if x.has("dry-run") {
		return
	}
	k.ask(x, "git.prune-now", catGit,
		"git prune deletes unreachable objects, so dropped commits and stashes cannot be recovered",
		"Run plain `git gc`, which keeps recent unreachable objects, or ask the user")
	k.protect(g.repo)
}

// historyRewrite: filter-branch rewrites every commit of the history.
func (k *checker) historyRewrite(x cmdCtx, g *gitRepo) {
	k.ask(x, "git.history-rewrite", catGit,
		"it rewrites the whole history of the repository, which breaks every clone and can drop data",
		"Ask the user first; make a backup clone (`git clone --mirror`) before any history rewrite")
	k.protect(g.repo)
}

// filterRepo: git filter-repo (the sub or the standalone script) rewrites
// the history, except with --analyze, --dry-run, --help or --version.
func (k *checker) filterRepo(x cmdCtx, g *gitRepo) {
	if x.has("analyze", "dry-run", "help", "version") {
		return
	}
	k.historyRewrite(x, g)
}

// gitUpdateRef: update-ref -d deletes a ref outright; with --stdin, a
// "delete" line does the same.
func (k *checker) gitUpdateRef(x cmdCtx, g *gitRepo) {
	del := x.has("delete")
	if !del && x.has("stdin") {
		if text, ok := stdinText(x.cmd); ok {
			for _, line := range strings.Split(text, "\n") {
				if f := strings.Fields(line); len(f) > 0 && f[0] == "delete" {
					del = true
				}
			}
		}
	}
	if !del {
		return
	}
	k.ask(x, "git.update-ref-delete", catGit,
		"git update-ref deletes a ref without any check that its commits are kept elsewhere",
		"Use `git branch -d` or `git tag -d`, or ask the user")
	k.protect(g.repo)
}

// gitWorktree: worktree remove --force deletes a worktree with its
// uncommitted changes.
func (k *checker) gitWorktree(x cmdCtx, g *gitRepo) {
	if x.sub(1) != "remove" || x.inv.Count("force") == 0 {
		return
	}
	k.ask(x, "git.worktree-force-remove", catGit,
		"git worktree remove --force deletes the worktree together with its uncommitted changes",
		"Commit or stash in that worktree first and remove it without --force")
	k.protect(g.repo)
}

// gitFalse reports a false git boolean ("false", "no", "off", "0", "").
func gitFalse(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0", "":
		return true
	}
	return false
}

// gitReadTree: read-tree -u --reset overwrites the index and working tree
// like reset --hard.
func (k *checker) gitReadTree(x cmdCtx, g *gitRepo) {
	if !x.has("u") || !x.has("reset") || x.has("dry-run") {
		return
	}
	k.ask(x, "git.reset-hard", catGit,
		"git read-tree -u --reset overwrites the index and working tree, and uncommitted changes are lost",
		"Run `git stash` first (or commit); ask the user before discarding their work")
	k.protect(g.repo)
}

// gitCheckoutIndex: checkout-index -f overwrites working-tree files from
// the index (unless --prefix or --temp writes them elsewhere).
func (k *checker) gitCheckoutIndex(x cmdCtx, g *gitRepo) {
	if !x.has("force") || x.has("prefix", "temp") {
		return
	}
	k.ask(x, "git.checkout-discard", catGit,
		"git checkout-index --force overwrites working-tree files and their uncommitted changes are lost",
		"Look at `git diff` first and `git stash` what should be kept")
	k.protect(g.repo)
}

// gitRm: rm -f removes files even when they have changes git has not
// recorded; --cached only untracks.
func (k *checker) gitRm(x cmdCtx, g *gitRepo) {
	if !x.has("force") || x.has("cached") || x.has("dry-run") {
		return
	}
	k.ask(x, "git.rm-force", catGit,
		"git rm --force deletes the files together with changes that were never committed",
		"Use `git rm --cached` to only untrack, or commit first")
	k.protect(g.repo)
}

// gitConfig: git config that makes git run a command later — a "!" alias,
// core.fsmonitor (runs on every status), core.hooksPath outside the
// repository, filter drivers, and command-valued keys holding shell
// syntax. Reading (--get, --list, get, list) passes.
func (k *checker) gitConfig(x cmdCtx, g *gitRepo) {
	if x.has("get", "get-all", "get-regexp", "get-urlmatch", "list", "unset", "unset-all", "edit",
		"rename-section", "remove-section") {
		return
	}
	switch x.sub(1) {
	case "", "set":
	default:
		return
	}
	ops := x.operands()
	if len(ops) < 2 {
		return
	}
	key, val := strings.ToLower(ops[0].Value), ops[1]
	why := ""
	switch {
	case strings.HasPrefix(key, "alias.") && strings.HasPrefix(strings.TrimSpace(val.Value), "!"):
		why = "it defines a git alias that runs a shell command, so a later `git " + strings.TrimPrefix(key, "alias.") + "` runs code no check has seen"
	case key == "core.fsmonitor" && !gitBool(val.Value):
		why = "core.fsmonitor is a command git runs on every status and diff"
	case key == "core.hookspath" && !insideRepo(g, val.Value):
		why = "core.hooksPath outside the repository makes git run hook scripts from there on every commit, checkout and push"
	case strings.HasPrefix(key, "filter.") && (strings.HasSuffix(key, ".clean") || strings.HasSuffix(key, ".smudge") || strings.HasSuffix(key, ".process")):
		why = "a filter driver is a command git runs on every checkout and add"
	case credentialKey(key):
		if val.Dynamic || !plainHelper(val.Value) {
			why = key + " is a program git runs for every fetch and push that needs a password, and this one is no known credential helper"
		}
	case gitExecKey(key) && (val.Dynamic || !plainTool(val.Value)):
		why = key + " is a command git runs later, and this value is not a plain pager, editor or diff tool"
	}
	if why == "" {
		return
	}
	k.ask(x, "git.config-exec", catGit, why,
		"Run the command directly so it can be checked, or ask the user to change the git configuration")
}

// gitBool reports a boolean-looking config value (core.fsmonitor = true
// uses git's built-in monitor).
func gitBool(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "1", "0", "":
		return true
	}
	return false
}

// insideRepo reports whether a hooks path stays inside the repository
// (relative, or absolute under it): .husky, .githooks.
func insideRepo(g *gitRepo, v string) bool {
	if v == "" || strings.HasPrefix(v, "~") || strings.Contains(v, "..") {
		return v == ""
	}
	if !strings.HasPrefix(v, "/") {
		return true
	}
	return g.repo != "" && strings.HasPrefix(v, strings.TrimSuffix(g.repo, "/")+"/")
}

// gh: deleting a repository, a release or an issue, or any DELETE through
// gh api, cannot be undone from the command line; making a repository
// public publishes its whole history.
func (k *checker) gh(x cmdCtx) {
	switch noun, verb := x.sub(0), x.sub(1); {
	case noun == "api":
		for _, m := range x.values("method") {
			if strings.EqualFold(m.Value, "DELETE") || m.Dynamic {
				k.ask(x, "git.gh-delete", catGit,
					"it sends a DELETE request to the GitHub API, and deleted GitHub objects cannot be restored",
					"Ask the user before deleting anything on GitHub")
				k.protect("")
				return
			}
		}
	case noun == "repo" && verb == "edit":
		for _, v := range x.values("visibility") {
			if strings.EqualFold(v.Value, "public") || v.Dynamic {
				k.ask(x, "git.gh-visibility", catGit,
					"making a repository public publishes its whole history to everyone, and copies cannot be recalled",
					"Ask the user to change the visibility themselves")
				return
			}
		}
	case verb == "delete" && (noun == "repo" || noun == "release" || noun == "issue"):
		k.ask(x, "git.gh-delete", catGit,
			"gh "+noun+" delete removes it from GitHub for good",
			"Ask the user before deleting anything on GitHub")
		k.protect("")
	}
}
