package ops

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// Git's global options, read until the subcommand (git.c handle_options).
var gitGlobal = &optSpec{
	short: shorts("C:c:pPvh"),
	long: kinds("git-dir=", "work-tree=", "namespace=", "config-env=", "exec-path=?",
		"super-prefix=", "list-cmds=", "attr-source=", "paginate", "no-pager", "bare",
		"no-replace-objects", "literal-pathspecs", "glob-pathspecs", "noglob-pathspecs",
		"icase-pathspecs", "no-optional-locks", "no-advice", "no-lazy-fetch", "version",
		"help", "html-path", "man-path", "info-path"),
	posix: true,
}

// git is one git invocation: its repository and the -c configuration.
type git struct {
	repo   string            // absolute directory it acts on
	config map[string]string // -c and GIT_CONFIG_KEY_n settings, keys lower-cased
}

// gitSub is the rule of one git subcommand; args are the words after it.
type gitSub func(k *checker, x cmdCtx, g *git, args []shell.Word)

var gitSubs map[string]gitSub

func init() {
	register((*checker).git, "git")
	register((*checker).gitFilterRepo, "git-filter-repo")
	register((*checker).gh, "gh")
	gitSubs = map[string]gitSub{
		"reset":          (*checker).gitReset,
		"clean":          (*checker).gitClean,
		"checkout":       (*checker).gitCheckout,
		"restore":        (*checker).gitRestore,
		"switch":         (*checker).gitSwitch,
		"stash":          (*checker).gitStash,
		"branch":         (*checker).gitBranch,
		"push":           (*checker).gitPush,
		"reflog":         (*checker).gitReflog,
		"gc":             (*checker).gitGC,
		"prune":          (*checker).gitPrune,
		"filter-branch":  (*checker).gitFilterBranch,
		"filter-repo":    (*checker).gitFilterBranch,
		"update-ref":     (*checker).gitUpdateRef,
		"worktree":       (*checker).gitWorktree,
		"rm":             (*checker).gitRm,
		"read-tree":      (*checker).gitReadTree,
		"checkout-index": (*checker).gitCheckoutIndex,
	}
}

func (k *checker) git(x cmdCtx) {
	p := parseArgs(x.args[1:], gitGlobal)
	g := &git{repo: k.cwd(x), config: map[string]string{}}
	for _, o := range p.opts {
		switch o.name {
		case "-C":
			if o.value != "" {
				g.repo = paths.Abs(paths.Expand(o.value, k.in.Call.Home), g.repo)
			}
		case "--git-dir":
			g.repo = paths.Abs(paths.Expand(o.value, k.in.Call.Home), g.repo)
		case "-c":
			key, val, _ := strings.Cut(o.value, "=")
			g.config[strings.ToLower(key)] = val
		}
	}
	if x.cmd != nil {
		g.envConfig(x.cmd.Assigns)
	}
	if len(p.operands) == 0 {
		return
	}
	if why := g.inlineExec(x.cmd); why != "" {
		k.ask(x, "git.config-exec", catGit, why,
			"Run the command directly so it can be checked, without handing it to git as a setting")
	}
	k.gitRun(x, g, p.operands, 0)
}

// gitExecEnv are environment variables whose value git runs as a command.
var gitExecEnv = map[string]bool{
	"GIT_PAGER": true, "GIT_EDITOR": true, "GIT_SSH_COMMAND": true, "GIT_SSH": true,
	"GIT_EXTERNAL_DIFF": true, "GIT_SEQUENCE_EDITOR": true, "GIT_ASKPASS": true, "PAGER": true,
	"EDITOR": true, "VISUAL": true,
}

// inlineExec says why a git command hands a command to git through its
// own settings for this run (git -c core.pager=…, GIT_SSH_COMMAND=… git):
// git runs it, unseen by the other checks. A plain program name
// (core.pager=less, EDITOR=vim) passes; shell syntax or a "!" alias asks.
func (g *git) inlineExec(c *shell.Command) string {
	for key, val := range g.config {
		switch {
		case strings.HasPrefix(key, "alias.") && strings.HasPrefix(strings.TrimSpace(val), "!"):
			return "-c " + key + " defines an alias that runs a shell command"
		case gitExecKeys[key] && !plainTool(val):
			return "-c " + key + " hands git a shell command to run"
		case key == "core.fsmonitor" && !gitBool(val):
			return "-c core.fsmonitor hands git a command it runs on status"
		case strings.HasPrefix(key, "filter.") || strings.HasPrefix(key, "diff.") && strings.HasSuffix(key, ".textconv"):
			return "-c " + key + " hands git a command it runs on the files"
		}
	}
	if c == nil {
		return ""
	}
	for _, a := range c.Assigns {
		n, v, _ := strings.Cut(a, "=")
		if gitExecEnv[n] && !plainTool(v) {
			return n + " hands git a shell command to run"
		}
	}
	return ""
}

