package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids reported by [Analyzer]. Ids are stable: users switch rules off
// and hosts log by them.
const (
	// RuleApprovalsOff (deny): an agent launched with its approvals off.
	RuleApprovalsOff = "agents.approvals-off"
	// RuleAutoApprove (deny): a settings write that auto-approves tools or
	// changes the permission mode.
	RuleAutoApprove = "agents.auto-approve"
	// RuleMCPServer (deny): a settings write or an agent CLI that adds MCP
	// servers; a launch with --mcp-config asks.
	RuleMCPServer = "agents.mcp-server"
	// RuleHooks (deny): a settings write that adds or switches off hooks.
	RuleHooks = "agents.hooks"
	// RuleSettingsCommand (ask): a setting whose value is a command the
	// agent host runs (statusLine, apiKeyHelper).
	RuleSettingsCommand = "agents.settings-command"
	// RuleWeaken (ask): an edit that takes deny or ask rules or hooks out.
	RuleWeaken = "agents.weaken"
	// RuleSettingsUnseen (ask): a shell write to agent settings whose
	// content cannot be seen.
	RuleSettingsUnseen = "agents.settings-unseen"
)

// Analyzer stops an agent giving itself or another agent more power:
// approvals switched off at launch, and settings that auto-approve
// tools, add MCP servers or hooks, or change the permission mode. It
// judges Bash, Write, Edit and MultiEdit calls; in RootContext it
// reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:  "agents",
	Rules: rules,
	Doc: "agents refuses launching an AI coding agent with its approvals switched off (claude --dangerously-skip-permissions, " +
		"gemini --yolo, codex --dangerously-bypass-approvals-and-sandbox, …) and writes to agent and IDE settings that " +
		"auto-approve tools, add MCP servers or hooks, or change permission modes; ordinary settings edits pass.",
	Tools: []string{toolwall.ToolBash, toolwall.ToolWrite, toolwall.ToolEdit, toolwall.ToolMultiEdit},
	Run:   run,
}

const (
	denyScore = 0.95
	askScore  = 0.6
	category  = "agent-power"
)

type checker struct {
	in   *analysis.Input
	r    *analysis.Report
	seen map[string]bool
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	if in == nil || r == nil || in.Call.IsRoot() {
		return
	}
	k := &checker{in: in, r: r}
	if in.Call.Tool != toolwall.ToolBash {
		k.file()
		return
	}
	if in.Script == nil {
		return
	}
	for _, c := range in.Script.Commands {
		if c == nil || len(c.Args) == 0 {
			continue
		}
		k.launch(c)
		if !c.Remote {
			k.shellWrites(c)
			k.code(c)
		}
	}
}

func (k *checker) add(act toolwall.Action, rule, reason string) {
	if k.seen[rule] {
		return
	}
	if k.seen == nil {
		k.seen = map[string]bool{}
	}
	k.seen[rule] = true
	score := denyScore
	if act == toolwall.Ask {
		score = askScore
	}
	k.r.Add(toolwall.Finding{Rule: rule, Category: category, Score: score, Action: act, Reason: reason})
}

// clip collapses white space and bounds s to 160 bytes.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// report turns a settings finding into the finding of its rule; what
// quotes the call, p is the settings file.
func (k *checker) report(f finding, what, p string) {
	switch f.power {
	case powerApprove:
		k.add(toolwall.Deny, RuleAutoApprove, fmt.Sprintf(
			"%s was refused: it changes %s so that tools run without asking or the permission mode changes (%s); an agent must not give itself or another agent more power. Tell the user the exact setting and let them make the change.",
			what, p, clip(f.key)))
	case powerMCP:
		k.add(toolwall.Deny, RuleMCPServer, fmt.Sprintf(
			"%s was refused: it adds an MCP server to %s (%s); each server is a program the agent starts and a set of tools it can call. Tell the user which server you need and let them add it.",
			what, p, clip(f.key)))
	case powerHooks:
		k.add(toolwall.Deny, RuleHooks, fmt.Sprintf(
			"%s was refused: it adds, changes or switches off hooks in %s (%s); hooks run commands on every tool call, and toolwall itself is one. Tell the user the hook you need and let them add it.",
			what, p, clip(f.key)))
	case powerCommand:
		k.add(toolwall.Ask, RuleSettingsCommand, fmt.Sprintf(
			"%s needs confirmation: it sets %s in %s, a command the agent host runs by itself. Confirm the command with the user.",
			what, clip(f.key), p))
	}
}

