package ops

import (
	"slices"
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// sqlClient says where one SQL client takes statements from.
type sqlClient struct {
	spec *optSpec
	// query lists the options whose value is SQL ("-c", "--command").
	query []string
	// file lists the options naming a script file; with one, stdin is not
	// read (unless the file is "-").
	file []string
	// operandSQL is the index of the first operand that is SQL (sqlite3
	// FILENAME SQL…), or 0 when operands are never SQL.
	operandSQL int
	// sub is a subcommand that must come first ("sql" for cockroach), or "".
	sub string
}

var (
	psqlClient = &sqlClient{
		spec: &optSpec{
			short: shorts("aAbc:d:eEf:F:h:HlL:no:p:P:qR:sStT:U:v:VwWxXz?01"),
			long: kinds("echo-all", "no-align", "command=", "dbname=", "echo-queries", "echo-errors",
				"echo-hidden", "file=", "field-separator=", "host=", "html", "list", "log-file=",
				"no-readline", "output=", "port=", "pset=", "quiet", "record-separator=",
				"single-step", "single-line", "tuples-only", "table-attr=", "username=", "set=",
				"variable=", "version", "no-password", "password", "expanded", "no-psqlrc",
				"single-transaction", "help=?", "field-separator-zero", "record-separator-zero", "csv"),
			abbrev: true,
		},
		query: []string{"-c", "--command"},
		file:  []string{"-f", "--file"},
	}
	mysqlClient = &sqlClient{
		spec: &optSpec{
			short: shorts("e:h:u:p::P:D:S:BNstvfAbCEHXinqrwVoT#::"),
			long: kinds("execute=", "host=", "user=", "password=?", "port=", "database=", "socket=",
				"batch", "skip-column-names", "silent", "table", "verbose", "force", "no-auto-rehash",
				"no-beep", "compress", "vertical", "html", "xml", "ignore-spaces", "unbuffered",
				"quick", "raw", "wait", "version", "one-database", "debug-info", "protocol=",
				"default-character-set=", "defaults-file=", "defaults-extra-file=", "login-path=",
				"ssl-mode=", "ssl-ca=", "ssl-cert=", "ssl-key=", "init-command=", "connect-timeout=",
				"max-allowed-packet=", "local-infile=?", "binary-mode", "comments", "safe-updates",
				"i-am-a-dummy", "select-limit=", "max-join-size=", "tee=", "pager=?", "prompt=", "skip-ssl", "ssl"),
			abbrev: true,
		},
		query: []string{"-e", "--execute", "--init-command"},
	}
	sqliteClient = &sqlClient{
		spec: &optSpec{
			long: kinds("cmd=", "init=", "separator=", "newline=", "nullvalue=", "vfs=", "mmap=",
				"maxsize=", "escape=", "lookaside=", "pagecache=", "heap=", "c=", "s=", "f="),
			singleDash: true,
		},
		query:      []string{"--cmd", "--c", "--s"},
		file:       []string{"--init", "--f"},
		operandSQL: 1,
	}
	clickhouseClient = &sqlClient{
		spec: &optSpec{
			short: shorts("q:h:u:d:f:C:p:t"),
			long: kinds("query=", "queries-file=", "host=", "port=", "user=", "password=", "database=",
				"format=", "config-file=", "config=", "param_=", "multiquery", "multiline", "time",
				"secure", "interactive"),
		},
		query: []string{"-q", "--query"},
		file:  []string{"--queries-file"},
	}
	cockroachClient = &sqlClient{
		spec: &optSpec{
			short: shorts("e:f:d:u:"),
			long:  kinds("execute=", "file=", "database=", "user=", "url=", "host=", "port=", "certs-dir=", "insecure", "format="),
		},
		query: []string{"-e", "--execute"},
		file:  []string{"-f", "--file"},
		sub:   "sql",
	}
	usqlClient = &sqlClient{
		spec:  &optSpec{short: shorts("c:f:o:"), long: kinds("command=", "file=", "out=", "set=", "variable=")},
		query: []string{"-c", "--command"},
		file:  []string{"-f", "--file"},
	}
	executeClient = &sqlClient{ // mycli, litecli, trino
		spec:  &optSpec{short: shorts("e:h:u:P:D:S:"), long: kinds("execute=", "host=", "user=", "port=", "database=", "socket=", "server=", "catalog=", "schema=", "file=")},
		query: []string{"-e", "--execute"},
		file:  []string{"--file"},
	}
	sqlcmdClient = &sqlClient{ // MS SQL Server
		spec:  &optSpec{short: shorts("S:U:P:d:Q:q:i:o:")},
		query: []string{"-Q", "-q"},
		file:  []string{"-i"},
	}
	snowsqlClient = &sqlClient{
		spec:  &optSpec{short: shorts("q:f:a:u:d:s:w:r:c:"), long: kinds("query=", "filename=", "accountname=", "username=", "dbname=", "schemaname=", "warehouse=", "rolename=", "connection=")},
		query: []string{"-q", "--query"},
		file:  []string{"-f", "--filename"},
	}
	cqlshClient = &sqlClient{
		spec: &optSpec{
			short: shorts("e:f:u:p:k:"),
			long:  kinds("execute=", "file=", "username=", "password=", "keyspace=", "cqlversion=", "protocol-version=", "connect-timeout=", "request-timeout=", "encoding=", "cqlshrc=", "ssl", "no-color", "color", "debug"),
		},
		query: []string{"-e", "--execute"},
		file:  []string{"-f", "--file"},
	}
)

func init() {
	client := func(c *sqlClient) func(*checker, cmdCtx) {
		return func(k *checker, x cmdCtx) { k.sqlClient(x, c) }
	}
	register(client(psqlClient), "psql")
	register(client(mysqlClient), "mysql", "mariadb")
	register(client(sqliteClient), "sqlite3", "sqlite", "duckdb")
	register(client(clickhouseClient), "clickhouse-client", "clickhouse-local")
	register(client(cockroachClient), "cockroach")
	register(client(cqlshClient), "cqlsh")
	register(client(usqlClient), "usql")
	register(client(executeClient), "mycli", "litecli", "trino")
	register(client(sqlcmdClient), "sqlcmd")
	register(client(snowsqlClient), "snowsql")
	register((*checker).bq, "bq")
	register((*checker).frameworkReset, "php", "artisan", "sequelize", "sequelize-cli", "typeorm", "mix", "alembic", "symfony", "console")
	register((*checker).clickhouse, "clickhouse")
	register((*checker).dropTool, "dropdb", "dropuser")
	register((*checker).mysqladmin, "mysqladmin", "mariadb-admin")
	register((*checker).redis, "redis-cli", "valkey-cli", "keydb-cli")
	register((*checker).mongo, "mongo", "mongosh")
	register((*checker).prisma, "prisma")
	register((*checker).rails, "rails", "rake")
	register((*checker).django, "manage.py", "django-admin", "django-admin.py")
}

// sqlClient finds the SQL a client will run and checks it.
func (k *checker) sqlClient(x cmdCtx, c *sqlClient) {
	args := x.args[1:]
	if c.sub != "" {
		p := parseArgs(args, &optSpec{posix: true})
		if p.operand(0) != c.sub {
			return
		}
		args = p.operands[1:]
	}
	p := parseArgs(args, c.spec)
	var texts []shell.Word
	for _, o := range p.values(c.query...) {
		texts = append(texts, shell.Word{Value: o.value, Dynamic: o.dynamic, Prefix: o.prefix})
	}
	if c.operandSQL > 0 && len(p.operands) > c.operandSQL {
		texts = append(texts, p.operands[c.operandSQL:]...)
	}
	files := p.values(c.file...)
	readsStdin := len(texts) == 0 && (len(files) == 0 || files[0].value == "-" || files[0].value == "/dev/stdin")
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

// clickhouse is the multi-call binary: "clickhouse client|local …".
func (k *checker) clickhouse(x cmdCtx) {
	if len(x.args) < 2 {
		return
	}
	switch x.args[1].Value {
	case "client", "local":
		k.sqlClient(cmdCtx{cmd: x.cmd, args: x.args[1:], name: x.name, depth: x.depth}, clickhouseClient)
	}
}

// dropTool: dropdb and dropuser (PostgreSQL) delete a database or a role.
func (k *checker) dropTool(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{
		short: shorts("eifh:p:U:wWV?"),
		long:  kinds("echo", "interactive", "if-exists", "force", "host=", "port=", "username=", "no-password", "password", "maintenance-db=", "version", "help"),
	})
	if len(p.operands) == 0 || p.has("-V", "--version", "-?", "--help") {
		return
	}
	what := "the database"
	if x.name == "dropuser" {
		what = "the role"
	}
	k.ask(x, "db.drop", catDB,
		x.name+" deletes "+what+" "+p.operand(0)+" outright",
		"Ask the user first and make sure a backup exists")
	k.protect("")
}

// mysqladmin: "drop DB" deletes a database.
func (k *checker) mysqladmin(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{
		short: shorts("c:h:i:p::P:S:u:O:fsvV#::"),
		long:  kinds("count=", "host=", "sleep=", "password=?", "port=", "socket=", "user=", "force", "silent", "verbose", "version", "defaults-file=", "login-path=", "protocol="),
	})
	for _, w := range p.operands {
		if strings.EqualFold(w.Value, "drop") {
			k.ask(x, "db.drop", catDB,
				"mysqladmin drop deletes a whole database",
				"Ask the user first and make sure a backup exists")
			k.protect("")
			return
		}
	}
}

