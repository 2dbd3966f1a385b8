package ops

import (
	"strings"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// dbFamily runs the database rules: SQL clients (every catalog entry of
// lang sql), Redis, MongoDB, PostgreSQL and MySQL tools, and the
// framework and migration commands that drop a database. It reports
// whether x was one of them.
func (k *checker) dbFamily(x cmdCtx) bool {
	p := x.inv.Program()
	sql := p != nil && p.Lang == "sql"
	if sql {
		k.sqlClient(x)
	}
	switch x.name {
	case "redis-cli":
		k.redis(x)
	case "mongosh":
		k.mongo(x)
	case "dropdb":
		k.dropTool(x)
	case "mysqladmin":
		k.mysqladmin(x)
	case "pg_restore":
		k.pgRestore(x)
	case "prisma":
		k.prisma(x)
	case "rails", "rake":
		k.rails(x)
	case "manage.py":
		k.django(x)
	case "python":
		k.python(x)
	case "php":
		k.php(x)
	case "symfony":
		if x.sub(0) == "console" {
			k.dbFamily(k.tail(x, "console", x.inv.Args[x.inv.Subs[0]:]))
		}
	case "artisan", "console", "sequelize", "typeorm", "mix", "alembic":
		k.frameworkReset(x)
	case "knex":
		k.knex(x)
	case "etcdctl":
		k.etcdctl(x)
	default:
		return sql
	}
	return true
}

// tail returns x with args read through the catalog entry name: the
// command another program hands its words to (python manage.py,
// symfony console); args[0] stands for the program.
func (k *checker) tail(x cmdCtx, name string, args []shell.Word) cmdCtx {
	y := x
	y.name = name
	y.inv = reparse(programs.Lookup(name), args)
	return y
}

// sqlClient finds the SQL a client runs — its code option values and
// operands, else the static text on its stdin when it reads SQL there —
// and checks it.
func (k *checker) sqlClient(x cmdCtx) {
	v := x.inv
	texts := append(v.ValuesOf(programs.Code), v.OperandsOf(programs.Code)...)
	readsStdin := len(texts) == 0 && v.Stdin == programs.Code
	for _, f := range v.ValuesOf(programs.Exec) {
		if !f.Dynamic && (f.Value == "-" || f.Value == "/dev/stdin") {
			readsStdin = len(texts) == 0
		}
	}
	for _, t := range texts {
		if h, ok := scanSQL(t.Value); ok {
			k.sqlFinding(x, h)
			return
		}
		if t.Dynamic && strings.TrimSpace(t.Prefix) == "" {
			k.warn(x, "db.dynamic-sql", catDB,
				"the SQL it runs comes from a variable or substitution and cannot be checked",
				"Write the statement out literally so it can be checked")
		}
	}
	if !readsStdin {
		return
	}
	if text, ok := stdinText(x.cmd); ok {
		if h, ok := scanSQL(text); ok {
			k.sqlFinding(x, h)
		}
	}
}

func (k *checker) sqlFinding(x cmdCtx, h sqlHit) {
	k.ask(x, h.rule, catDB,
		"it runs "+h.kind+", which deletes data that only a backup can bring back",
		"Ask the user first and make sure a backup exists; to look at the data use SELECT, and narrow a DELETE or UPDATE with a WHERE clause")
	k.protect("")
}

// dropTool: dropdb and dropuser (PostgreSQL) delete a database or a role.
func (k *checker) dropTool(x cmdCtx) {
	if len(x.inv.Operands) == 0 || x.has("version", "help") {
		return
	}
	what := "the database"
	if x.cmd.Name == "dropuser" {
		what = "the role"
	}
	k.ask(x, "db.drop", catDB,
		x.cmd.Name+" deletes "+what+" "+x.operand(0)+" outright",
		"Ask the user first and make sure a backup exists")
	k.protect("")
}

// mysqladmin: "drop DB" deletes a database.
func (k *checker) mysqladmin(x cmdCtx) {
	for _, w := range x.operands() {
		if strings.EqualFold(w.Value, "drop") {
			k.ask(x, "db.drop", catDB,
				"mysqladmin drop deletes a whole database",
				"Ask the user first and make sure a backup exists")
			k.protect("")
			return
		}
	}
}

// pgRestore: --clean (-c) drops every object of the dump in the target
// database before recreating it.
func (k *checker) pgRestore(x cmdCtx) {
	if x.has("clean") && len(x.values("dbname")) > 0 {
		k.ask(x, "db.drop", catDB, "pg_restore --clean drops every object of the dump in the target database before it restores them",
			"Restore into a new, empty database, or ask the user")
		k.protect("")
	}
}

// redis: FLUSHALL and FLUSHDB delete every key, as the command operands
// or as a line on stdin; DEL of keys another command lists, and CONFIG
// SET dir/dbfilename.
func (k *checker) redis(x cmdCtx) {
	var lines [][]string
	if code := x.inv.OperandsOf(programs.Code); len(code) > 0 {
		line := make([]string, len(code))
		for i, w := range code {
			line[i] = w.Value
		}
		lines = append(lines, line)
	} else if x.inv.Stdin == programs.Code {
		if text, ok := stdinText(x.cmd); ok {
			for _, line := range strings.Split(text, "\n") {
				lines = append(lines, strings.Fields(line))
			}
		}
	}
	for _, l := range lines {
		if k.redisExtra(x, l) {
			return
		}
		if redisFlush(l) {
			k.ask(x, "db.redis-flush", catDB,
				"FLUSHALL / FLUSHDB deletes every key of the Redis database",
				"Delete only the keys you mean (`redis-cli DEL key`), or ask the user")
			k.protect("")
			return
		}
	}
}

// redisFlush reports a Redis command that flushes: FLUSHALL, FLUSHDB, or
// a Lua script (EVAL, FUNCTION LOAD) that calls them.
func redisFlush(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	switch strings.ToLower(strings.Trim(cmd[0], `"'`)) {
	case "flushall", "flushdb":
		return true
	case "eval", "eval_ro", "function", "script":
		body := strings.ToLower(strings.Join(cmd[1:], " "))
		return strings.Contains(body, "flushall") || strings.Contains(body, "flushdb")
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

// mongoDestroy are the MongoDB shell calls that delete a database, a
// collection, users, or every document, spelled without white space and
// lower-cased.
var mongoDestroy = [...]string{".dropdatabase(", ".drop(", "deletemany({})", "deletemany()",
	".remove({})", ".dropallusers(", ".dropallroles(", "{dropdatabase:", "{drop:", "\"dropdatabase\":", "{\"drop\":"}

// mongoUpdateAll are MongoDB calls that change every document.
var mongoUpdateAll = [...]string{"updatemany({},", "updatemany({}),", ".update({},", "replaceone({},", "findoneandreplace({},"}

// mongoUnbounded reports an update of every document in a script.
func mongoUnbounded(js string) bool {
	for _, m := range mongoUpdateAll {
		if strings.Contains(js, m) && (m != ".update({}," || strings.Contains(js, "multi:true")) {
			return true
		}
	}
	return false
}

// mongo: --eval scripts and a script on stdin.
func (k *checker) mongo(x cmdCtx) {
	var scripts []string
	for _, w := range x.inv.ValuesOf(programs.Code) {
		scripts = append(scripts, w.Value)
	}
	if len(scripts) == 0 && x.inv.Stdin == programs.Code && len(x.inv.Operands) <= 1 {
		if text, ok := stdinText(x.cmd); ok {
			scripts = append(scripts, text)
		}
	}
	for _, s := range scripts {
		js := strings.ToLower(strings.Join(strings.Fields(s), ""))
		if mongoUnbounded(js) {
			k.ask(x, "db.delete-all", catDB, "the MongoDB script updates every document of a collection (an empty filter)",
				"Update with a filter that names the documents, or ask the user")
			k.protect("")
			return
		}
		for _, m := range mongoDestroy {
			if strings.Contains(js, m) {
				k.ask(x, "db.mongo-drop", catDB,
					"the MongoDB script drops a database or collection or deletes every document",
					"Ask the user first and make sure a backup exists; delete with a filter that names the documents")
				k.protect("")
				return
			}
		}
	}
}

// prisma: migrate reset and db push --force-reset / --accept-data-loss
// drop the database or data.
func (k *checker) prisma(x cmdCtx) {
	reset := x.sub(0) == "migrate" && x.sub(1) == "reset" ||
		x.sub(0) == "db" && x.sub(1) == "push" && x.has("force-reset", "accept-data-loss")
	if !reset {
		return
	}
	k.ask(x, "db.framework-reset", catDB,
		"it drops and recreates the database, deleting all its data",
		"Use `prisma migrate dev` or `prisma migrate deploy`, which keep data, or ask the user")
	k.protect("")
}

// railsTask reports the Rake tasks that drop or wipe the database.
func railsTask(task string) bool {
	switch task {
	case "db:drop", "db:drop:all", "db:reset", "db:purge", "db:purge:all", "db:truncate_all", "db:migrate:reset",
		"db:schema:load", "db:structure:load", "db:seed:replant":
		return true
	}
	return false
}

// rails: rails / rake database tasks that drop or wipe the database.
func (k *checker) rails(x cmdCtx) {
	for _, w := range x.operands() {
		task, _, _ := strings.Cut(w.Value, "[")
		if railsTask(task) {
			k.ask(x, "db.framework-reset", catDB,
				task+" drops or wipes the database, deleting all its data",
				"Use `db:migrate`, which keeps data, or ask the user")
			k.protect("")
			return
		}
	}
}

// django: manage.py / django-admin flush and reset_db delete every row.
func (k *checker) django(x cmdCtx) {
	switch cmd := x.operand(0); cmd {
	case "flush", "reset_db":
		k.ask(x, "db.framework-reset", catDB,
			"manage.py "+cmd+" deletes every row of the database",
			"Use `manage.py migrate`, which keeps data, or ask the user")
		k.protect("")
	}
}

// python: "python manage.py …" and "python -m django …" are Django's
// administration command.
func (k *checker) python(x cmdCtx) {
	if mods := x.values("module"); len(mods) > 0 {
		if mods[len(mods)-1].Value == "django" {
			args := append([]shell.Word{{Raw: "django-admin", Value: "django-admin", Prefix: "django-admin"}}, x.operands()...)
			k.dbFamily(k.tail(x, "manage.py", args))
		}
		return
	}
	for _, op := range x.inv.Operands {
		if op.Role != programs.Exec {
			continue
		}
		if w := x.inv.Args[op.Word]; baseName(w.Value) == "manage.py" {
			k.dbFamily(k.tail(x, "manage.py", x.inv.Args[op.Word:]))
		}
		return
	}
}

// php: "php artisan …" and "php bin/console …".
func (k *checker) php(x cmdCtx) {
	for _, op := range x.inv.Operands {
		if op.Role != programs.Exec {
			continue
		}
		switch w := x.inv.Args[op.Word]; baseName(w.Value) {
		case "artisan", "console":
			k.dbFamily(k.tail(x, baseName(w.Value), x.inv.Args[op.Word:]))
		}
		return
	}
}

// frameworkReset: php artisan migrate:fresh, doctrine:database:drop,
// sequelize db:drop, typeorm schema:drop, mix ecto.reset, alembic
// downgrade base (not with --sql, which only prints the SQL).
func (k *checker) frameworkReset(x cmdCtx) {
	cmd := strings.ToLower(x.operand(0))
	hit := false
	switch x.name {
	case "artisan":
		hit = cmd == "migrate:fresh" || cmd == "migrate:reset" || cmd == "migrate:refresh" || cmd == "db:wipe"
	case "console":
		hit = cmd == "doctrine:database:drop" || cmd == "doctrine:schema:drop"
	case "sequelize":
		hit = cmd == "db:drop" || cmd == "db:migrate:undo:all"
	case "typeorm":
		hit = cmd == "schema:drop"
	case "mix":
		hit = cmd == "ecto.drop" || cmd == "ecto.reset"
	case "alembic":
		cmd = "downgrade " + cmd
		hit = x.sub(0) == "downgrade" && x.operand(0) == "base" && !x.has("sql")
	}
	if !hit {
		return
	}
	k.ask(x, "db.framework-reset", catDB,
		cmd+" drops or wipes the database, deleting all its data",
		"Run the forward migrations only (`migrate`), or ask the user")
	k.protect("")
}

// knex migrate:rollback --all undoes every migration (dropping the
// tables they made).
func (k *checker) knex(x cmdCtx) {
	if x.operand(0) == "migrate:rollback" && x.has("all") {
		k.ask(x, "db.framework-reset", catDB, "knex migrate:rollback --all undoes every migration, dropping the tables and data they made",
			"Roll back one batch (`knex migrate:rollback`), or ask the user")
		k.protect("")
	}
}

// etcdctl del with --prefix or --from-key deletes every key under it
// (with "" every key: a Kubernetes cluster's whole state).
func (k *checker) etcdctl(x cmdCtx) {
	if x.sub(0) == "del" && x.has("prefix", "from-key") {
		k.ask(x, "db.delete-all", catDB, "etcdctl del --prefix deletes every key under the prefix, and etcd keeps no undo",
			"Delete the keys you mean one by one, or ask the user")
		k.protect("")
	}
}

// stdinText returns the static text fed to c's standard input by a heredoc,
// a here-string, or echo / printf upstream in its pipeline (through cat,
// tee, head and tail); a command a runner runs reads the runner's. Dynamic parts are left out; ok is false when nothing
// is known.
func stdinText(c *shell.Command) (string, bool) {
	if c == nil {
		return "", false
	}
	if c.Stdin.Kind == shell.StdinSubstitute && c.Parent != nil && c.Via != "xargs" && c.Via != "find -exec" {
		// a runner's command (docker exec -i db psql, npx prisma)
		// reads the runner's standard input
		c = c.Parent
	}
	switch c.Stdin.Kind {
	case shell.StdinHeredoc:
		return c.Stdin.Text, c.Stdin.Text != ""
	case shell.StdinPipe:
	default:
		return "", false
	}
	var parts []string
	from := c.Stdin.From
	for steps := 0; from != nil && steps < 16; steps++ {
		switch from.Name {
		case "echo", "printf":
			parts = append(parts, strings.ReplaceAll(printed(from), `\n`, "\n"))
		case "cat", "tee", "head", "tail":
		default:
			from = nil
			continue
		}
		switch from.Stdin.Kind {
		case shell.StdinHeredoc:
			parts = append(parts, from.Stdin.Text)
			from = nil
		case shell.StdinPipe:
			from = from.Stdin.From
		default:
			from = nil
		}
	}
	text := strings.Join(parts, "\n")
	return text, text != ""
}

// printed returns what echo or printf prints: echo's words but the option
// words the catalog knows (-n, -e, -E), joined by spaces; printf's
// operands through its format (printfText).
func printed(c *shell.Command) string {
	if c.Name == "printf" && c.Inv != nil {
		ops := c.Inv.Operands
		if len(ops) == 0 {
			return ""
		}
		args := make([]string, 0, len(ops)-1)
		for _, op := range ops[1:] {
			args = append(args, c.Inv.Args[op.Word].Value)
		}
		return printfText(c.Inv.Args[ops[0].Word].Value, args)
	}
	skip := map[int]bool{}
	if c.Inv != nil {
		for _, o := range c.Inv.Opts {
			switch o.Name {
			case "n", "e", "E":
				if o.Known {
					skip[o.Word] = true
				}
			}
		}
	}
	var ws []string
	for i := 1; i < len(c.Args); i++ {
		if !skip[i] {
			ws = append(ws, c.Args[i].Value)
		}
	}
	return strings.Join(ws, " ")
}

// printfText renders a printf format with its arguments the way printf(1)
// does for text: each conversion (%s, %b, %d, …) takes the next argument
// as written, "%%" is "%", and the format is used again while arguments
// remain. Escapes are left for the caller.
func printfText(format string, args []string) string {
	var b strings.Builder
	for round := 0; round < 64; round++ {
		used := false
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c != '%' || i+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.*", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				b.WriteString(format[i:])
				break
			}
			if format[j] == '%' {
				b.WriteByte('%')
			} else if len(args) > 0 {
				b.WriteString(args[0])
				args, used = args[1:], true
			}
			i = j
		}
		if !used || len(args) == 0 {
			break
		}
	}
	return b.String()
}
