package self

import (
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// RuleUnhook (deny): a call would empty, remove or strip toolwall's hook
// from an agent host's settings where it is registered.
const RuleUnhook = "self.unhook"

// hooks says which settings files hold toolwall's hook for one call.
type hooks struct {
	// known are the files found holding it (an installed engine reads the
	// hosts' settings); nil when unknown.
	known []string
	// presumed are the user's settings files `toolwall install` writes
	// (absolute), presumed to hold it when nothing is known.
	presumed []string
	// in, when set, lists the project's settings files holding it
	// (read only when a call changes one).
	in      func(project string) []string
	project string
}

// holds reports whether settings file f holds toolwall's hook: a file
// written for toolwall alone (its name says toolwall: a plugin, a hooks
// file of its own), a file found holding it, or, when nothing was looked
// up, a user's settings file the install writes.
func (h hooks) holds(f string) bool {
	if namesToolwall(path.Base(f)) {
		return true
	}
	if h.known != nil || h.in != nil {
		return slices.Contains(h.known, f) || h.in != nil && h.project != "" && slices.Contains(h.in(h.project), f)
	}
	return slices.Contains(h.presumed, f)
}

// empties reports whether effect e of command c leaves its file gone,
// empty or without toolwall's name: a delete, a move away, a truncation
// to size 0, /dev/null copied, linked or written over it, or a write
// redirect of a command that prints nothing (: > f, true > f) or text
// known in full that does not name toolwall (echo '{}' > f, a heredoc
// to cat).
func empties(c *shell.Command, e shell.Effect) bool {
	switch e.Kind {
	case shell.Deletes:
		return true
	case shell.Moves:
		return e.Role == programs.Move
	case shell.Writes, shell.Modifies, shell.Links:
	default:
		return false
	}
	for _, w := range tail(c) {
		if !w.Dynamic && (w.Value == "/dev/null" || w.Value == "/dev/zero") {
			return true
		}
	}
	if v := c.Inv; v != nil && v.Program() != nil && v.Program().Root().Name == "truncate" {
		for _, s := range v.Values("size") {
			if n := strings.TrimLeft(s.Value, "<>/%"); !s.Dynamic && strings.Trim(n, "0") == "" && n != "" {
				return true
			}
		}
	}
	if e.Role != programs.Unknown || !strings.Contains(e.From, ">") || strings.Contains(e.From, ">>") {
		return false // not a redirect that replaces the file
	}
	switch c.Name {
	case "", ":", "true", "false":
		return true
	case "echo", "printf":
		// Text known in full that does not name toolwall replaces the
		// hook's entries with something else ('{}', a new object).
		for _, w := range tail(c) {
			if w.Dynamic || namesToolwall(w.Value) {
				return false
			}
		}
		return true
	case "cat":
		if len(c.Args) > 1 {
			return false
		}
		for _, r := range c.Redirects {
			if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
				body := r.Body
				if r.Op == "<<<" {
					if r.Target.Dynamic {
						return false
					}
					body = r.Target.Value
				}
				return !namesToolwall(body)
			}
		}
	}
	return false
}

// dropping matches code that takes hooks out of a settings file: jq's
// del(.hooks…), an assignment of nothing to .hooks, sed deleting the
// lines that name toolwall or substituting the name away, Python's
// pop("hooks") or del s["hooks"], JavaScript's delete s.hooks, and the switches that turn every hook
// off (disableAllHooks = true, Gemini CLI's hooksConfig.enabled or
// tools.enableHooks = false).
var dropping = regexp.MustCompile(`(?i)del\s*\(\s*\.hooks|delpaths\s*\(\s*\[\s*\[\s*"hooks"|\.hooks(\.\w+)?\s*\|?=\s*(\{\s*\}|\[\s*\]|null|empty)|/[^/]*toolwall[^/]*/\s*d|s([/|#,])[^/|#,]*toolwall[^/|#,]*([/|#,])([/|#,]|g)|pop\(\s*["']hooks|del\s+\w+(\[[^\]]*\])*\[\s*["']hooks|delete\s+\w+(\.\w+)*\.hooks|disableallhooks["'\]]*\s*\|?[=:]\s*true|(hooksconfig\.enabled|enablehooks)["'\]]*\s*\|?[=:]\s*false`)

// editors are programs whose arguments hold the edit they make to a
// file (a filter, a script, inline code).
var editors = map[string]bool{
	"jq": true, "yq": true, "gojq": true, "jaq": true, "sed": true, "gsed": true, "perl": true, "python": true, "node": true,
	"ruby": true, "awk": true, "gawk": true, "mawk": true, "ex": true, "vim": true, "nvim": true, "vi": true, "deno": true, "bun": true,
}

// dropsHooks reports whether c's arguments hold code that takes hooks
// out of a settings file, or an editor's code that names toolwall (an
// edit of toolwall's own entries: taken out, or pointed at another
// program).
func dropsHooks(c *shell.Command) bool {
	editor := false
	if c.Inv != nil && c.Inv.Program() != nil {
		editor = editors[c.Inv.Program().Root().Name]
	}
	for _, w := range tail(c) {
		if w.Dynamic || len(w.Value) >= 8192 {
			continue
		}
		if dropping.MatchString(w.Value) || editor && namesToolwall(w.Value) {
			return true
		}
	}
	return false
}