var redisSpec = &optSpec{
	short: shorts("h:p:s:a:u:n:r:i:d:D:t:"),
	long: kinds("user=", "pass=", "sni=", "cacert=", "cacertdir=", "cert=", "key=", "tls-ciphers=",
		"tls-ciphersuites=", "rdb=", "functions-rdb=", "pattern=", "quoted-pattern=", "count=",
		"intrinsic-latency=", "lru-test=", "eval=", "memkeys-samples=", "cluster=", "tls",
		"insecure", "raw", "no-raw", "csv", "json", "quoted-json", "stat", "latency",
		"latency-history", "latency-dist", "bigkeys", "memkeys", "hotkeys", "scan", "pipe",
		"pipe-timeout=", "replica", "ldb", "ldb-sync-mode", "verbose", "no-auth-warning", "askpass"),
}

// redis: FLUSHALL and FLUSHDB delete every key, as an argument or as a line
// on stdin.
func (k *checker) redis(x cmdCtx) {
	p := parseArgs(x.args[1:], redisSpec)
	lines := [][]string{values(p.operands)}
	if len(p.operands) == 0 {
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

// mongoDestroy are the MongoDB shell calls that delete a database, a
// collection, users, or every document, spelled without white space and
// lower-cased.
var mongoDestroy = []string{".dropdatabase(", ".drop(", "deletemany({})", "deletemany()",
	".remove({})", ".dropallusers(", ".dropallroles(", "{dropdatabase:", "{drop:", "\"dropdatabase\":", "{\"drop\":"}

// mongo: --eval scripts and scripts on stdin.
func (k *checker) mongo(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{
		long:  kinds("eval=", "host=", "port=", "username=", "password=", "authenticationDatabase=", "file=", "apiVersion=", "tls", "quiet", "nodb", "shell", "norc"),
		short: shorts("u:p:f:"),
	})
	var scripts []string
	for _, o := range p.values("--eval") {
		scripts = append(scripts, o.value)
	}
	if len(scripts) == 0 && len(p.operands) <= 1 && len(p.values("-f", "--file")) == 0 {
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

// prisma: migrate reset and db push --force-reset drop the database.
func (k *checker) prisma(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{long: kinds("schema=")})
	reset := p.operand(0) == "migrate" && p.operand(1) == "reset" ||
		p.operand(0) == "db" && p.operand(1) == "push" && p.has("--force-reset", "--accept-data-loss")
	if !reset {
		return
	}
	k.ask(x, "db.framework-reset", catDB,
		"it drops and recreates the database, deleting all its data",
		"Use `prisma migrate dev` or `prisma migrate deploy`, which keep data, or ask the user")
	k.protect("")
}

// railsTasks are the tasks that drop or wipe the database.
var railsTasks = map[string]bool{
	"db:drop": true, "db:drop:all": true, "db:reset": true, "db:purge": true, "db:purge:all": true,
	"db:truncate_all": true, "db:migrate:reset": true, "db:schema:load": true, "db:structure:load": true,
	"db:seed:replant": true,
}

// rails: rails / rake database tasks that drop or wipe the database.
func (k *checker) rails(x cmdCtx) {
	for _, w := range x.args[1:] {
		task, _, _ := strings.Cut(w.Value, "[")
		if railsTasks[task] {
			k.ask(x, "db.framework-reset", catDB,
				task+" drops or wipes the database, deleting all its data",
				"Use `db:migrate`, which keeps data, or ask the user")
			k.protect("")
			return
		}
	}
}

// bq query runs its SQL operand (BigQuery).
func (k *checker) bq(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{long: kinds("project_id=", "location=", "format=", "max_rows=", "parameter=", "destination_table=", "dataset_id=")})
	if p.operand(0) != "query" {
		return
	}
	for _, w := range p.operands[1:] {
		if h, ok := scanSQL(w.Value); ok {
			k.sqlFinding(x, h)
			return
		}
	}
}

// frameworkResets are the framework commands that drop or wipe the whole
// database, as the words that follow the program (after "artisan" or
// "bin/console" for PHP).
var frameworkResets = map[string][][]string{
	"artisan":   {{"migrate:fresh"}, {"migrate:reset"}, {"migrate:refresh"}, {"db:wipe"}},
	"console":   {{"doctrine:database:drop"}, {"doctrine:schema:drop"}},
	"sequelize": {{"db:drop"}, {"db:migrate:undo:all"}},
	"typeorm":   {{"schema:drop"}},
	"mix":       {{"ecto.drop"}, {"ecto.reset"}},
	"alembic":   {{"downgrade", "base"}},
}

// frameworkReset: php artisan migrate:fresh, doctrine:database:drop,
// sequelize db:drop, typeorm schema:drop, mix ecto.reset, alembic
// downgrade base.
func (k *checker) frameworkReset(x cmdCtx) {
	name, args := x.name, values(x.args[1:])
	if name == "php" || name == "symfony" {
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		if len(args) == 0 {
			return
		}
		name, args = baseName(args[0]), args[1:]
	}
	name = strings.TrimSuffix(name, "-cli")
	var ops []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, strings.ToLower(a))
		}
	}
	for _, want := range frameworkResets[name] {
		if len(ops) >= len(want) && slices.Equal(ops[:len(want)], want) {
			k.ask(x, "db.framework-reset", catDB,
				strings.Join(want, " ")+" drops or wipes the database, deleting all its data",
				"Run the forward migrations only (`migrate`), or ask the user")
			k.protect("")
			return
		}
	}
}

