package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/toolwall/toolwall/host/amp"
	"github.com/toolwall/toolwall/host/opencode"
)

// Timeouts written into hosts' configurations: toolwall answers within
// its own 4 s deadline (host.DefaultTimeout), well inside them.
const (
	timeoutSeconds = 10
	timeoutMillis  = 10000
)

// host is one host's install.
type host struct {
	name string
	// dirs are directories under the home directory whose existence means
	// the host is on this machine; programs are its executables.
	dirs     []string
	programs []string
	// ops lists the files of an install for o with base directory b.
	ops func(o Options, b string) []op
	// note is printed after an install.
	note string
	// min is the earliest release toolwall guards fully and minWhy what
	// an earlier one lets through (doctor warns below it).
	min    Version
	minWhy string
	// moved is the host's user directory (dirs[0] under the home) when
	// an environment variable moves it elsewhere, "" when none does.
	moved func(o Options) string
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// claudeShape is the hooks object of Claude Code, Codex, Factory Droid
// and Qwen Code: {"hooks": {EVENT: [{"matcher", "hooks": [{"type":
// "command", "command", "timeout"}]}]}}.
func claudeShape(path, name string, timeout int, matcher string, pre, post []string, prompt string, extra map[string]any) op {
	return jsonOp{path: path, name: name, init: "{}\n", entries: func(cmd string) []entry {
		h := map[string]any{"type": "command", "command": cmd, "timeout": timeout}
		for k, v := range extra {
			h[k] = v
		}
		var out []entry
		for _, ev := range pre {
			out = append(out, entry{"hooks." + ev, js(map[string]any{"matcher": matcher, "hooks": []any{h}})})
		}
		plain := map[string]any{"type": "command", "command": cmd, "timeout": timeout}
		for _, ev := range post {
			out = append(out, entry{"hooks." + ev, js(map[string]any{"matcher": matcher, "hooks": []any{plain}})})
		}
		if prompt != "" {
			out = append(out, entry{"hooks." + prompt, js(map[string]any{"hooks": []any{plain}})})
		}
		return out
	}}
}

// flatShape is a hooks object whose events list flat entries:
// {"hooks": {EVENT: [ENTRY]}} (Cursor, Windsurf, Kiro, Copilot CLI).
func flatShape(path, name, init string, events []string, make func(event, cmd string) map[string]any) op {
	return jsonOp{path: path, name: name, init: init, entries: func(cmd string) []entry {
		var out []entry
		for _, ev := range events {
			out = append(out, entry{"hooks." + ev, js(make(ev, cmd))})
		}
		return out
	}}
}

func script(path, name string) op {
	return fileOp{path: path, name: name, mode: 0o755, content: func(bin string) string {
		return "#!/bin/sh\n# toolwall guard for Cline; written by `toolwall install cline`, removed by `toolwall uninstall cline`.\n# " +
			binaryTag + bin + "\nexec " + Command(bin, name) + "\n"
	}}
}

// psScript is a Cline hook for Windows: Cline on Windows runs only
// <HookName>.ps1 (the extension by `powershell -NoProfile
// -NonInteractive -ExecutionPolicy Bypass -File`, the CLI by `powershell
// -File`) and ignores extensionless hooks. The script hands its standard
// input to toolwall as UTF-8 and exits with toolwall's status; toolwall's
// answer is its output.
func psScript(path, name string) op {
	return fileOp{path: path, name: name, mode: 0o644, content: func(bin string) string {
		return "# toolwall guard for Cline; written by `toolwall install cline`, removed by `toolwall uninstall cline`.\r\n# " +
			binaryTag + bin + "\r\n" +
			"$utf8 = New-Object System.Text.UTF8Encoding $false\r\n" +
			"[Console]::InputEncoding = $utf8\r\n[Console]::OutputEncoding = $utf8\r\n$OutputEncoding = $utf8\r\n" +
			"$payload = [Console]::In.ReadToEnd()\r\n" +
			"$payload | & " + psQuote(bin) + " hook " + name + "\r\n" +
			"exit $LASTEXITCODE\r\n"
	}}
}

// psQuote quotes s as one PowerShell word (single quotes, a quote
// doubled).
func psQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// clineWindows reports whether Cline runs here as it does on Windows
// (PowerShell hook files only).
var clineWindows = func() bool { return runtime.GOOS == "windows" }

// windowsDocuments is the Documents folder the Cline extension uses on
// Windows: what PowerShell reports as MyDocuments (a folder moved by
// OneDrive included), "" when that cannot be asked.
var windowsDocuments = func() string {
	if runtime.GOOS != "windows" {
		return ""
	}
	out, err := exec.Command("powershell", "-NoProfile", "-Command", "[System.Environment]::GetFolderPath([System.Environment+SpecialFolder]::MyDocuments)").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// clineHooks are the hook files of Cline's hooks directory dir: the
// extensionless scripts Cline runs on Linux and macOS, or the .ps1 files
// it runs on Windows.
func clineHooks(dir string) []op {
	var out []op
	for _, ev := range []string{"PreToolUse", "PostToolUse", "UserPromptSubmit"} {
		if clineWindows() {
			out = append(out, psScript(filepath.Join(dir, ev+".ps1"), "cline"))
		} else {
			out = append(out, script(filepath.Join(dir, ev), "cline"))
		}
	}
	return out
}

// xdgUserDir reports whether the Cline extension asks xdg-user-dir for
// the Documents directory: on Linux, when the program is installed.
var xdgUserDir = func() bool {
	_, err := exec.LookPath("xdg-user-dir")
	return runtime.GOOS == "linux" && err == nil
}

// clineDocuments lists the Documents directories whose Cline/Hooks Cline
// reads: home/Documents (the CLI always; the extension elsewhere), and
// on Linux with xdg-user-dir the XDG documents directory the extension
// uses instead — XDG_DOCUMENTS_DIR of user-dirs.dirs, the home itself
// when it sets none (Cline's getDocumentsPath runs `xdg-user-dir
// DOCUMENTS`, which prints so).
func clineDocuments(home string) []string {
	docs := filepath.Join(home, "Documents")
	if clineWindows() {
		if w := windowsDocuments(); w != "" && filepath.Clean(w) != docs {
			return []string{docs, filepath.Clean(w)}
		}
		return []string{docs}
	}
	if !xdgUserDir() {
		return []string{docs}
	}
	conf := os.Getenv("XDG_CONFIG_HOME")
	if conf == "" {
		conf = filepath.Join(home, ".config")
	}
	xdg := home
	if b, err := os.ReadFile(filepath.Join(conf, "user-dirs.dirs")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			v, ok := strings.CutPrefix(strings.TrimSpace(line), "XDG_DOCUMENTS_DIR=")
			if !ok {
				continue
			}
			v = strings.Trim(v, `"`)
			if rest, ok := strings.CutPrefix(v, "$HOME"); ok {
				v = home + rest
			}
			if filepath.IsAbs(v) {
				xdg = filepath.Clean(v)
			}
		}
	}
	if xdg == docs {
		return []string{docs}
	}
	return []string{docs, xdg}
}

// plugin is a plugin file: src with the binary's path in place of
// "@TOOLWALL@" and the binary tag line first — after src's own first line
// when that is a "// @" directive the host needs to see first (Amp loads
// only plugins whose first line acknowledges its experimental API).
func plugin(path, name, src, comment string) op {
	return fileOp{path: path, name: name, mode: 0o644, content: func(bin string) string {
		q, _ := json.Marshal(bin)
		head := ""
		if strings.HasPrefix(src, "// @") {
			if i := strings.IndexByte(src, '\n'); i >= 0 {
				head, src = src[:i+1], src[i+1:]
			}
		}
		return head + comment + " " + binaryTag + bin + "\n" + strings.Replace(src, `"@TOOLWALL@"`, string(q), 1)
	}}
}

var hosts = []host{
	{name: "claude-code", dirs: []string{".claude"}, programs: []string{"claude"},
		min: Version{2, 1, 295}, minWhy: "it ignores the hook's onFailure: block, so a hook that crashes or times out lets the call through",
		ops: func(o Options, b string) []op {
			return []op{claudeShape(filepath.Join(b, ".claude", "settings.json"), "claude-code", timeoutSeconds, "*",
				[]string{"PreToolUse"}, []string{"PostToolUse", "PostToolUseFailure"}, "UserPromptSubmit", map[string]any{"onFailure": "block"})}
		}},
	{name: "codex", dirs: []string{".codex"}, programs: []string{"codex"},
		ops: func(o Options, b string) []op {
			return []op{claudeShape(filepath.Join(b, ".codex", "hooks.json"), "codex", timeoutSeconds, "Bash|apply_patch|Write|Edit|mcp__.*",
				[]string{"PreToolUse"}, []string{"PostToolUse"}, "UserPromptSubmit", map[string]any{"statusMessage": "toolwall"})}
		},
		note: "Codex asks you to review new hooks: open /hooks in Codex and trust toolwall's. A project's .codex/hooks.json is read only in a trusted project."},
	{name: "gemini", dirs: []string{".gemini"}, programs: []string{"gemini"},
		ops: func(o Options, b string) []op {
			return []op{jsonOp{path: filepath.Join(b, ".gemini", "settings.json"), name: "gemini", init: "{}\n", entries: func(cmd string) []entry {
				h := []any{map[string]any{"name": "toolwall", "type": "command", "command": cmd, "timeout": timeoutMillis}}
				return []entry{
					{"hooks.BeforeTool", js(map[string]any{"matcher": ".*", "hooks": h})},
					{"hooks.AfterTool", js(map[string]any{"matcher": ".*", "hooks": h})},
					{"hooks.BeforeAgent", js(map[string]any{"hooks": h})},
				}
			}}}
		},
		note: "Gemini CLI runs a project's hooks only in a trusted folder; releases before hooks were on by default need them switched on (hooksConfig.enabled, or tools.enableHooks in the oldest). Check with /hooks panel."},
	{name: "cursor", dirs: []string{".cursor"}, programs: []string{"cursor-agent", "cursor"},
		ops: func(o Options, b string) []op {
			blocking := map[string]bool{"preToolUse": true, "beforeShellExecution": true, "beforeMCPExecution": true, "beforeReadFile": true}
			return []op{flatShape(filepath.Join(b, ".cursor", "hooks.json"), "cursor", "{\"version\": 1, \"hooks\": {}}\n",
				[]string{"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "postToolUse", "afterShellExecution", "beforeSubmitPrompt"},
				func(ev, cmd string) map[string]any {
					e := map[string]any{"command": cmd, "timeout": timeoutSeconds}
					if blocking[ev] {
						e["failClosed"] = true
					}
					return e
				})}
		}},
	{name: "copilot", dirs: []string{".copilot"}, programs: []string{"copilot"}, moved: movedBy("COPILOT_HOME", ""),
		ops: func(o Options, b string) []op {
			p := filepath.Join(o.userDir("COPILOT_HOME", ".copilot"), "hooks", "toolwall.json")
			if o.Project != "" {
				p = filepath.Join(o.Project, ".github", "hooks", "toolwall.json")
			}
			return []op{flatShape(p, "copilot", "{\"version\": 1, \"hooks\": {}}\n", []string{"preToolUse", "postToolUse", "userPromptSubmitted"},
				func(ev, cmd string) map[string]any {
					return map[string]any{"type": "command", "bash": cmd, "powershell": cmd, "timeoutSec": timeoutSeconds}
				})}
		},
		note: "Copilot CLI reads a repository's .github/hooks only once the folder is trusted."},
	{name: "opencode", dirs: []string{".config/opencode"}, programs: []string{"opencode"}, moved: movedBy("XDG_CONFIG_HOME", "opencode"),
		ops: func(o Options, b string) []op {
			// OpenCode 1.x and 2 both load *.js from plugin/ and plugins/;
			// 1.x runs named export functions (the V1 API), 2 only a
			// default export {id, setup}. The plugin written is the one
			// the installed OpenCode runs; the other of toolwall's files
			// is taken out. Unknown version: both, which coexist (2 logs
			// the V1 file as a plugin that failed to load; a 1.x that
			// reads a default {id, server} export runs the V2 file's
			// no-op server(), an older 1.x reports it broken).
			dir := filepath.Join(o.userDir("XDG_CONFIG_HOME", ".config"), "opencode")
			if o.Project != "" {
				dir = filepath.Join(o.Project, ".opencode")
			}
			v1 := plugin(filepath.Join(dir, "plugin", "toolwall.js"), "opencode", opencode.Plugin, "//")
			v2 := plugin(filepath.Join(dir, "plugins", "toolwall.js"), "opencode", opencode.PluginV2, "//")
			v, ok := o.version("opencode")
			switch {
			case !ok:
				return []op{v1, v2}
			case v[0] >= 2:
				return []op{v2, retired{v1.(fileOp), "OpenCode " + v.String() + " does not run V1 plugins"}}
			default:
				return []op{v1, retired{v2.(fileOp), "OpenCode " + v.String() + " runs the V1 plugin"}}
			}
		},
		note: "The OpenCode plugin follows the installed major version (opencode --version): install again after moving between OpenCode 1.x and 2."},
	{name: "cline", dirs: []string{"Documents/Cline", ".cline"}, programs: []string{"cline"},
		ops: func(o Options, b string) []op {
			if o.Project != "" {
				return clineHooks(filepath.Join(o.Project, ".clinerules", "hooks"))
			}
			// The extension and the CLI both read ~/Documents/Cline/Hooks
			// (the CLI ~/.cline/hooks as well): one set of scripts there
			// guards both, each call judged once. Earlier installs also
			// wrote ~/.cline/hooks/PreToolUse.sh, which made the CLI run
			// toolwall twice per call; it is taken out. Where the
			// extension's Documents directory is another one (see
			// clineDocuments), the scripts go there as well.
			var out []op
			for _, docs := range clineDocuments(o.Home) {
				out = append(out, clineHooks(filepath.Join(docs, "Cline", "Hooks"))...)
			}
			return append(out, retired{script(filepath.Join(o.Home, ".cline", "hooks", "PreToolUse.sh"), "cline").(fileOp), "an earlier install's duplicate hook (the Cline CLI reads ~/Documents/Cline/Hooks too, and ran toolwall twice per call)"})
		},
		note: "In the Cline extension, turn on Settings → Features → Enable Hooks. A refusal stops Cline's whole task, not only the call. On Windows the hooks are PreToolUse.ps1, PostToolUse.ps1 and UserPromptSubmit.ps1 (the only form Cline runs there)."},
	{name: "windsurf", dirs: []string{".codeium/windsurf"}, programs: []string{"windsurf"},
		ops: func(o Options, b string) []op {
			// The Windsurf (Devin Desktop) IDE reads ~/.codeium/windsurf/
			// hooks.json, its JetBrains plugin ~/.codeium/hooks.json
			// (docs.windsurf.com/windsurf/cascade/hooks, "User-level"):
			// the user install writes both.
			files := []string{filepath.Join(o.Home, ".codeium", "windsurf", "hooks.json"), filepath.Join(o.Home, ".codeium", "hooks.json")}
			if o.Project != "" {
				files = []string{filepath.Join(o.Project, ".windsurf", "hooks.json")}
			}
			var out []op
			for _, p := range files {
				out = append(out, flatShape(p, "windsurf", "{\"hooks\": {}}\n",
					[]string{"pre_run_command", "pre_write_code", "pre_read_code", "pre_mcp_tool_use", "post_run_command", "post_write_code", "post_mcp_tool_use", "pre_user_prompt"},
					func(ev, cmd string) map[string]any { return map[string]any{"command": cmd, "show_output": true} }))
			}
			return out
		}},
	{name: "factory", dirs: []string{".factory"}, programs: []string{"droid"},
		ops: func(o Options, b string) []op {
			return []op{claudeShape(filepath.Join(b, ".factory", "hooks.json"), "factory", timeoutSeconds, "*",
				[]string{"PreToolUse"}, []string{"PostToolUse"}, "UserPromptSubmit", nil)}
		},
		note: "Droid takes up hooks written outside it only after you review them in /hooks (docs.factory.ai hooks reference, Configuration Safety): open /hooks in Droid and accept toolwall's. Droid applies the first hook that decides: keep toolwall's PreToolUse entry the only deciding one."},
	{name: "kiro", dirs: []string{".kiro"}, programs: []string{"kiro-cli", "kiro"},
		ops: func(o Options, b string) []op {
			dir := filepath.Join(b, ".kiro", "agents")
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			sort.Strings(files)
			if len(files) == 0 {
				files = []string{filepath.Join(dir, "toolwall.json")}
			}
			var out []op
			for _, f := range files {
				init := "{}\n"
				if filepath.Base(f) == "toolwall.json" {
					init = "{\"name\": \"toolwall\", \"description\": \"Kiro's tools, every call checked by toolwall\", \"tools\": [\"*\"], \"hooks\": {}}\n"
				}
				out = append(out, flatShape(f, "kiro", init, []string{"preToolUse", "postToolUse", "userPromptSubmit"},
					func(ev, cmd string) map[string]any {
						e := map[string]any{"command": cmd, "timeout_ms": timeoutMillis}
						if ev != "userPromptSubmit" {
							e["matcher"] = "*"
						}
						return e
					}))
			}
			return out
		},
		note: "Kiro runs hooks of the agent in use: toolwall is added to every agent in .kiro/agents (a toolwall agent is created when there is none: `kiro-cli chat --agent toolwall`, or make it the default with `kiro-cli settings chat.defaultAgent toolwall`). Install again after adding an agent."},
	{name: "qwen", dirs: []string{".qwen"}, programs: []string{"qwen"},
		ops: func(o Options, b string) []op {
			return []op{claudeShape(filepath.Join(b, ".qwen", "settings.json"), "qwen", timeoutMillis, ".*",
				[]string{"PreToolUse"}, []string{"PostToolUse"}, "UserPromptSubmit", nil)}
		}},
	{name: "amp", dirs: []string{".config/amp"}, programs: []string{"amp"},
		ops: func(o Options, b string) []op {
			p := filepath.Join(o.Home, ".config", "amp", "plugins", "toolwall.ts")
			if o.Project != "" {
				p = filepath.Join(o.Project, ".amp", "plugins", "toolwall.ts")
			}
			return []op{plugin(p, "amp", amp.Plugin, "//")}
		},
		note: "Amp runs plugins only when started with PLUGINS=all (ampcode.com/manual/plugin-api); without it nothing is checked. The plugin API is experimental."},
}

// opsFor returns host h's ops for o, each knowing o.Binary as toolwall's.
func opsFor(h host, o Options) []op {
	ops := h.ops(o, o.base())
	for i, x := range ops {
		switch v := x.(type) {
		case jsonOp:
			v.self = o.Binary
			ops[i] = v
		case fileOp:
			v.self = o.Binary
			ops[i] = v
		case retired:
			v.self = o.Binary
			ops[i] = v
		}
	}
	return ops
}

func lookup(name string) (host, error) {
	for _, h := range hosts {
		if h.name == name {
			return h, nil
		}
	}
	return host{}, fmt.Errorf("unknown host %q", name)
}

// Hosts lists the hosts install knows, in the order docs/hosts.md lists them.
func Hosts() []string {
	var out []string
	for _, h := range hosts {
		out = append(out, h.name)
	}
	return out
}

// Files lists, relative to the base directory (the home for a user's
// install, the project for --project), every file an install writes
// toolwall's hook into, for every host ("/" separated).
func Files(project bool) []string {
	base := "/base"
	o := Options{Home: base}
	if project {
		o.Project = base
	}
	var out []string
	for _, h := range hosts {
		for _, x := range opsFor(h, o) {
			if _, gone := x.(retired); gone {
				continue // a file install takes out, not one it writes
			}
			if rel, ok := strings.CutPrefix(filepath.ToSlash(x.file()), base+"/"); ok && !slices.Contains(out, rel) {
				out = append(out, rel)
			}
		}
	}
	return out
}

// Note returns what a person must still do after installing host name
// ("" when nothing).
func Note(name string) string {
	h, _ := lookup(name)
	return h.note
}

// Supported returns the earliest release of host name toolwall guards
// fully and why an earlier one is not (zero when every release is).
func Supported(name string) (Version, string) {
	h, _ := lookup(name)
	return h.min, h.minWhy
}

// CheckVersion reads host name's installed version (o.Version) and
// returns it, whether it could be read, and a warning when it is older
// than Supported.
func CheckVersion(name string, o Options) (Version, bool, string) {
	min, why := Supported(name)
	if min == (Version{}) {
		return Version{}, false, ""
	}
	v, ok := HostVersion(name, o)
	if !ok || !v.Less(min) {
		return v, ok, ""
	}
	return v, ok, fmt.Sprintf("%s %s is older than %s: %s; update it", name, v, min, why)
}

func check(o Options) error {
	if !filepath.IsAbs(o.Home) || o.Project != "" && !filepath.IsAbs(o.Project) || !filepath.IsAbs(o.Binary) {
		return errors.New("install: home, project and binary must be absolute paths")
	}
	return nil
}

// Install writes toolwall's hook into host name's configuration and
// returns what it changed (nothing when it was installed already).
func Install(name string, o Options) ([]Change, error) {
	h, err := lookup(name)
	if err != nil {
		return nil, err
	}
	if err := check(o); err != nil {
		return nil, err
	}
	var out []Change
	var errs []error
	for _, x := range opsFor(h, o) {
		changed, what, err := x.install(o, o.Binary)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if changed {
			out = append(out, Change{x.file(), what})
		}
	}
	return out, errors.Join(errs...)
}

// Uninstall takes toolwall's hook out of host name's configuration (see
// the package documentation) and returns what it changed.
func Uninstall(name string, o Options) ([]Change, error) {
	h, err := lookup(name)
	if err != nil {
		return nil, err
	}
	if o.Binary == "" {
		o.Binary = "/toolwall"
	}
	if err := check(o); err != nil {
		return nil, err
	}
	var out []Change
	var errs []error
	for _, x := range opsFor(h, o) {
		changed, what, err := x.uninstall()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", x.file(), err))
			continue
		}
		if changed {
			out = append(out, Change{x.file(), what})
			for _, d := range pruneDirs(filepath.Dir(x.file()), h.userDirs(o), o.base()) {
				out = append(out, Change{d, "removed (left empty)"})
			}
		}
	}
	return out, errors.Join(errs...)
}

// pruneDirs removes dir and its parents while they are empty, up to the
// host's own directory it lies in (one of dirs under base: ".kiro",
// "Documents/Cline", never "Documents" or base itself), and returns what
// it removed. Left empty, a host's directory makes the host look
// installed on a machine that never had it (doctor, Found).
func pruneDirs(dir string, dirs []string, base string) []string {
	var out []string
	for _, d := range dirs {
		root := under(base, d)
		if dir != root && !strings.HasPrefix(dir, root+string(filepath.Separator)) {
			continue
		}
		for p := dir; ; p = filepath.Dir(p) {
			if os.Remove(p) != nil {
				break
			}
			out = append(out, p)
			if p == root {
				break
			}
		}
	}
	return out
}

// movedBy is a host's user directory moved by environment variable k:
// sub under the directory k names, when it is set.
func movedBy(k, sub string) func(Options) string {
	return func(o Options) string {
		if o.env(k) == "" {
			return ""
		}
		return filepath.Join(o.userDir(k, ""), sub)
	}
}

// userDirs are the host's directories for o: dirs, relative to the base,
// the first one replaced by the absolute directory an environment
// variable moves it to.
func (h host) userDirs(o Options) []string {
	dirs := slices.Clone(h.dirs)
	if h.moved != nil && len(dirs) > 0 {
		if d := h.moved(o); d != "" {
			dirs[0] = d
		}
	}
	return dirs
}

// under joins d to base unless d is absolute.
func under(base, d string) string {
	if filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(base, d)
}

// Found reports whether host name is on this machine: one of its
// directories under o.Home (or where the host's environment variable
// moves it) exists, or one of its programs is on the PATH.
func Found(name string, o Options) bool {
	h, err := lookup(name)
	if err != nil {
		return false
	}
	for _, d := range h.userDirs(o) {
		if st, err := os.Stat(under(o.Home, d)); err == nil && st.IsDir() {
			return true
		}
	}
	for _, p := range h.programs {
		if _, err := exec.LookPath(p); err == nil {
			return true
		}
	}
	return false
}

// Find lists toolwall's hooks in host name's user configuration and, when
// o.Project is set, the project's.
func Find(name string, o Options) []Hook {
	h, err := lookup(name)
	if err != nil {
		return nil
	}
	var out []Hook
	user := o
	user.Project = ""
	for _, x := range opsFor(h, user) {
		out = append(out, x.find()...)
	}
	if o.Project != "" {
		for _, x := range opsFor(h, o) {
			out = append(out, x.find()...)
		}
	}
	return out
}
