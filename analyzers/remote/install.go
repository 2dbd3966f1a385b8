package remote

import (
	"fmt"
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// packageArgs returns the package operands c installs as root, when c is
// a package manager's install: dpkg -i/--unpack, rpm -i/-U/-F, apt and
// apt-get install of a path, dnf/yum/zypper install of a URL or path,
// pacman -U, brew install of a formula file or URL.
func packageArgs(c *shell.Command) []shell.Word {
	v := c.Inv
	p := v.Program()
	if p == nil {
		return nil
	}
	switch p.Root().Name {
	case "dpkg":
		if v.Has("install", "unpack") {
			return v.OperandsOf(programs.Read)
		}
	case "rpm":
		if v.Has("install", "upgrade", "freshen") {
			return v.OperandsOf(programs.None)
		}
	case "pacman":
		if v.Has("upgrade") {
			return v.OperandsOf(programs.None)
		}
	case "apt", "dnf", "zypper", "brew":
		if len(v.SubNames) == 0 {
			return nil
		}
		switch v.SubNames[0] {
		case "install", "reinstall", "localinstall", "upgrade", "update", "downgrade", "in":
			var out []shell.Word
			for _, w := range v.OperandsOf(programs.None) {
				if isURL(w.Value) || packagePath(w.Value) {
					out = append(out, w)
				}
			}
			return out
		}
	}
	return nil
}

// isURL reports an operand that names a remote package.
func isURL(v string) bool {
	l := strings.ToLower(v)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "ftp://")
}

// packagePath reports an operand of apt, dnf, zypper or brew install that
// is a file rather than a package name: a path, or a package file's name.
func packagePath(v string) bool {
	if strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") {
		return true
	}
	for _, ext := range [...]string{".deb", ".rpm", ".rb", ".pkg.tar.zst", ".pkg.tar.xz", ".apk"} {
		if strings.HasSuffix(v, ext) {
			return true
		}
	}
	return false
}

// packages judges package installs: a package fetched from a URL, or
// downloaded earlier in the same call, installed with its maintainer
// scripts run as root is refused (remote.package-install); every package
// file installed is tagged install-package for the chain that finds it
// downloaded in an earlier call.
func (a *analyzer) packages(i int, c *shell.Command) {
	if c.Remote {
		return
	}
	for _, w := range packageArgs(c) {
		if w.Dynamic {
			continue
		}
		if isURL(w.Value) {
			a.add(RulePackageInstall, categoryRemote, toolwall.Deny, fmt.Sprintf(
				"%s was refused: it installs a package straight from %s, and installing runs the package's own scripts as root, unread. Install from the distribution's signed repositories by name, or download the package, show the user what it is, and let them install it.",
				quote(c.String()), w.Value))
			continue
		}
		p := paths.Abs(paths.Expand(w.Value, a.in.Call.Home), a.cwd(c))
		a.r.Tag(toolwall.TagInstallPackage, p, c.Name)
		for _, d := range a.dls {
			if d.path == p && d.i < i {
				a.add(RulePackageInstall, categoryRemote, toolwall.Deny, fmt.Sprintf(
					"%s was refused: it installs %s, which this call downloaded, and installing runs the package's own scripts as root, unread. Install from the distribution's signed repositories by name, or let the user review the package and install it.",
					quote(c.String()), p))
			}
		}
	}
}

// buildTool reports whether buildInputs knows the program root: the
// cases of its switch (for any other it returns nothing).
func buildTool(root string) bool {
	switch root {
	case "make", "npm", "pnpm", "yarn", "bun", "pytest", "python", "pip", "go", "cargo":
		return true
	}
	return false
}

