package provenance

import (
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"
)

// autoRun lists the places a tool runs later without anyone running them
// by name: what is written there is judged as the commands it holds,
// whatever route wrote it. A name with a "/" matches the file's parent
// directory's name and the file ("*": any file there).
var autoRun = []struct {
	name string
	how  string
	body func(string) string
}{
	{".envrc", "direnv runs it on entering the directory", nil},
	{".husky/*", "git runs it as a hook (husky)", nil},
	{"hooks/*", "git runs it as a hook", nil},
	{".githooks/*", "git runs it as a hook", nil},
	{"package.json", "npm, pnpm, yarn and bun run its scripts on install, test and run", packageScripts},
	{"Makefile", "make runs its recipes", recipes},
	{"makefile", "make runs its recipes", recipes},
	{"GNUmakefile", "make runs its recipes", recipes},
	{"conftest.py", "pytest imports it on every run", nil},
	{"setup.py", "pip runs it when it installs the project", nil},
	{"build.rs", "cargo runs it on every build", nil},
}

// AutoRun reports whether p is a place a tool runs later (a git hook,
// .envrc, package.json's scripts, a makefile, conftest.py), how, and the
// commands content written there would run: the scripts of a
// package.json, the recipes of a makefile, the file itself otherwise.
func AutoRun(p, content string) (how, body string, ok bool) {
	base := path.Base(p)
	dir := path.Base(path.Dir(p))
	for _, a := range autoRun {
		d, f, nested := strings.Cut(a.name, "/")
		if nested && dir == d && (f == "*" || f == base) || !nested && base == a.name {
			if d == "hooks" && path.Base(path.Dir(path.Dir(p))) != ".git" {
				continue
			}
			if a.body != nil {
				return a.how, a.body(content), true
			}
			return a.how, content, true
		}
	}
	return "", "", false
}

var scriptValue = regexp.MustCompile(`"[^"\\]*"\s*:\s*"((?:[^"\\]|\\.)*)"`)

// packageScripts returns the scripts of a package.json, one a line; of a
// fragment that is not a whole JSON document (an edit), every quoted
// value after a key.
func packageScripts(s string) string {
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	var lines []string
	if json.Unmarshal([]byte(s), &pkg) == nil {
		for _, v := range pkg.Scripts {
			lines = append(lines, v)
		}
		slices.Sort(lines)
		return strings.Join(lines, "\n")
	}
	for _, m := range scriptValue.FindAllStringSubmatch(s, 64) {
		var v string
		if json.Unmarshal([]byte(`"`+m[1]+`"`), &v) == nil {
			lines = append(lines, v)
		}
	}
	return strings.Join(lines, "\n")
}

// recipes returns a makefile's recipe lines, without their tab and the
// @, - and + prefixes.
func recipes(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "\t") {
			lines = append(lines, strings.TrimLeft(l, "\t@-+ "))
		}
	}
	return strings.Join(lines, "\n")
}