// plainTools are programs git is commonly told to use as pager, editor,
// ssh or diff tool.
var plainTools = map[string]bool{
	"less": true, "more": true, "most": true, "cat": true, "bat": true, "delta": true, "diff-so-fancy": true,
	"vim": true, "nvim": true, "vi": true, "nano": true, "emacs": true, "emacsclient": true, "code": true,
	"subl": true, "mate": true, "micro": true, "hx": true, "kak": true, "true": true, "ssh": true,
	"git-credential-manager": true, "gpg": true, "gpg2": true,
}

// plainTool reports whether a command-valued setting is one plain command
// of a known pager, editor or ssh, as the shell reads it ("less -R",
// "ssh -i ~/.ssh/key", "code --wait").
func plainTool(v string) bool {
	if strings.TrimSpace(v) == "" {
		return true
	}
	s, err := shell.Read(v, shell.Options{})
	if err != nil || len(s.Commands) != 1 {
		return false
	}
	c := s.Commands[0]
	for _, w := range c.Args {
		// ssh -o ProxyCommand=… / LocalCommand=… runs a shell command too.
		if l := strings.ToLower(w.Value); strings.Contains(l, "proxycommand") || strings.Contains(l, "localcommand") {
			return false
		}
	}
	return plainTools[c.Name] && c.Via == "" && len(c.Wrappers) == 0 && len(c.Redirects) == 0
}

// envConfig reads GIT_CONFIG_COUNT-style settings from the command's
// assignments (git-config(1), ENVIRONMENT).
func (g *git) envConfig(assigns []string) {
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

// gitRun checks the subcommand words[0] with its arguments, expanding
// aliases defined on the command line.
func (k *checker) gitRun(x cmdCtx, g *git, ws []shell.Word, aliasDepth int) {
	sub := ws[0].Value
	if ws[0].Dynamic {
		k.warn(x, "git.dynamic-subcommand", catGit,
			"the git subcommand is only known at run time, so it may be a destructive one (reset --hard, clean -f, push --force)",
			"Write the subcommand out literally")
		return
	}
	if f, ok := gitSubs[sub]; ok {
		f(k, x, g, ws[1:])
		if gitDynamicFlags[sub] && !k.found && unknownWord(ws[1:]) {
			k.warn(x, "git.dynamic-argument", catGit,
				"an argument of git "+sub+" is only known at run time and may be a destructive option",
				"Write the options out literally")
		}
		return
	}
	body, ok := g.config["alias."+strings.ToLower(sub)]
	if !ok || aliasDepth >= maxInnerDepth {
		return
	}
	if strings.HasPrefix(body, "!") {
		k.ask(x, "git.shell-alias", catGit,
			"it defines a git alias on the command line that runs a shell command, which cannot be checked before it runs",
			"Run the shell command directly so it can be checked")
		return
	}
	exp := append(words(strings.Fields(body)), ws[1:]...)
	if len(exp) > 0 {
		k.gitRun(x, g, exp, aliasDepth+1)
	}
}

// gitDynamicFlags are the subcommands where one unknown word can turn the
// call destructive (--hard, -f, drop, -D).
var gitDynamicFlags = map[string]bool{"reset": true, "clean": true, "stash": true, "branch": true}

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

var gitResetSpec = &optSpec{
	short: shorts("qpNU:"),
	long: kinds("quiet", "mixed", "soft", "hard", "merge", "keep", "recurse-submodules=?",
		"patch", "unified=", "inter-hunk-context=", "intent-to-add", "pathspec-from-file=",
		"pathspec-file-nul", "refresh", "no-refresh"),
	abbrev: true, negate: true,
}

// gitReset: reset --hard discards the index and working tree. --merge and
// --keep abort rather than lose local changes (git-reset(1)), so they pass.
func (k *checker) gitReset(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, gitResetSpec)
	mode := ""
	for _, o := range p.opts {
		switch o.name {
		case "--mixed", "--soft", "--hard", "--merge", "--keep":
			mode = o.name
		case "--no-mixed", "--no-soft", "--no-hard", "--no-merge", "--no-keep":
			mode = ""
		}
	}
	if mode != "--hard" {
		return
	}
	k.ask(x, "git.reset-hard", catGit,
		"git reset --hard throws away every uncommitted change in the index and working tree, and nothing can bring them back",
		"Run `git stash` first (or commit), or use `git reset --keep` / `--soft`; ask the user before discarding their work")
	k.protect(g.repo)
}

