package ops

import "github.com/toolwall/toolwall/shell"

// runner describes a program that runs another program's argv: a package
// runner (npx prisma …) or an environment wrapper (bundle exec rails …).
type runner struct {
	// subs are the subcommands that introduce the argv ("exec", "dlx");
	// empty when the argv follows the runner's options directly.
	subs []string
	// direct is set when the runner also runs a bin named as its first
	// operand without a subcommand (yarn prisma …, pnpm prisma …).
	direct bool
	// spec reads the runner's own options.
	spec *optSpec
}

var runners = map[string]runner{
	"npx":    {spec: &optSpec{short: shorts("yqp:c:"), long: kinds("yes", "no", "quiet", "package=", "call=", "registry=", "cache=", "prefix=", "ignore-existing"), posix: true}},
	"pnpx":   {spec: &optSpec{short: shorts("yp:"), long: kinds("yes", "package="), posix: true}},
	"bunx":   {spec: &optSpec{short: shorts("p:"), long: kinds("bun", "package=", "silent", "verbose", "no-install"), posix: true}},
	"npm":    {subs: []string{"exec", "x"}, spec: &optSpec{short: shorts("yp:c:w:"), long: kinds("yes", "no", "package=", "call=", "workspace=", "prefix=", "registry="), posix: true}},
	"pnpm":   {subs: []string{"dlx", "exec", "x"}, direct: true, spec: &optSpec{short: shorts("C:F:r"), long: kinds("dir=", "filter=", "package=", "recursive", "silent", "shell-mode", "workspace-root"), posix: true}},
	"yarn":   {subs: []string{"dlx", "exec", "run"}, direct: true, spec: &optSpec{short: shorts("p:q"), long: kinds("cwd=", "package=", "quiet", "silent"), posix: true}},
	"bun":    {subs: []string{"x", "run", "exec"}, spec: &optSpec{long: kinds("cwd=", "bun", "silent", "filter="), posix: true}},
	"bundle": {subs: []string{"exec"}, spec: &optSpec{long: kinds("gemfile=", "keep-file-descriptors"), posix: true}},
	"uv":     {subs: []string{"run"}, spec: &optSpec{short: shorts("p:"), long: kinds("with=", "python=", "project=", "directory=", "env-file=", "extra=", "group=", "package=", "index=", "isolated", "no-project", "frozen", "locked", "all-extras", "no-sync"), posix: true}},
	"uvx":    {spec: &optSpec{short: shorts("p:"), long: kinds("with=", "python=", "from="), posix: true}},
	"poetry": {subs: []string{"run"}, spec: &optSpec{short: shorts("C:P:"), long: kinds("directory=", "project="), posix: true}},
	"pipenv": {subs: []string{"run"}, spec: &optSpec{posix: true}},
	"pdm":    {subs: []string{"run"}, spec: &optSpec{posix: true}},
	"hatch":  {subs: []string{"run"}, spec: &optSpec{short: shorts("e:"), long: kinds("env="), posix: true}},
}

func init() {
	for name := range runners {
		register((*checker).runner, name)
	}
}

// runner checks the argv a runner runs. Options (and a "--") are skipped
// with the runner's spec, and the subcommand, if any, is dropped.
func (k *checker) runner(x cmdCtx) {
	r := runners[x.name]
	p := parseArgs(x.args[1:], r.spec)
	argv := p.operands
	if len(r.subs) > 0 {
		if len(argv) == 0 {
			return
		}
		found := false
		for _, s := range r.subs {
			if argv[0].Value == s {
				found = true
			}
		}
		switch {
		case found:
			argv = parseArgs(argv[1:], r.spec).operands
		case !r.direct:
			return
		}
	}
	if len(argv) > 0 {
		argv = append([]shell.Word{stripVersion(argv[0])}, argv[1:]...)
	}
	k.inner(x, argv)
}

// stripVersion turns "prisma@5" (a package spec) into "prisma"; a scoped
// "@scope/pkg@1" keeps its scope.
func stripVersion(w shell.Word) shell.Word {
	v := w.Value
	start := 0
	if len(v) > 0 && v[0] == '@' {
		start = 1
	}
	for i := start; i < len(v); i++ {
		if v[i] == '@' {
			w.Value = v[:i]
			return w
		}
	}
	return w
}