// file judges a Write, Edit or MultiEdit of a settings file by the text
// it writes (and, for edits, the text it replaces).
func (k *checker) file() {
	call := k.in.Call
	p, ok := call.Field("file_path")
	if !ok || p == "" {
		return
	}
	p = paths.Abs(paths.Expand(p, call.Home), call.Cwd)
	kd := settingsKind(p, call.Home)
	if kd == notSettings {
		return
	}
	what := call.Tool + " of " + p
	var olds, news []string
	switch call.Tool {
	case toolwall.ToolWrite:
		s, _ := call.Field("content")
		news = append(news, s)
	case toolwall.ToolEdit:
		o, _ := call.Field("old_string")
		n, _ := call.Field("new_string")
		olds, news = append(olds, o), append(news, n)
	case toolwall.ToolMultiEdit:
		var in struct {
			Edits []struct {
				Old string `json:"old_string"`
				New string `json:"new_string"`
			} `json:"edits"`
		}
		if json.Unmarshal(call.Input, &in) != nil {
			k.add(toolwall.Ask, RuleSettingsUnseen, fmt.Sprintf(
				"%s needs confirmation: its edits of %s, an agent's settings, cannot be read. Confirm the change with the user.", what, p))
			return
		}
		for _, e := range in.Edits {
			olds, news = append(olds, e.Old), append(news, e.New)
		}
	}
	for i, n := range news {
		k.report(judgeText(kd, n), what, p)
		if i < len(olds) {
			if key, ok := weakens(olds[i], n); ok {
				k.add(toolwall.Ask, RuleWeaken, fmt.Sprintf(
					"%s needs confirmation: it takes %q out of %s, which removes rules or hooks that hold the agent back. Confirm the change with the user.",
					what, key, p))
			}
		}
	}
}