var gitCleanSpec = &optSpec{
	short:  shorts("dfinqe:xX"),
	long:   kinds("quiet", "dry-run", "force", "interactive", "exclude="),
	abbrev: true, negate: true,
}

// gitClean: clean deletes untracked files, which git never saw and cannot
// restore. It refuses without -f unless clean.requireForce is false.
func (k *checker) gitClean(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, gitCleanSpec)
	if p.has("-n", "--dry-run") {
		return
	}
	v, set := g.config["clean.requireforce"]
	noForceNeeded := set && gitFalse(v)
	if p.count("-f", "--force") == 0 && !p.has("-i", "--interactive") && !noForceNeeded {
		return
	}
	k.ask(x, "git.clean", catGit,
		"git clean deletes untracked files, which git has no copy of",
		"Preview with `git clean -n` and delete only the paths that are really build output, or ask the user")
	k.protect(g.repo)
}

var gitCheckoutSpec = &optSpec{
	short: shorts("qb:B:ldtf23mp"),
	long: kinds("quiet", "progress", "orphan=", "conflict=", "pathspec-from-file=",
		"pathspec-file-nul", "track=?", "recurse-submodules=?", "overlay", "guess",
		"ignore-skip-worktree-bits", "ignore-other-worktrees", "overwrite-ignore", "detach",
		"merge", "patch", "force", "ours", "theirs"),
	abbrev: true, negate: true,
}

// gitCheckout: checkout overwrites working-tree files when it is given
// paths (after "--", after a tree-ish, or a path-like single operand) or
// -f. Switching branches without -f keeps local changes and passes.
func (k *checker) gitCheckout(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, gitCheckoutSpec)
	switch {
	case p.has("-f", "--force"):
		k.ask(x, "git.checkout-discard", catGit,
			"git checkout --force throws away local changes to every tracked file it touches",
			"Commit or `git stash` the changes first, then switch without --force")
		k.protect(g.repo)
		return
	case p.has("-p", "--patch"), p.has("-b", "-B", "--orphan"):
		return
	}
	discard := len(p.afterDashdash()) > 0 || p.has("--pathspec-from-file")
	if p.dashdash < 0 {
		switch {
		case len(p.operands) >= 2:
			discard = true
		case len(p.operands) == 1:
			discard = pathLike(p.operands[0])
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

var gitRestoreSpec = &optSpec{
	short: shorts("s:pWSqm23U:"),
	long: kinds("source=", "patch", "worktree", "staged", "quiet", "progress", "ours",
		"theirs", "merge", "conflict=", "ignore-unmerged", "ignore-skip-worktree-bits",
		"recurse-submodules=?", "overlay", "pathspec-from-file=", "pathspec-file-nul",
		"unified=", "inter-hunk-context="),
	abbrev: true, negate: true,
}

// gitRestore: restore writes the working tree unless only --staged is
// given (git-restore(1): "-W" is the default).
func (k *checker) gitRestore(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, gitRestoreSpec)
	worktree := p.has("-W", "--worktree") || !p.has("-S", "--staged")
	if !worktree || p.has("-p", "--patch") {
		return
	}
	if len(p.operands) == 0 && !p.has("--pathspec-from-file") {
		return
	}
	k.ask(x, "git.restore-worktree", catGit,
		"git restore of the working tree overwrites those files and their uncommitted changes are lost",
		"Use `git restore --staged <file>` to only unstage, or `git stash` what should be kept; ask the user before discarding their changes")
	k.protect(g.repo)
}

var gitSwitchSpec = &optSpec{
	short: shorts("c:C:dfmqt"),
	long: kinds("create=", "force-create=", "detach", "guess", "force", "discard-changes",
		"merge", "conflict=", "quiet", "progress", "track=?", "orphan=",
		"ignore-other-worktrees", "recurse-submodules=?"),
	abbrev: true, negate: true,
}

// gitSwitch: switch --discard-changes (-f) throws local changes away.
func (k *checker) gitSwitch(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, gitSwitchSpec)
	if !p.has("-f", "--force", "--discard-changes") {
		return
	}
	k.ask(x, "git.checkout-discard", catGit,
		"git switch --discard-changes throws away local changes to every tracked file",
		"Commit or `git stash` the changes first, then switch without it")
	k.protect(g.repo)
}

