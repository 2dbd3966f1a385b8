package agents

import (
	"path"
	"strings"
)

// kind is the family of an agent or IDE settings file.
type kind uint8

const (
	notSettings kind = iota
	kindClaude
	kindVSCode
	kindCursor
	kindKiro
	kindGemini
	kindCodex
	kindAmp
	kindCopilot
	kindAider
	kindZed
	kindOpenCode
	kindContinue
	kindDroid
	kindMCP   // an MCP server list (.mcp.json, mcp.json, mcp_config.json)
	kindHooks // a file that is itself a hook definition (.kiro/hooks/*, .cursor/hooks.json)
)

// settingsKind says whether p (absolute, clean) is an agent or IDE
// settings file, and which. home is the user's home.
func settingsKind(p, home string) kind {
	l := strings.ToLower(p)
	base := path.Base(l)
	dir := path.Dir(l)
	comps := strings.Split(l, "/")
	in := func(d string) bool {
		for _, c := range comps[:len(comps)-1] {
			if c == d {
				return true
			}
		}
		return false
	}
	switch {
	case base == ".mcp.json" || base == "mcp.json" || base == "mcp_config.json" || base == "mcp-config.json" ||
		base == "cline_mcp_settings.json" || strings.HasPrefix(base, "mcp") && strings.HasSuffix(base, ".json") && in(".continue"):
		return kindMCP
	case in(".claude") && (base == "settings.json" || base == "settings.local.json"),
		home != "" && l == strings.ToLower(home)+"/.claude.json",
		base == "managed-settings.json" || base == "managed-mcp.json":
		return kindClaude
	case in(".cursor") && base == "hooks.json", in(".kiro") && in("hooks"):
		return kindHooks
	case in(".cursor") && (strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".jsonc")):
		return kindCursor
	case in(".kiro") && (in("settings") || in("agents")):
		return kindKiro
	case (in(".gemini") || in(".qwen")) && base == "settings.json":
		return kindGemini
	case in(".codex") && (base == "config.toml" || base == "hooks.json"):
		return kindCodex
	case base == "settings.json" && (path.Base(dir) == ".vscode" || path.Base(dir) == "user" &&
		(strings.Contains(dir, "/code/") || strings.Contains(dir, "/code - insiders/") || strings.Contains(dir, "/vscodium/") ||
			strings.Contains(dir, "/cursor/") || strings.Contains(dir, "/windsurf/"))),
		strings.HasSuffix(base, ".code-workspace"):
		return kindVSCode
	case base == "settings.json" && (strings.HasSuffix(dir, "/.config/amp") || strings.HasSuffix(dir, "/.amp")):
		return kindAmp
	case in(".copilot") && strings.HasSuffix(base, ".json"):
		return kindCopilot
	case base == ".aider.conf.yml" || base == ".aider.conf.yaml":
		return kindAider
	case base == "settings.json" && (strings.HasSuffix(dir, "/.config/zed") || strings.HasSuffix(dir, "/.zed")):
		return kindZed
	case base == "opencode.json" || base == "opencode.jsonc" || in(".opencode") && strings.HasSuffix(base, ".json"):
		return kindOpenCode
	case in(".continue") && (strings.HasPrefix(base, "config.") || in("mcpservers")):
		return kindContinue
	case in(".factory") && strings.HasSuffix(base, ".json"):
		return kindDroid
	case in(".windsurf") && strings.HasSuffix(base, ".json"):
		return kindCursor
	}
	return notSettings
}

// power is what a settings text gives an agent, weakest first.
type power uint8

const (
	powerNone    power = iota
	powerCommand       // a setting whose value is a command the host runs (ask)
	powerHooks         // hooks added or switched off (deny)
	powerMCP           // MCP servers added (deny)
	powerApprove       // tools auto-approved or the permission mode changed (deny)
)

// finding is the strongest power a text holds, with the key that shows
// it.
type finding struct {
	power power
	key   string
}

// kv is one key of a settings text with the scalar value written after
// it ("" when the value is an object, a list or absent), lower case.
type kv struct {
	key, value string
}

// maxText bounds how much of a text is read (settings files are small).
const maxText = 256 << 10