// unhooks reports whether a file tool call leaves settings file f
// without toolwall's hook: a Write whose content no longer names
// toolwall, an Edit or MultiEdit that takes the name out.
func unhooks(call toolwall.Call) bool {
	switch call.Tool {
	case toolwall.ToolWrite:
		content, ok := call.Field("content")
		return ok && !namesToolwall(content)
	case toolwall.ToolEdit:
		old, _ := call.Field("old_string")
		repl, _ := call.Field("new_string")
		return dropsName(old, repl)
	case toolwall.ToolMultiEdit:
		var in struct {
			Edits []struct {
				Old string `json:"old_string"`
				New string `json:"new_string"`
			} `json:"edits"`
		}
		if json.Unmarshal(call.Input, &in) != nil {
			return false
		}
		for _, e := range in.Edits {
			if dropsName(e.Old, e.New) {
				return true
			}
		}
	}
	return false
}

// dropsName reports whether replacing old by repl changes toolwall's
// entries: the lines that name toolwall differ (one taken out, or its
// command pointed elsewhere).
func dropsName(old, repl string) bool {
	return !slices.Equal(named(old), named(repl))
}

// named are the lines of s that name toolwall, trimmed, in order.
func named(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.ToLower(s), "\n") {
		if strings.Contains(l, "toolwall") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// tail is c's arguments after the command word (none for a bare
// redirect).
func tail(c *shell.Command) []shell.Word {
	if len(c.Args) < 2 {
		return nil
	}
	return c.Args[1:]
}

// reportUnhook refuses taking toolwall's hook out of a host's settings.
func reportUnhook(r *analysis.Report, what, target, owner string) {
	r.Add(toolwall.Finding{Rule: RuleUnhook, Category: "self", Score: 0.95, Action: toolwall.Deny,
		Reason: what + " was refused: it would empty or remove " + target + ", " + owner +
			"'s settings where toolwall's hook is registered, or take out or change the hook's entries there; without them the host runs every tool call unchecked, or runs another program in toolwall's place. Edit other settings and leave toolwall's entries as they are; if the hook must change, ask the user (toolwall install, toolwall uninstall)."})
}

// toolwallCommand judges toolwall's own commands that change the hooks:
// `toolwall uninstall` takes them out (refused), `toolwall install
// --binary X` or an install run from another copy of toolwall points
// them at another program (refused), a plain `toolwall install` writes
// the hosts' settings (asked). toolwall-hook runs toolwall's commands,
// and go run of toolwall's main package is toolwall too.
func toolwallCommand(c *shell.Command, own []string, r *analysis.Report) bool {
	if c.Remote || len(c.Args) == 0 || c.Args[0].Dynamic {
		return false
	}
	args := tail(c)
	name := c.Name
	if name == "go" && len(args) > 1 && args[0].Value == "run" {
		for i, w := range args[1:] {
			if !strings.HasPrefix(w.Value, "-") {
				name, args = path.Base(strings.TrimSuffix(w.Value, "/")), args[i+2:]
				break
			}
		}
	}
	if name != "toolwall" && name != "toolwall-hook" {
		return false
	}
	sub, rest := "", []shell.Word(nil)
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if v == "--config" {
			i++
			continue
		}
		if !strings.HasPrefix(v, "-") {
			sub, rest = v, args[i+1:]
			break
		}
	}
	what := c.Shown()
	switch sub {
	case "uninstall":
		r.Add(toolwall.Finding{Rule: RuleUnhook, Category: "self", Score: 0.95, Action: toolwall.Deny,
			Reason: what + " was refused: it takes toolwall's hook out of the agent hosts' settings, and the host then runs every tool call unchecked. Only the user uninstalls toolwall; ask them."})
		return true
	case "install":
		// A copy run by its path is toolwall's own when it is one of
		// toolwall's binaries (~/go/bin/toolwall).
		other := name != c.Name || strings.Contains(c.Args[0].Value, "/") && !slices.Contains(own, paths.Abs(c.Args[0].Value, c.Cwd))
		for _, w := range rest {
			other = other || w.Dynamic || w.Value == "--binary" || strings.HasPrefix(w.Value, "--binary=")
		}
		if other {
			r.Add(toolwall.Finding{Rule: RuleUnhook, Category: "self", Score: 0.95, Action: toolwall.Deny,
				Reason: what + " was refused: it points the hosts' hook at a program the call chooses (--binary, or a copy of toolwall run by its path), which then decides every tool call. Only the user installs toolwall; ask them."})
			return true
		}
		r.Add(toolwall.Finding{Rule: RuleSettings, Category: "self", Score: 0.6, Action: toolwall.Ask,
			Reason: what + " needs confirmation: it writes toolwall's hook into the agent hosts' settings. Ask the user to confirm it."})
		return true
	}
	return false
}

// namesToolwall reports whether s holds "toolwall" in any case, as
// strings.Contains(strings.ToLower(s), "toolwall") does (no rune beyond
// ASCII lowers to one of its letters), without copying s.
func namesToolwall(s string) bool {
	const name = "toolwall"
	for i := 0; i+len(name) <= len(s); i++ {
		if s[i]|0x20 != 't' {
			continue
		}
		j := 1
		for j < len(name) && s[i+j]|0x20 == name[j] {
			j++
		}
		if j == len(name) {
			return true
		}
	}
	return false
}