// django: manage.py / django-admin flush and reset_db delete every row.
func (k *checker) django(x cmdCtx) {
	k.djangoCommand(x, x.args[1:])
}

// djangoCommand checks the words after manage.py or django-admin.
func (k *checker) djangoCommand(x cmdCtx, args []shell.Word) {
	p := parseArgs(args, &optSpec{long: kinds("settings=", "pythonpath="), posix: true})
	switch p.operand(0) {
	case "flush", "reset_db":
		k.ask(x, "db.framework-reset", catDB,
			"manage.py "+p.operand(0)+" deletes every row of the database",
			"Use `manage.py migrate`, which keeps data, or ask the user")
		k.protect("")
	}
}

// python: "python manage.py …" and "python -m django …".
func (k *checker) python(x cmdCtx) {
	args := x.args[1:]
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-m":
			if i+1 < len(args) && args[i+1].Value == "django" {
				k.djangoCommand(x, args[i+2:])
			}
			return
		case v == "-c":
			return
		case v == "-W" || v == "-X":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			if baseName(v) == "manage.py" {
				k.djangoCommand(x, args[i+1:])
			}
			return
		}
	}
}

// stdinText returns the static text fed to c's standard input by a heredoc,
// a here-string, or echo / printf upstream in its pipeline (through cat,
// tee, head and tail). Dynamic parts are left out; ok is false when nothing
// is known.
func stdinText(c *shell.Command) (string, bool) {
	if c == nil {
		return "", false
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
			var ws []string
			for i, w := range from.Args[1:] {
				if i == 0 && from.Name == "echo" && echoFlags(w.Value) {
					continue
				}
				ws = append(ws, w.Value)
			}
			parts = append(parts, strings.ReplaceAll(strings.Join(ws, " "), `\n`, "\n"))
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

// echoFlags reports whether v is an option word of echo (-n, -e, -E and
// their bundles); anything else echo prints.
func echoFlags(v string) bool {
	if len(v) < 2 || v[0] != '-' {
		return false
	}
	return strings.Trim(v[1:], "neE") == ""
}