// keysOf reads the keys of JSON, JSONC, YAML and TOML text (also
// fragments, as an Edit's new_string is): "key": value, key: value, key =
// value, [table.name] and [[table.name]] headers (each dotted part a
// key); and the JSON string values, as keys with value "=".
func keysOf(text string) []kv {
	if len(text) > maxText {
		text = text[:maxText]
	}
	var out []kv
	// JSON strings: a key when a colon follows, else a value.
	for i := 0; i < len(text); i++ {
		if text[i] != '"' {
			continue
		}
		s, end := jsonString(text, i)
		i = end
		j := skipSpace(text, end+1)
		if j < len(text) && text[j] == ':' {
			out = append(out, kv{key: strings.ToLower(s), value: scalar(text, skipSpace(text, j+1))})
		} else {
			out = append(out, kv{key: "=", value: strings.ToLower(s)})
		}
	}
	// YAML and TOML lines.
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		t = strings.TrimSpace(strings.TrimPrefix(t, "- "))
		if strings.HasPrefix(t, "[") && !strings.HasPrefix(t, "[\"") {
			h := strings.Trim(t, "[] \t")
			if strings.ContainsAny(h, "{},:\"") {
				continue
			}
			for _, part := range strings.Split(h, ".") {
				out = append(out, kv{key: strings.ToLower(strings.TrimSpace(part))})
			}
			continue
		}
		n := 0
		for n < len(t) && (t[n] == '_' || t[n] == '-' || t[n] == '.' || t[n] >= 'a' && t[n] <= 'z' || t[n] >= 'A' && t[n] <= 'Z' || t[n] >= '0' && t[n] <= '9') {
			n++
		}
		if n == 0 || n == len(t) {
			continue
		}
		rest := strings.TrimLeft(t[n:], " \t")
		if rest == "" || rest[0] != ':' && rest[0] != '=' {
			continue
		}
		v := strings.TrimSpace(rest[1:])
		v = strings.Trim(v, `"'`)
		if strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") {
			v = ""
		}
		out = append(out, kv{key: strings.ToLower(t[:n]), value: strings.ToLower(v)})
	}
	return out
}