// launch judges an agent CLI started by c: its approvals-off options,
// its mode options by value, and "mcp add".
func (k *checker) launch(c *shell.Command) {
	v := c.Inv
	pr := v.Program()
	if pr == nil || !agentCLI(pr.Root().Name) {
		return
	}
	what := "`" + clip(c.String()) + "`"
	off := func(why string) {
		k.add(toolwall.Deny, RuleApprovalsOff, fmt.Sprintf(
			"%s was refused: it starts %s with its approvals switched off (%s), so every tool call it makes runs without anyone asking; an agent must not give another agent more power than it has. Start it with its default approvals, or ask the user to run it.",
			what, pr.Root().Name, why))
	}
	for _, o := range v.Opts {
		if o.Name == "approvals-off" {
			off(o.Spelling)
			return
		}
	}
	for _, m := range v.Values("approval-mode") {
		switch strings.ToLower(m.Value) {
		case "bypasspermissions", "yolo":
			off(m.Value)
			return
		}
	}
	for _, t := range v.Values("allowed-tools", "allow-tool") {
		for _, tool := range strings.FieldsFunc(t.Value, func(r rune) bool { return r == ',' || r == ' ' }) {
			switch strings.ToLower(tool) {
			case "bash", "bash(*)", "shell", "shell(*)", "*":
				off("every " + tool + " command allowed")
				return
			}
		}
	}
	never, full := false, false
	for _, a := range v.Values("ask-for-approval") {
		never = never || strings.EqualFold(a.Value, "never")
	}
	for _, s := range v.Values("sandbox") {
		full = full || strings.EqualFold(s.Value, "danger-full-access")
	}
	for _, cv := range v.Values("config") {
		key, val, _ := strings.Cut(strings.ToLower(cv.Value), "=")
		val = strings.Trim(strings.TrimSpace(val), `"'`)
		switch strings.TrimSpace(key) {
		case "approval_policy":
			never = never || val == "never"
		case "sandbox_mode":
			full = full || val == "danger-full-access"
		}
		if f := judgeText(kindCodex, strings.ReplaceAll(cv.Value, "=", " = ")); f.power == powerMCP || f.power == powerHooks {
			k.report(f, what, "the agent's configuration")
		}
	}
	if never && full {
		off("-a never with -s danger-full-access")
		return
	}
	for _, s := range v.Values("settings") {
		if f := judgeText(kindClaude, s.Value); f.power != powerNone {
			if f.power == powerApprove {
				off("--settings " + clip(f.key))
				return
			}
			k.report(f, what, "the agent's --settings")
		}
	}
	if v.Has("hook-trust-off") {
		k.report(finding{power: powerHooks, key: "--dangerously-bypass-hook-trust"}, what, "the agent's hooks")
	}
	for _, a := range v.Values("autonomy") {
		if strings.EqualFold(a.Value, "high") {
			k.add(toolwall.Ask, RuleApprovalsOff, fmt.Sprintf(
				"%s needs confirmation: it starts droid with --auto high, which runs high-risk commands without asking. Confirm with the user, or use a lower level.", what))
		}
	}
	if len(v.Values("mcp-config")) > 0 {
		k.add(toolwall.Ask, RuleMCPServer, fmt.Sprintf(
			"%s needs confirmation: it starts %s with extra MCP servers (--mcp-config), programs it will start and whose tools it can call. Confirm the servers with the user.",
			what, pr.Root().Name))
	}
	if pr.Name == "add" && pr.Parent != nil && pr.Parent.Name == "mcp" {
		k.report(finding{power: powerMCP, key: pr.Path()}, what, pr.Root().Name+"'s MCP servers")
	}
	if pr.Parent != nil && pr.Parent.Name == "config" && len(v.Operands) > 0 {
		// claude config set|add KEY VALUE: the key is a setting's name.
		key := strings.ToLower(v.Operand(0).Value)
		if f := judgeText(kindClaude, `"`+key+`": "`+strings.ToLower(v.Operand(1).Value)+`"`); f.power != powerNone && pr.Name != "get" && pr.Name != "list" {
			k.report(f, what, "the agent's settings")
		}
	}
}

// agentCLI reports the catalog entries of AI coding agents
// (programs/catalog/agents.txt).
func agentCLI(root string) bool {
	switch root {
	case "claude", "gemini", "qwen", "codex", "q", "copilot", "cursor-agent", "amp", "aider", "droid", "agy":
		return true
	}
	return false
}

// shellWrites judges what c writes into agent settings files: static
// text (echo, printf, a heredoc, the sed or jq program that makes it) by
// its content, anything else as unseen.
func (k *checker) shellWrites(c *shell.Command) {
	for _, e := range c.Effects {
		switch e.Kind {
		case shell.Writes, shell.Appends, shell.Modifies, shell.Links:
		default:
			continue
		}
		if e.Remote || e.Path == "" {
			continue
		}
		kd := settingsKind(e.Path, k.in.Call.Home)
		if kd == notSettings {
			continue
		}
		what := "`" + clip(c.String()) + "`"
		text, program, seen := writtenText(c, e)
		if !seen {
			k.add(toolwall.Ask, RuleSettingsUnseen, fmt.Sprintf(
				"%s needs confirmation: it writes %s, an agent's settings, with content that cannot be read here; settings can auto-approve tools, add MCP servers or hooks. Write the settings with the Edit tool so the change can be checked, or confirm it with the user.",
				what, e.Path))
			continue
		}
		f := judgeText(kd, text)
		if program {
			f = judgeCode(text)
		}
		k.report(f, what, e.Path)
		if program && f.power == powerNone {
			if key, ok := protectiveWords(text); ok {
				k.add(toolwall.Ask, RuleWeaken, fmt.Sprintf(
					"%s needs confirmation: its program touches %q in %s: rules or hooks that hold the agent back. Confirm the change with the user.",
					what, key, e.Path))
			}
		}
	}
}