// buildInputs lists the files a build or test tool runs as code from its
// directory: make's makefiles (GNUmakefile, makefile, Makefile, in -C's
// directory), package.json for npm, pnpm, yarn and bun installs and
// scripts, conftest.py files and test modules for pytest (also python -m
// pytest), setup.py and pyproject.toml for pip install of a directory,
// main.go for go run of a package, build.rs for cargo builds. Keep the
// roots of its switch in buildTool.
func buildInputs(c *shell.Command, cwd string) []string {
	v := c.Inv
	p := v.Program()
	if p == nil || cwd == "" {
		return nil
	}
	dir := cwd
	for _, o := range v.Opts {
		if o.Role == programs.Cd && o.HasValue {
			if w := v.Value(o); !w.Dynamic {
				dir = paths.Abs(w.Value, cwd)
			}
		}
	}
	in := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, path.Join(dir, n))
		}
		return out
	}
	switch root := p.Root().Name; root {
	case "make":
		if len(v.Values("file")) > 0 {
			return nil // -f FILE is run as code: exec-local
		}
		return in("GNUmakefile", "makefile", "Makefile")
	case "npm", "pnpm", "yarn", "bun":
		// install (npm's group holds ci, test, start, rebuild) runs
		// lifecycle scripts, run runs a script; yarn alone installs
		switch {
		case p.Parent == nil && root == "yarn":
		case p.Parent != nil && (p.Name == "install" || p.Name == "run"):
		default:
			return nil
		}
		for _, d := range v.Values("prefix") {
			if !d.Dynamic {
				dir = paths.Abs(d.Value, cwd)
			}
		}
		return in("package.json")
	case "pytest":
		return pytestInputs(v, dir)
	case "python":
		for _, m := range v.Values("module") {
			if m.Value == "pytest" {
				return pytestInputs(v, dir)
			}
		}
	case "pip":
		if !v.Sub("install") {
			return nil
		}
		var out []string
		targets := v.Values("editable")
		for _, w := range v.OperandsOf(programs.None, programs.Package) {
			if w.Value == "." || strings.HasPrefix(w.Value, "./") || strings.HasPrefix(w.Value, "/") || strings.HasPrefix(w.Value, "../") {
				targets = append(targets, w)
			}
		}
		for _, t := range targets {
			if t.Dynamic || isURL(t.Value) || strings.Contains(t.Value, "+") {
				continue
			}
			d := paths.Abs(t.Value, cwd)
			out = append(out, path.Join(d, "setup.py"), path.Join(d, "pyproject.toml"))
		}
		return out
	case "go":
		if v.Sub("run") {
			for _, w := range v.OperandsOf(programs.Exec) {
				if !w.Dynamic && !strings.HasSuffix(w.Value, ".go") {
					return []string{path.Join(paths.Abs(w.Value, cwd), "main.go")}
				}
			}
			if len(v.OperandsOf(programs.Exec)) == 0 {
				return in("main.go")
			}
		}
	case "cargo":
		if len(v.SubNames) > 0 {
			switch v.SubNames[0] {
			case "build", "b", "run", "r", "test", "t", "check", "c", "bench":
				return in("build.rs")
			}
		}
	}
	return nil
}

// pytestInputs: conftest.py in the directory and in every directory
// operand, and each test file operand itself.
func pytestInputs(v *shell.Invocation, dir string) []string {
	out := []string{path.Join(dir, "conftest.py")}
	for _, w := range v.OperandsOf(programs.None) {
		if w.Dynamic || strings.HasPrefix(w.Value, "-") {
			continue
		}
		f, _, _ := strings.Cut(w.Value, "::")
		p := paths.Abs(f, dir)
		if strings.HasSuffix(p, ".py") {
			out = append(out, p, path.Join(path.Dir(p), "conftest.py"))
		} else {
			out = append(out, path.Join(p, "conftest.py"))
		}
	}
	return out
}

// build tags the files a build or test tool runs as code; a file this
// call downloaded and then hands to such a tool is download-exec in one
// call.
func (a *analyzer) build(i int, c *shell.Command) {
	if c.Remote || c.Inv.Program() == nil {
		return
	}
	if !buildTool(rootName(c)) {
		return // no inputs; its key could only match its own root's
	}
	key := rootName(c) + "\x00" + a.cwd(c) + "\x00" + c.String()
	if a.built[key] {
		return // make && make test: the same files
	}
	if a.built == nil {
		a.built = map[string]bool{}
	}
	a.built[key] = true
	for _, p := range buildInputs(c, a.cwd(c)) {
		if a.built[p] {
			continue // make && make test: one tag for the file
		}
		if a.built == nil {
			a.built = map[string]bool{}
		}
		a.built[p] = true
		a.r.Tag(toolwall.TagBuildInput, p, c.Name)
		a.execs = append(a.execs, pathAt{p, i})
	}
}