// jsonString reads the JSON string starting at text[i] (a quote) and
// returns its content and the index of its closing quote (or the end).
func jsonString(text string, i int) (string, int) {
	var b strings.Builder
	for j := i + 1; j < len(text); j++ {
		switch c := text[j]; c {
		case '\\':
			if j+1 < len(text) {
				j++
				b.WriteByte(text[j])
			}
		case '"':
			return b.String(), j
		case '\n':
			return b.String(), j
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), len(text)
}

func skipSpace(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

// scalar reads a JSON scalar value at text[i]: a string's content, or a
// literal (true, false, a number); "" for an object or a list.
func scalar(text string, i int) string {
	if i >= len(text) {
		return ""
	}
	if text[i] == '"' {
		s, _ := jsonString(text, i)
		return strings.ToLower(s)
	}
	if text[i] == '[' || text[i] == '{' {
		if j := skipSpace(text, i+1); j < len(text) && (text[j] == ']' || text[j] == '}') {
			return "[]" // an empty list or object
		}
		return ""
	}
	j := i
	for j < len(text) && !strings.ContainsRune(",}]\n\r \t", rune(text[j])) {
		j++
	}
	return strings.ToLower(text[i:j])
}

// falsy reports a value that switches a setting off.
func falsy(v string) bool {
	switch v {
	case "false", "0", "off", "no", "never", "none", "[]", "{}":
		return true
	}
	return false
}

// judgeText says what power a settings text of kind k gives.
func judgeText(k kind, text string) finding {
	best := finding{}
	up := func(p power, key string) {
		if p > best.power {
			best = finding{power: p, key: key}
		}
	}
	if k == kindHooks && strings.TrimSpace(text) != "" {
		up(powerHooks, "a hook definition")
	}
	for _, x := range keysOf(text) {
		key, v := x.key, x.value
		short := key
		if i := strings.LastIndexByte(key, '.'); i >= 0 && i < len(key)-1 {
			short = key[i+1:]
		}
		switch {
		case key == "=":
			if v == "allow" {
				up(powerApprove, `"allow"`)
			}
		case approveKey(key, short):
			if !falsy(v) {
				up(powerApprove, key)
			}
		case short == "defaultmode" || short == "permission_mode" || short == "permissionmode":
			if v != "" && v != "default" && v != "plan" {
				up(powerApprove, key+" "+v)
			}
		case short == "approval_policy" || short == "approvalpolicy" || short == "approval-mode" || short == "approvalmode" || short == "approval_mode":
			if v == "never" || v == "yolo" || v == "bypasspermissions" {
				up(powerApprove, key+" "+v)
			}
		case short == "sandbox_mode" || short == "sandboxmode" || short == "sandbox":
			if v == "danger-full-access" || v == "disabled" || v == "off" {
				up(powerApprove, key+" "+v)
			}
		case short == "trust" || short == "trust_level" || short == "trustlevel":
			if v == "true" || v == "trusted" {
				up(powerApprove, key+" "+v)
			}
		case mcpKey(key, short, k):
			if !falsy(v) {
				up(powerMCP, key)
			}
		case hookKey(short, k):
			up(powerHooks, key)
		case short == "statusline" || strings.HasSuffix(short, "helper") || short == "awsauthrefresh" || short == "awscredentialexport" ||
			short == "command" && k != kindMCP:
			up(powerCommand, key)
		}
	}
	return best
}

// approveKey reports keys that list tools to run without asking or widen
// what an agent may touch.
func approveKey(key, short string) bool {
	switch short {
	case "allow", "allowed", "allowedtools", "allowed_tools", "alwaysallow", "always_allow", "always_allow_tool_actions",
		"autoaccept", "auto_accept", "additionaldirectories", "trusted_folders", "trustedfolders", "trust_all_tools",
		"trustalltools", "skipdangerousmodepermissionprompt", "yes-always", "yes_always", "allowed_urls", "allowedurls":
		return true
	}
	return strings.Contains(key, "autoapprove") || strings.Contains(key, "auto_approve") || strings.Contains(key, "dangerously")
}

// mcpKey reports keys that add MCP servers.
func mcpKey(key, short string, k kind) bool {
	switch short {
	case "mcpservers", "mcp_servers", "context_servers", "enableallprojectmcpservers", "enabledmcpjsonservers":
		return true
	case "servers":
		return k == kindMCP || strings.Contains(key, "mcp")
	case "mcp":
		return true
	}
	if k == kindMCP && (short == "command" || short == "url" || short == "args") {
		return true
	}
	return strings.HasPrefix(key, "chat.mcp.") || strings.HasPrefix(key, "mcp.")
}

// hookKey reports keys that add, change or switch off hooks.
func hookKey(short string, k kind) bool {
	switch short {
	case "hooks", "disableallhooks", "pretooluse", "posttooluse", "posttoolusefailure", "userpromptsubmit", "sessionstart",
		"sessionend", "subagentstop", "precompact", "beforeshellexecution", "beforemcpexecution", "afterfileedit",
		"beforereadfile", "beforesubmitprompt":
		return true
	case "notify":
		return k == kindCodex
	}
	return false
}

// protective reports keys that keep an agent from doing things: deny and
// ask rules, excluded tools, hooks.
func protective(text string) map[string]bool {
	out := map[string]bool{}
	for _, x := range keysOf(text) {
		switch x.key {
		case "deny", "ask", "disallowedtools", "disallowed_tools", "excludetools", "exclude_tools", "hooks", "pretooluse":
			out[x.key] = true
		}
	}
	return out
}

// weakens reports whether an edit from old to new takes a protective key
// out: one old holds and new does not.
func weakens(old, new string) (string, bool) {
	if old == "" {
		return "", false
	}
	was, now := protective(old), protective(new)
	for k := range was {
		if !now[k] {
			return k, true
		}
	}
	return "", false
}

// mentions reports whether code names a settings file of one of the
// agents by its path (as written in code: "~/.claude/settings.json",
// ".mcp.json", HOME + "/.codex/config.toml").
func mentions(code string) bool {
	l := strings.ToLower(code)
	for _, s := range [...]string{".claude/settings", ".claude.json", ".mcp.json", "mcp.json", ".vscode/settings.json", ".cursor/",
		".kiro/settings", ".gemini/settings.json", ".codex/config.toml", ".aider.conf.yml", "opencode.json", "mcp_config.json"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// judgeCode says what power program text that edits settings gives
// (inline Python or Node.js code, a jq filter): its string literals
// ('…' or "…") and the names in its property paths (.permissions.allow,
// c.mcpServers.x) read as setting names, and a literal value that only
// a power-giving setting takes (bypassPermissions, "allow").
func judgeCode(code string) finding {
	if len(code) > maxText {
		code = code[:maxText]
	}
	var names []string
	for i := 0; i < len(code); i++ {
		switch q := code[i]; {
		case q == '"' || q == '\'':
			j := strings.IndexByte(code[i+1:], q)
			if j < 0 {
				i = len(code)
				continue
			}
			names = append(names, code[i+1:i+1+j])
			i += j + 1
		case q == '.':
			j := i + 1
			for j < len(code) && (code[j] == '_' || code[j] >= 'a' && code[j] <= 'z' || code[j] >= 'A' && code[j] <= 'Z' || j > i+1 && code[j] >= '0' && code[j] <= '9') {
				j++
			}
			if j > i+1 {
				names = append(names, code[i+1:j])
			}
			i = j - 1
		}
	}
	best := finding{}
	for _, n := range names {
		l := strings.ToLower(n)
		p := powerNone
		switch {
		case l == "bypasspermissions" || l == "allow" || l == "danger-full-access" || l == "yolo" || approveKey(l, l):
			p = powerApprove
		case l == "mcpservers" || l == "mcp_servers" || l == "context_servers" || l == "enableallprojectmcpservers" || l == "enabledmcpjsonservers":
			p = powerMCP
		case l == "hooks" || l == "disableallhooks" || l == "pretooluse" || l == "posttooluse":
			p = powerHooks
		}
		if p > best.power {
			best = finding{power: p, key: n}
		}
	}
	return best
}

// writesFile reports program text that writes a file (open(…, 'w'),
// .write, writeFileSync, json.dump, write_text).
func writesFile(code string) bool {
	for _, s := range [...]string{"write", "dump(", "'w'", `"w"`, "'a'", `"a"`, "'w+'", `"w+"`} {
		if strings.Contains(code, s) {
			return true
		}
	}
	return false
}

// protectiveWords reports program text (a sed script) that names deny
// or ask rules or hooks, so an edit by it may take them out.
func protectiveWords(code string) (string, bool) {
	l := strings.ToLower(code)
	for _, w := range [...]string{"deny", "hooks", "pretooluse", "disallowedtools", `"ask"`, "excludetools"} {
		if strings.Contains(l, w) {
			return strings.Trim(w, `"`), true
		}
	}
	return "", false
}