// writtenText returns the text a command writes into the file of effect
// e when it can be read here: a heredoc or here-string fed to cat or
// tee, echo or printf arguments (also piped into tee or sponge), or the
// program that makes it: sed -i's script, jq's filter with its output
// redirected there (program is then set). seen is false otherwise.
func writtenText(c *shell.Command, e shell.Effect) (text string, program, seen bool) {
	root := ""
	if p := c.Inv.Program(); p != nil {
		root = p.Root().Name
	}
	join := func(ws []shell.Word) (string, bool, bool) {
		var parts []string
		for _, w := range ws {
			if w.Dynamic {
				return "", true, false
			}
			parts = append(parts, w.Value)
		}
		return strings.Join(parts, "\n"), true, len(parts) > 0
	}
	switch {
	case e.Kind == shell.Modifies && root == "sed":
		return join(append(c.Inv.ValuesOf(programs.Code), c.Inv.OperandsOf(programs.Code)...))
	case e.Role == programs.Unknown && root == "jq":
		return join(c.Args[1:])
	case e.Role == programs.Unknown || root == "tee" || root == "sponge":
		if t, ok := static(c); ok {
			return t, false, true
		}
		if (root == "tee" || root == "sponge") && c.Stdin.Kind == shell.StdinPipe && c.Stdin.From != nil {
			t, ok := static(c.Stdin.From)
			return t, false, ok
		}
	}
	return "", false, false
}

// static is the text c prints when it is static: echo or printf of
// literal words, cat or tee of a static heredoc or here-string.
func static(c *shell.Command) (string, bool) {
	switch c.Name {
	case "echo", "printf":
		var words []string
		for _, w := range c.Args[1:] {
			if w.Dynamic {
				return "", false
			}
			words = append(words, w.Value)
		}
		return strings.Join(words, " "), true
	case "cat", "tee":
		if c.Stdin.Kind == shell.StdinHeredoc && !c.Stdin.Dynamic {
			return c.Stdin.Text, true
		}
	}
	return "", false
}

// code judges inline interpreter code (an option's or operand's code, or
// a heredoc the interpreter reads as its program) that names a settings
// file: code
// that also holds a key giving power is judged by it; otherwise the
// change it makes cannot be read here and asks.
func (k *checker) code(c *shell.Command) {
	pr := c.Inv.Program()
	if pr == nil || pr.Lang == "" || pr.Lang == "sh" {
		return
	}
	var parts []string
	for _, w := range append(c.Inv.ValuesOf(programs.Code), c.Inv.OperandsOf(programs.Code)...) {
		parts = append(parts, w.Value)
	}
	if c.Stdin.Kind == shell.StdinHeredoc && !c.Stdin.Dynamic && len(parts) == 0 {
		parts = append(parts, c.Stdin.Text) // python3 - <<'EOF' … EOF: the program comes on stdin
	}
	text := strings.Join(parts, "\n")
	if !mentions(text) {
		return
	}
	what := "`" + clip(c.String()) + "`"
	if f := judgeCode(text); f.power != powerNone {
		k.report(f, what, "an agent's settings")
		return
	}
	if !writesFile(text) {
		return // reads them
	}
	k.add(toolwall.Ask, RuleSettingsUnseen, fmt.Sprintf(
		"%s needs confirmation: its %s code writes an agent's settings file, and what it changes cannot be read here. Use the Edit tool so the change can be checked, or confirm it with the user.",
		what, pr.Lang))
}
