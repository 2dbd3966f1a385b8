package ops

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// Rules added after an attack round on the first rule set: routes an
// agent could take around git, database, infrastructure and system rules.

func init() {
	gitSubs["config"] = (*checker).gitConfig
	register((*checker).pgRestore, "pg_restore")
	register((*checker).knex, "knex")
	register((*checker).etcdctl, "etcdctl")
	register((*checker).ifDown, "ifconfig", "ifdown")
	register((*checker).ipRoute, "ip")
	register((*checker).nmcli, "nmcli")
}

// gitExecKeys are configuration keys whose value git runs as a command
// (git-config(1)): setting one plants code that runs on a later, innocent
// git command. Keys whose value is usually a plain program name
// (core.pager = delta) are only asked when the value holds shell syntax.
var gitExecKeys = map[string]bool{
	"core.sshcommand": true, "core.pager": true, "core.editor": true, "sequence.editor": true,
	"diff.external": true, "credential.helper": true, "gpg.program": true, "core.askpass": true,
	"pager.log": true, "pager.diff": true, "pager.show": true, "pager.branch": true,
	"merge.tool": true, "diff.tool": true, "core.gitproxy": true, "uploadpack.packobjectshook": true,
}

// gitConfig: git config that makes git run a command later — a "!" alias,
// core.fsmonitor (runs on every status), core.hooksPath outside the
// repository, filter drivers, and command-valued keys holding shell
// syntax. Reading (--get, --list, -l) passes.
func (k *checker) gitConfig(x cmdCtx, g *git, args []shell.Word) {
	p := parseArgs(args, &optSpec{
		short: shorts("f:ltze"),
		long: kinds("file=", "blob=", "global", "system", "local", "worktree", "add", "replace-all", "get",
			"get-all", "get-regexp", "unset", "unset-all", "list", "type=", "default=", "includes", "show-origin", "show-scope", "null", "name-only", "edit", "comment="),
		abbrev: true,
	})
	if p.has("--get", "--get-all", "--get-regexp", "--list", "-l", "--unset", "--unset-all", "--edit", "-e") {
		return
	}
	ops := p.operands
	// git config set KEY VALUE (git 2.46) and the classic KEY VALUE.
	if len(ops) > 0 && (ops[0].Value == "set" || ops[0].Value == "add") {
		ops = ops[1:]
	}
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
	case key == "core.hookspath" && !k.insideRepo(g, val.Value):
		why = "core.hooksPath outside the repository makes git run hook scripts from there on every commit, checkout and push"
	case strings.HasPrefix(key, "filter.") && (strings.HasSuffix(key, ".clean") || strings.HasSuffix(key, ".smudge") || strings.HasSuffix(key, ".process")):
		why = "a filter driver is a command git runs on every checkout and add"
	case gitExecKeys[key] && (val.Dynamic || strings.ContainsAny(val.Value, "|;&`$<>(")):
		why = key + " is a command git runs later, and this value is shell code"
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
func (k *checker) insideRepo(g *git, v string) bool {
	if v == "" || strings.HasPrefix(v, "~") || strings.Contains(v, "..") {
		return v == ""
	}
	if !strings.HasPrefix(v, "/") {
		return true
	}
	return strings.HasPrefix(v, strings.TrimSuffix(g.repo, "/")+"/")
}

// ghVisibility: gh repo edit --visibility public publishes a private
// repository's code, issues and history at once.
func (k *checker) ghVisibility(x cmdCtx, p *parsed) bool {
	if p.operand(0) != "repo" || p.operand(1) != "edit" {
		return false
	}
	for _, o := range p.values("--visibility") {
		if strings.EqualFold(o.value, "public") || o.dynamic {
			k.ask(x, "git.gh-visibility", catGit,
				"making a repository public publishes its whole history to everyone, and copies cannot be recalled",
				"Ask the user to change the visibility themselves")
			return true
		}
	}
	return false
}

// pgRestore: --clean (-c) drops every object of the dump in the target
// database before recreating it.
func (k *checker) pgRestore(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{
		short:  shorts("d:f:F:h:p:U:j:n:N:t:T:I:P:L:S:ceCaOxsvw1W"),
		long:   kinds("dbname=", "file=", "format=", "host=", "port=", "username=", "jobs=", "schema=", "table=", "clean", "create", "if-exists"),
		abbrev: true,
	})
	if p.has("-c", "--clean") && len(p.values("-d", "--dbname")) > 0 {
		k.ask(x, "db.drop", catDB, "pg_restore --clean drops every object of the dump in the target database before it restores them",
			"Restore into a new, empty database, or ask the user")
		k.protect("")
	}
}

