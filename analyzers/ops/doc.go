// Package ops is the operations analyzer: it reads each command of a Bash
// call the way the tool itself reads its argv and stops the operations that
// destroy work a developer cannot get back — uncommitted or remote git work,
// database contents, cloud and cluster resources — and the system-control
// commands that take a machine, its remote access, its firewall or its audit
// trail away.
//
// Every command's argv is read through the program catalog (package
// programs, via [shell.Command].Inv): options with their values,
// abbreviations and negations, subcommands, and operands with their
// roles. The analyzer parses no argv of its own; it asks the invocation
// for subcommands ("git stash drop") and canonical option names ("hard",
// "force"), never for substrings of the command line (the shell is
// read as the shell does). What another program runs — an ssh remote command,
// docker or kubectl exec, npx and other runners, git rebase --exec, git
// submodule foreach, a git -c alias.x='!…' or core.pager — is a command
// of its own in the script, judged like any other; a git alias without
// "!" is expanded here and read through git's entry again. SQL, Redis
// commands and MongoDB scripts are the code a client's entry names (an
// option value, operands, or static text on stdin from a heredoc, a
// here-string or echo / printf upstream, also through a runner). A
// statement the reader cannot resolve is never taken for safe
// (principle 2). History files, /proc/sysrq-trigger and the SELinux
// enforce file are judged from the command's effects, whatever program
// writes them.
//
// Rules, all with stable ids (principle 4):
//
//   - git.*: reset --hard (and read-tree -u --reset), reset --merge
//     (git.reset-merge: it discards staged changes), clean -f,
//     checkout/restore/switch that discard worktree changes, stash
//     drop/clear, branch -D, rm -f, forced or deleting pushes (--force,
//     +refspec, --mirror, --delete, :ref, --prune), reflog expire/delete,
//     gc/prune of unreachable objects now, filter-branch, filter-repo (not
//     --analyze or --dry-run), update-ref -d (or a delete line on
//     --stdin), worktree remove --force, inline shell
//     aliases, gh repo/release/issue delete and gh api -X DELETE; git
//     config that plants a command (a "!" alias, core.fsmonitor,
//     core.hooksPath outside the repository, filter drivers, shell code
//     in a command-valued key: git.config-exec); gh repo edit
//     --visibility public (git.gh-visibility); a git subcommand under a
//     program word only known at run time ($g reset --hard). Ask.
//   - db.*: DROP DATABASE/SCHEMA/TABLE/…, TRUNCATE, DELETE or UPDATE without
//     a WHERE (or with a tautology), ALTER TABLE … DROP, via every client
//     whose catalog entry is of lang sql (psql, mysql, mariadb, sqlite3,
//     duckdb, clickhouse, cockroach sql, cqlsh, usql, mycli, trino,
//     sqlcmd, snowsql, bq query, prisma db execute, typeorm query,
//     manage.py dbshell); dropdb,
//     dropuser, mysqladmin drop; redis FLUSHALL/FLUSHDB; mongo dropDatabase,
//     drop(), deleteMany({}); prisma migrate reset, rails db:drop/reset,
//     django flush; an OR of a tautology in WHERE; redis DEL fed by
//     xargs and CONFIG SET dir/dbfilename (db.redis-config); mongo
//     updateMany({}); pg_restore --clean; prisma db push
//     --accept-data-loss; knex migrate:rollback --all; etcdctl del
//     --prefix. Ask.
//   - infra.*: aws delete-*/terminate-*, s3 rm --recursive, s3 rb --force;
//     kubectl delete of namespaces, volumes, CRDs, nodes or --all; terraform,
//     tofu, terragrunt, pulumi, cdk destroy; docker/podman system prune,
//     volume rm/prune, compose down -v, rm -f of a dynamic list; gcloud, az,
//     doctl delete; heroku, fly, vercel, netlify destroy; terraform
//     apply -replace; terraform state rm/push and workspace delete
//     (infra.state-change); aws iam create-access-key, login profiles
//     and administrator policies (infra.iam-grant). Ask; helm uninstall
//     and s3 sync --delete warn.
//   - system.*: shutdown, reboot, halt, poweroff, init 0/6, systemctl
//     poweroff/reboot/isolate; kill -1; pkill/killall of a whole user;
//     stopping sshd; flushing or disabling the firewall; setenforce 0;
//     crontab -r; wiping shell history; kill of pid 1; cutting the
//     network (interface down, default route deleted, nmcli networking
//     off, a DROP policy or match-all DROP rule on INPUT/OUTPUT, firewalld
//     panic mode: system.network-cut); writing 0 to the SELinux enforce
//     file. Any other change of the host firewall (system.firewall, ATT&CK
//     T1562.004): iptables/ip6tables -A -I -D -R -N -X -E -P,
//     iptables-restore and iptables-apply, nft add/insert/replace/delete/
//     rename and nft -f, ufw allow/deny/reject/limit/insert/prepend/
//     delete/route/default/enable, pfctl -e/-f/-F/-k/-K and table
//     changes, firewall-cmd --add-*/--remove-*/--change-*/--new-*/
//     --delete-*/--set-*/--load-*/--runtime-to-permanent, netsh
//     advfirewall add/delete/set/reset/import; listing and status pass,
//     and so do ebtables and arptables (link-layer filters). Ask.
//   - priv.temp-program: a program, script or standard-input script run
//     with raised privilege (the catalog's privileged wrappers: sudo,
//     doas, pkexec, run0, su -c) from a temporary directory every user
//     may write (/tmp, /var/tmp, /dev/shm, their macOS forms, $TMPDIR):
//     whoever put or replaced the file there gets the privilege. A path
//     mktemp made in the same script passes, and so does one in a project
//     that itself lives in a temporary directory. Ask.
//   - priv.sudo: a command run through sudo, doas, su, pkexec or run0 with no
//     other ops finding warns (the tool shield scores "sudo" 0.6: the Medium band).
//
// Effects: [toolwall.TagDelete] with Detail "protected" for each destructive
// git, database or infrastructure operation, [toolwall.TagProcessControl]
// for kill, pkill, systemctl, service, shutdown and the like, and
// [toolwall.TagPermInspect] for ls -l, stat, id, sudo -l, getfacl, namei and
// find -perm.
//
// In [toolwall.RootContext] the analyzer reports nothing: the root helper
// exists for system work and only the catastrophic set applies.
package ops