// gitStash: drop and clear delete stashed work for good.
func (k *checker) gitStash(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{posix: true})
	switch p.operand(0) {
	case "drop", "clear":
		k.ask(x, "git.stash-drop", catGit,
			"it deletes stashed work, which is then only reachable by hunting dangling commits",
			"Leave the stash in place (`git stash list` shows it), or ask the user which stash may go")
		k.protect(g.repo)
	}
}

var gitBranchSpec = &optSpec{
	short: shorts("dDfmMcClarvqtu:"),
	long: kinds("delete", "force", "move", "copy", "list", "all", "remotes", "verbose", "quiet",
		"set-upstream-to=", "unset-upstream", "track=?", "contains=?", "no-contains=?",
		"merged=?", "no-merged=?", "points-at=", "sort=", "format=", "color=?", "column=?",
		"abbrev=?", "show-current", "edit-description", "create-reflog", "ignore-case",
		"omit-empty", "recurse-submodules"),
	abbrev: true, negate: true,
}

// gitBranch: -D (or -d with --force) deletes a branch even when it is not
// merged anywhere, and its commits go with it.
func (k *checker) gitBranch(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, gitBranchSpec)
	if !p.has("-D") && !(p.has("-d", "--delete") && p.has("-f", "--force")) {
		return
	}
	k.ask(x, "git.branch-force-delete", catGit,
		"git branch -D deletes the branch even though its commits are not merged anywhere",
		"Use `git branch -d`, which refuses for unmerged branches, or ask the user")
	k.protect(g.repo)
}

var gitPushSpec = &optSpec{
	short: shorts("fnquv46o:"),
	long: kinds("force", "force-with-lease=?", "force-if-includes", "mirror", "delete", "prune",
		"all", "branches", "tags", "follow-tags", "dry-run", "porcelain", "atomic",
		"set-upstream", "signed=?", "push-option=", "receive-pack=", "exec=", "repo=", "thin",
		"verify", "progress", "recurse-submodules=", "ipv4", "ipv6", "quiet", "verbose"),
	abbrev: true, negate: true,
}

// gitPush: --force (which overrides --force-with-lease), a "+" refspec and
// --mirror overwrite remote history; --delete, ":ref" and --prune delete
// remote branches (git-push(1)).
func (k *checker) gitPush(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, gitPushSpec)
	if p.has("-n", "--dry-run") {
		return
	}
	force := p.has("-f", "--force")
	var refspecs []shell.Word
	if len(p.operands) > 1 {
		refspecs = p.operands[1:]
	}
	del := p.has("-d", "--delete") || p.has("--prune")
	for _, r := range refspecs {
		if strings.HasPrefix(r.Value, "+") {
			force = true
		}
		if strings.HasPrefix(r.Value, ":") && len(r.Value) > 1 {
			del = true
		}
	}
	mirror := p.has("--mirror")
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

// gitReflog: expiring the reflog now (or deleting entries) removes the
// only way back to commits dropped by reset, rebase or branch -D.
func (k *checker) gitReflog(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{long: kinds("expire=", "expire-unreachable="), negate: true})
	switch p.operand(0) {
	case "delete":
	case "expire":
		explicit := false
		for _, o := range p.values("--expire", "--expire-unreachable") {
			if v := strings.ToLower(o.value); v != "never" && v != "false" {
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

// gitGC: gc --prune=now deletes unreachable objects immediately, without
// the two-week grace period.
func (k *checker) gitGC(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{long: kinds("prune=?", "aggressive", "auto", "quiet", "force", "keep-largest-pack", "cruft", "max-cruft-size="), abbrev: true, negate: true})
	o, ok := p.last("--prune")
	if !ok || !o.hasValue || strings.EqualFold(o.value, "never") {
		return
	}
	k.ask(x, "git.prune-now", catGit,
		"it deletes unreachable objects without git's grace period, so dropped commits and stashes cannot be recovered",
		"Run plain `git gc`, which keeps recent unreachable objects, or ask the user")
	k.protect(g.repo)
}

// gitPrune: git prune removes every unreachable loose object unless
// --expire keeps some; -n only reports.
func (k *checker) gitPrune(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{short: shorts("nv"), long: kinds("dry-run", "verbose", "progress", "expire="), abbrev: true})
	if p.has("-n", "--dry-run") {
		return
	}
	k.ask(x, "git.prune-now", catGit,
		"git prune deletes unreachable objects, so dropped commits and stashes cannot be recovered",
		"Run plain `git gc`, which keeps recent unreachable objects, or ask the user")
	k.protect(g.repo)
}

// gitFilterBranch covers filter-branch and filter-repo: both rewrite every
// commit of the history.
func (k *checker) gitFilterBranch(x cmdCtx, g *git, _ []shell.Word) {
	k.ask(x, "git.history-rewrite", catGit,
		"it rewrites the whole history of the repository, which breaks every clone and can drop data",
		"Ask the user first; make a backup clone (`git clone --mirror`) before any history rewrite")
	k.protect(g.repo)
}

// gitFilterRepo is the standalone git-filter-repo script.
func (k *checker) gitFilterRepo(x cmdCtx) {
	k.gitFilterBranch(x, &git{repo: k.cwd(x)}, nil)
}

// gitUpdateRef: update-ref -d deletes a ref outright.
func (k *checker) gitUpdateRef(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{short: shorts("dm:z"), long: kinds("no-deref", "create-reflog", "stdin")})
	if !p.has("-d") {
		return
	}
	k.ask(x, "git.update-ref-delete", catGit,
		"git update-ref -d deletes a ref without any check that its commits are kept elsewhere",
		"Use `git branch -d` or `git tag -d`, or ask the user")
	k.protect(g.repo)
}