// knex migrate:rollback --all undoes every migration (dropping the
// tables they made).
func (k *checker) knex(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{long: kinds("all", "knexfile=", "env=", "cwd=")})
	if p.operand(0) == "migrate:rollback" && p.has("--all") {
		k.ask(x, "db.framework-reset", catDB, "knex migrate:rollback --all undoes every migration, dropping the tables and data they made",
			"Roll back one batch (`knex migrate:rollback`), or ask the user")
		k.protect("")
	}
}

// etcdctl del with --prefix or --from-key deletes every key under it
// (with "" every key: a Kubernetes cluster's whole state).
func (k *checker) etcdctl(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{long: kinds("prefix", "from-key", "prev-kv", "endpoints=", "cacert=", "cert=", "key=", "user=", "password=")})
	if p.operand(0) == "del" && p.has("--prefix", "--from-key") {
		k.ask(x, "db.delete-all", catDB, "etcdctl del --prefix deletes every key under the prefix, and etcd keeps no undo",
			"Delete the keys you mean one by one, or ask the user")
		k.protect("")
	}
}

// mongoUpdateAll are MongoDB calls that change every document.
var mongoUpdateAll = []string{"updatemany({},", "updatemany({}),", ".update({},", "replaceone({},", "findoneandreplace({},"}

// mongoUnbounded reports an update of every document in a script.
func mongoUnbounded(js string) bool {
	for _, m := range mongoUpdateAll {
		if strings.Contains(js, m) && (m != ".update({}," || strings.Contains(js, "multi:true")) {
			return true
		}
	}
	return false
}

// redisExtra: DEL/UNLINK of a key list fed by xargs (the KEYS * | xargs
// DEL wipe), and CONFIG SET dir/dbfilename, which makes Redis write its
// dump file anywhere (a known way to plant authorized_keys or cron
// files).
func (k *checker) redisExtra(x cmdCtx, line []string) bool {
	if len(line) == 0 {
		return false
	}
	cmd := strings.ToLower(line[0])
	switch {
	case (cmd == "del" || cmd == "unlink") && x.cmd != nil && x.cmd.Via == "xargs":
		k.ask(x, "db.redis-flush", catDB, "it deletes every key another command lists, which can be all of them",
			"Delete only the keys you mean, or ask the user")
		k.protect("")
		return true
	case cmd == "config" && len(line) > 2 && strings.EqualFold(line[1], "set") &&
		(strings.EqualFold(line[2], "dir") || strings.EqualFold(line[2], "dbfilename")):
		k.ask(x, "db.redis-config", catDB, "CONFIG SET dir/dbfilename makes Redis write its dump file to any path it can reach, a known way to plant keys or cron jobs",
			"Leave Redis's persistence settings alone, or ask the user")
		return true
	}
	return false
}

// terraformState: state rm / state push and workspace delete drop what
// terraform knows of real resources; apply -replace destroys and
// recreates one (a database loses its data).
func (k *checker) terraformState(x cmdCtx, p *parsed) {
	verb, sub := p.operand(0), p.operand(1)
	switch {
	case verb == "state" && (sub == "rm" || sub == "push" || sub == "replace-provider"):
		k.infraAsk(x, "infra.state-change", x.name+" state "+sub+" changes what terraform knows of real resources; lost state orphans them")
	case verb == "workspace" && sub == "delete":
		k.infraAsk(x, "infra.state-change", x.name+" workspace delete drops the workspace's state, orphaning its resources")
	case verb == "apply" && len(p.values("--replace")) > 0:
		k.infraAsk(x, "infra.destroy", x.name+" apply -replace destroys the resource and creates a new one; its data does not come back")
	}
}

// awsIAM: creating access keys or login profiles, and attaching
// administrator policies, hand out cloud credentials or rights.
func (k *checker) awsIAM(x cmdCtx, op string) {
	grant := false
	switch op {
	case "create-access-key", "create-login-profile", "update-login-profile", "create-service-specific-credential":
		grant = true
	case "attach-user-policy", "attach-role-policy", "attach-group-policy", "put-user-policy", "put-role-policy", "put-group-policy":
		for _, w := range x.args {
			if strings.Contains(strings.ToLower(w.Value), "administratoraccess") || strings.Contains(w.Value, `"Action":"*"`) ||
				strings.Contains(w.Value, `"Action": "*"`) {
				grant = true
			}
		}
	}
	if grant {
		k.infraAsk(x, "infra.iam-grant", "aws iam "+op+" creates a cloud credential or grants administrator rights")
	}
}

// killInit: signalling pid 1 (init, or a container's entry process)
// takes the whole machine or container down.
func killInit(pids []shell.Word) bool {
	for _, w := range pids {
		if w.Value == "1" && !w.Dynamic {
			return true
		}
	}
	return false
}

