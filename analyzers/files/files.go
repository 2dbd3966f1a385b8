package files

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/places"
	"github.com/toolwall/toolwall/programs"
)

// Rule ids reported by [Analyzer].
const (
	// RuleWriteProtected (deny, 0.95): a write to a file that controls
	// logins, privileges, scheduled jobs, services or every shell on the
	// system (see [Judge]).
	RuleWriteProtected = "files.write-protected"
	// RuleWriteSensitive (ask, 0.6): a write to a file that runs code or
	// changes behaviour later: shell rc and profile files, git hooks and
	// .git/config, the agent's own settings, toolwall's config and state,
	// credential stores outside the project.
	RuleWriteSensitive = "files.write-sensitive"
	// RuleWriteSystem (ask, 0.6): any other write under a system root
	// (/etc, /usr, /bin, /var, /opt, /Library, …).
	RuleWriteSystem = "files.write-system"
	// RuleReadSecret (ask, 0.6): a Read of a file [places.Classify] calls
	// a secret: private keys, credentials, .env, /etc/shadow.
	RuleReadSecret = "files.read-secret"
	// RuleBadInput (ask, 0.6): the tool input is not an object with a
	// non-empty string path field, or the path cannot be made absolute.
	RuleBadInput = "files.bad-input"
)

// ToolNotebookEdit is Claude Code's notebook editing tool; its path field
// is "notebook_path".
const ToolNotebookEdit = "NotebookEdit"

// Analyzer judges the file tools by the path they touch: writes to
// login, privilege, persistence and system files, and reads of secrets.
// It reports nothing in RootContext.
var Analyzer = &analysis.Analyzer{
	Name:  "files",
	Rules: rules,
	Doc: "files judges Write, Edit, MultiEdit, NotebookEdit and Read calls by their path: writes to " +
		"authentication, cron, service and privilege files are denied; writes to shell rc files, git " +
		"hooks, agent or toolwall settings and system directories are asked; reads of private keys, " +
		"credentials and .env files are asked.",
	Tools: []string{toolwall.ToolWrite, toolwall.ToolEdit, toolwall.ToolMultiEdit, toolwall.ToolRead, ToolNotebookEdit, toolwall.ToolGrep},
	Run:   run,
}

const (
	category  = "files"
	denyScore = 0.95
	askScore  = 0.6
)

// input is the part of a file tool's input the analyzer reads.
type input struct {
	path    string
	content string
}

// decode extracts the path field (and Write's content) from raw,
// explaining what is wrong when it cannot.
func decode(raw json.RawMessage, field string) (input, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return input{}, fmt.Errorf("is not a JSON object")
	}
	v, ok := m[field]
	if !ok {
		return input{}, fmt.Errorf("has no %q field", field)
	}
	var in input
	if err := json.Unmarshal(v, &in.path); err != nil {
		return input{}, fmt.Errorf("has a %q field that is not a string", field)
	}
	if strings.TrimSpace(in.path) == "" {
		return input{}, fmt.Errorf("has an empty %q field", field)
	}
	if strings.ContainsRune(in.path, 0) {
		return input{}, fmt.Errorf("has a %q field holding a NUL byte", field)
	}
	if c, ok := m["content"]; ok {
		// A non-string content is the host's problem, not a path question.
		_ = json.Unmarshal(c, &in.content)
	}
	return in, nil
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	call := in.Call
	if call.IsRoot() {
		return
	}
	field := "file_path"
	switch call.Tool {
	case ToolNotebookEdit:
		field = "notebook_path"
	case toolwall.ToolGrep:
		// Grep prints the matching lines of the files under "path": a
		// read of them. Without a path it searches the working directory.
		field = "path"
		if _, ok := call.Field(field); !ok {
			return
		}
	}
	ti, err := decode(call.Input, field)
	if err != nil {
		badInput(r, call.Tool, err.Error(), field)
		return
	}
	all := readings(ti.path, call.Home, call.Cwd)
	if !strings.HasPrefix(all[0], "/") {
		badInput(r, call.Tool, fmt.Sprintf("has a relative path %q and the call has no working directory", ti.path), field)
		return
	}
	project := call.Project
	if project == "" {
		project = call.Cwd
	}
	// Judge every reading a host might make of the path; the most severe
	// one decides (what cannot be resolved is not safe).
	p := all[0]
	if call.Tool == toolwall.ToolRead || call.Tool == toolwall.ToolGrep {
		for _, q := range all[1:] {
			if places.Classify(q) > places.Classify(p) {
				p = q
			}
		}
		read(r, p)
		return
	}
	for _, q := range all[1:] {
		if severity(Judge(q, call.Home, project).Rule) > severity(Judge(p, call.Home, project).Rule) {
			p = q
		}
	}
	write(r, call.Tool, p, ti, call.Home, project)
}