// gitWorktree: worktree remove --force deletes a worktree with its
// uncommitted changes.
func (k *checker) gitWorktree(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{short: shorts("f"), long: kinds("force")})
	if p.operand(0) != "remove" || p.count("-f", "--force") == 0 {
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
func (k *checker) gitReadTree(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{short: shorts("muvin"), long: kinds("reset", "prefix=", "index-output=", "exclude-per-directory=", "trivial", "aggressive", "dry-run", "empty", "quiet", "no-sparse-checkout", "recurse-submodules=?"), abbrev: true})
	if !p.has("-u") || !p.has("--reset") || p.has("-n", "--dry-run") {
		return
	}
	k.ask(x, "git.reset-hard", catGit,
		"git read-tree -u --reset overwrites the index and working tree, and uncommitted changes are lost",
		"Run `git stash` first (or commit); ask the user before discarding their work")
	k.protect(g.repo)
}

// gitCheckoutIndex: checkout-index -f overwrites working-tree files from
// the index (unless --prefix or --temp writes them elsewhere).
func (k *checker) gitCheckoutIndex(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{short: shorts("uqafn"), long: kinds("index", "quiet", "all", "force", "no-create", "prefix=", "stage=", "temp", "ignore-skip-worktree-bits", "stdin", "z"), abbrev: true})
	if !p.has("-f", "--force") || p.has("--prefix", "--temp") {
		return
	}
	k.ask(x, "git.checkout-discard", catGit,
		"git checkout-index --force overwrites working-tree files and their uncommitted changes are lost",
		"Look at `git diff` first and `git stash` what should be kept")
	k.protect(g.repo)
}

// gitRm: rm -f removes files even when they have changes git has not
// recorded; --cached only untracks.
func (k *checker) gitRm(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{short: shorts("fnqr"), long: kinds("force", "dry-run", "quiet", "cached", "ignore-unmatch", "sparse", "pathspec-from-file=", "pathspec-file-nul"), abbrev: true, negate: true})
	if !p.has("-f", "--force") || p.has("--cached") || p.has("-n", "--dry-run") {
		return
	}
	k.ask(x, "git.rm-force", catGit,
		"git rm --force deletes the files together with changes that were never committed",
		"Use `git rm --cached` to only untrack, or commit first")
	k.protect(g.repo)
}

// gh: deleting a repository, a release or an issue, or any DELETE through
// gh api, cannot be undone from the command line.
func (k *checker) gh(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{
		short: shorts("R:X:H:f:F:q:t:p:"),
		long:  kinds("repo=", "method=", "header=", "field=", "raw-field=", "jq=", "template=", "hostname=", "input=", "preview=", "cache=", "visibility="),
	})
	if k.ghVisibility(x, &p) {
		return
	}
	noun, verb := p.operand(0), p.operand(1)
	if noun == "api" {
		for _, o := range p.values("-X", "--method") {
			if strings.EqualFold(o.value, "DELETE") || o.dynamic {
				k.ask(x, "git.gh-delete", catGit,
					"it sends a DELETE request to the GitHub API, and deleted GitHub objects cannot be restored",
					"Ask the user before deleting anything on GitHub")
				k.protect("")
				return
			}
		}
		return
	}
	switch noun {
	case "repo", "release", "issue":
	default:
		return
	}
	if verb != "delete" {
		return
	}
	k.ask(x, "git.gh-delete", catGit,
		"gh "+noun+" delete removes it from GitHub for good",
		"Ask the user before deleting anything on GitHub")
	k.protect("")
}

// baseName is the lower-cased last path element of v.
func baseName(v string) string { return strings.ToLower(path.Base(v)) }