func (k *checker) networkCut(x cmdCtx, why string) {
	k.systemAsk(x, "system.network-cut", why,
		"Change the one interface, route or rule you need, or ask the user")
}

// ifDown: ifconfig IF down, ifdown IF (loopback excepted).
func (k *checker) ifDown(x cmdCtx) {
	args := values(x.args[1:])
	if len(args) == 0 || args[0] == "lo" || args[0] == "lo0" {
		return
	}
	if x.name == "ifdown" || len(args) > 1 && args[len(args)-1] == "down" {
		k.networkCut(x, "taking a network interface down can cut the machine off, the agent's own session included")
	}
}

// ipRoute: ip link set IF down; ip route del/flush of the default route
// or the whole table.
func (k *checker) ipRoute(x cmdCtx) {
	var ops []string
	for _, w := range x.args[1:] {
		if !strings.HasPrefix(w.Value, "-") {
			ops = append(ops, w.Value)
		}
	}
	if len(ops) < 2 {
		return
	}
	obj, verb := ops[0], ops[1]
	switch {
	case strings.HasPrefix("link", obj) && verb == "set" && containsField(strings.Join(ops, " "), "down") &&
		!containsField(strings.Join(ops, " "), "lo"):
		k.networkCut(x, "taking a network interface down can cut the machine off, the agent's own session included")
	case (strings.HasPrefix("route", obj) && obj != "") && (strings.HasPrefix("delete", verb) || verb == "flush") &&
		(containsField(strings.Join(ops[2:], " "), "default") || verb == "flush" && len(ops) == 2 ||
			containsField(strings.Join(ops[2:], " "), "all") || containsField(strings.Join(ops[2:], " "), "main")):
		k.networkCut(x, "removing the default route or flushing the routing table cuts the machine off the network")
	}
}

// nmcli networking off / radio all off / device disconnect.
func (k *checker) nmcli(x cmdCtx) {
	var ops []string
	for _, w := range x.args[1:] {
		if !strings.HasPrefix(w.Value, "-") {
			ops = append(ops, strings.ToLower(w.Value))
		}
	}
	j := strings.Join(ops, " ")
	if strings.HasPrefix(j, "n") && strings.HasSuffix(j, " off") && len(ops) == 2 ||
		strings.HasPrefix(j, "r") && strings.Contains(j, " all off") ||
		strings.HasPrefix(j, "d") && len(ops) > 1 && strings.HasPrefix("disconnect", ops[1]) {
		k.networkCut(x, "it switches networking off, cutting the machine off the network")
	}
}

// iptablesLockout: a DROP/REJECT policy on INPUT or OUTPUT, or a rule that
// drops every packet of the chain (no match of its own), cuts every
// connection, SSH included.
func (k *checker) iptablesLockout(x cmdCtx, p *parsed) bool {
	drop := func(v string) bool { return strings.EqualFold(v, "drop") || strings.EqualFold(v, "reject") }
	for _, o := range p.values("-P", "--policy") {
		if (strings.EqualFold(o.value, "input") || strings.EqualFold(o.value, "output")) && drop(p.operand(0)) {
			k.networkCut(x, "a DROP policy on "+o.value+" cuts every connection that no rule allows, SSH included")
			return true
		}
	}
	for _, o := range p.values("-A", "--append", "-I", "--insert") {
		if !strings.EqualFold(o.value, "input") && !strings.EqualFold(o.value, "output") {
			continue
		}
		jump := p.values("-j", "--jump")
		if len(jump) == 0 || !drop(jump[len(jump)-1].value) {
			continue
		}
		if len(p.values("-s", "--source", "-d", "--destination", "-p", "--protocol", "-i", "--in-interface", "-o", "--out-interface", "-m", "--match")) == 0 {
			k.networkCut(x, "a rule that drops every packet of "+o.value+" cuts every connection, SSH included")
			return true
		}
	}
	return false
}

// selinuxWrite: writing 0 to the SELinux enforce file is setenforce 0.
func (k *checker) selinuxWrite(c *shell.Command, x cmdCtx) bool {
	for _, r := range c.Redirects {
		if !r.Writes() || (r.Target.Value != "/sys/fs/selinux/enforce" && r.Target.Value != "/selinux/enforce") {
			continue
		}
		if c.Name == "echo" || c.Name == "printf" {
			if strings.TrimSpace(strings.Join(values(c.Args[1:]), " ")) != "0" {
				return false
			}
		}
		k.systemAsk(x, "system.selinux-off", "writing to the SELinux enforce file switches enforcement off for the whole machine",
			"Fix the denial with a policy change (`audit2allow`), or ask the user")
		return true
	}
	return false
}