// severity orders write rules: protected, sensitive, system, none.
func severity(rule string) int {
	switch rule {
	case RuleWriteProtected:
		return 3
	case RuleWriteSensitive:
		return 2
	case RuleWriteSystem:
		return 1
	}
	return 0
}

// readings returns the absolute, clean paths a tool input may name: the
// path as the tool resolves it ("~" expanded, made absolute against cwd)
// first, then the readings a host or a shell might make of the same text —
// $HOME and ${HOME} expanded, ~user expanded (home's own user, else a
// sibling of home), a file:// URL's path, backslashes as separators. The
// first element is "" made absolute only when cwd is set.
func readings(raw, home, cwd string) []string {
	texts := []string{raw}
	add := func(s string) {
		for _, t := range texts {
			if t == s {
				return
			}
		}
		texts = append(texts, s)
	}
	if rest, ok := strings.CutPrefix(raw, "file://"); ok {
		add("/" + strings.TrimPrefix(strings.TrimPrefix(rest, "localhost"), "/"))
	}
	for _, t := range texts {
		if strings.Contains(t, `\`) {
			add(strings.ReplaceAll(t, `\`, "/"))
		}
	}
	for _, t := range texts {
		for _, v := range []string{"$HOME", "${HOME}"} {
			if rest, ok := strings.CutPrefix(t, v); ok && home != "" && (rest == "" || rest[0] == '/') {
				add(home + rest)
			}
		}
		if strings.HasPrefix(t, "~") && !strings.HasPrefix(t, "~/") && t != "~" && home != "" {
			name, rest, _ := strings.Cut(t[1:], "/")
			if name == path.Base(home) {
				add(home + "/" + rest)
			} else if name != "" {
				add(path.Dir(home) + "/" + name + "/" + rest)
			}
		}
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = paths.Abs(paths.Expand(t, home), cwd)
	}
	return out
}

func badInput(r *analysis.Report, tool, problem, field string) {
	r.Add(toolwall.Finding{
		Rule: RuleBadInput, Category: "input", Score: askScore, Action: toolwall.Ask,
		Reason: fmt.Sprintf("The %s call was stopped: its input %s, so the file it touches cannot be judged. "+
			"Send a JSON object with a non-empty string %q holding an absolute path.", tool, problem, field),
	})
}

// read asks before a secret enters the conversation.
func read(r *analysis.Report, p string) {
	cl := places.Classify(p)
	if !cl.Secret() {
		return
	}
	r.Add(toolwall.Finding{
		Rule: RuleReadSecret, Category: "secrets", Score: askScore, Action: toolwall.Ask,
		Reason: fmt.Sprintf("Reading %s (%s) was stopped for a human: its content would enter the conversation "+
			"and the logs. Pass the path to the program that needs it instead, read a template such as "+
			".env.example for the names, or ask the user to confirm.", p, cl),
	})
	r.Tag(toolwall.TagSensitiveRead, p, "")
	if cl == places.Credential || cl == places.PrivateKey {
		r.Tag(toolwall.TagCredential, p, "")
	}
}

// script reports a file written to be run: its extension is one an
// interpreter's catalog entry lists (.sh, .py, .js, .rb, .ps1, …).
func script(p string) bool {
	prog := programs.ForFile(p)
	return prog != nil && prog.Lang != ""
}

// write judges a Write, Edit, MultiEdit or NotebookEdit of p.
func write(r *analysis.Report, tool, p string, ti input, home, project string) {
	j := Judge(p, home, project)
	switch j.Rule {
	case RuleWriteProtected:
		r.Add(toolwall.Finding{
			Rule: j.Rule, Category: "persistence", Score: denyScore, Action: toolwall.Deny,
			Reason: fmt.Sprintf("%s to %s was refused: it %s. Do not change it from the agent; tell the user "+
				"what change is needed and let them make it.", tool, p, j.Why),
		})
	case RuleWriteSensitive, RuleWriteSystem:
		advice := j.Advice
		if advice == "" {
			advice = fmt.Sprintf("Keep changes inside the project (%s) or /tmp, or ask the user to confirm this one", project)
		}
		r.Add(toolwall.Finding{
			Rule: j.Rule, Category: "persistence", Score: askScore, Action: toolwall.Ask,
			Reason: fmt.Sprintf("%s to %s was stopped for a human: it %s. %s.", tool, p, j.Why, advice),
		})
	}
	switch {
	case j.System:
		r.Tag(toolwall.TagSystemWrite, p, "")
	case !paths.Under(p, project):
		r.Tag(toolwall.TagStage, p, "")
	}
	if script(p) || tool == toolwall.ToolWrite && strings.HasPrefix(ti.content, "#!") {
		r.Tag(toolwall.TagWriteScript, p, "")
	}
}
