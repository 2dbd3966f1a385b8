package unixshield

import (
	"slices"

	"github.com/toolwall/toolwall"
)

// Pattern is one single-turn risk pattern (the tool shield's RiskPattern).
type Pattern struct {
	// Text is the needle, matched on token boundaries in the normalised
	// view; it is normalised (lower-cased, white space collapsed, trimmed)
	// when added. A Text that is empty after that matches nothing.
	Text string
	// Score is the single-turn risk in [0, 1] a match contributes; out of
	// range values are clamped and NaN counts as 1 (fail closed).
	Score float64
	// Category groups the pattern in findings and logs ("destructive",
	// "remote-code", ...).
	Category string
	// Fields, when set, limits the pattern to string leaves under these
	// object keys (at any depth; elements of an array inherit its key).
	// Empty means every string leaf. Input that is not JSON has no keys and
	// is matched by every pattern.
	Fields []string
	// Advice says what to do instead; it ends the reason of a refusal.
	Advice string
}

// Trigger is one step of a combination rule: a call of Tool whose input
// matches one of Any (with the same matching as patterns). An empty Any
// means any call of Tool.
type Trigger struct {
	Tool string
	Any  []string
}

// Rule is a combination rule: it fires when its triggers
// happened in chronological order, the last one being the call under
// evaluation and every earlier one an executed (recorded) call in the
// history, in that order with anything in between. A rule without
// triggers never fires.
type Rule struct {
	// Name is stable and appears in reasons ("download-then-execute").
	Name string
	// Triggers in the order they must happen.
	Triggers []Trigger
	// Score is the combination risk in [0, 1] (weighted 0.3 in the total).
	Score float64
	// Category groups the rule in findings and logs.
	Category string
	// Advice says what to do instead.
	Advice string
}

// Weights and sizes of the tool shield.
const (
	// RepetitionWeight weighs the repetition dimension in the total.
	RepetitionWeight = 0.5
	// CombinationWeight weighs the combination dimension in the total.
	CombinationWeight = 0.3
	// HistorySize is how many executed calls the shield remembers for
	// combination rules, and how many Recent entries count for repetition.
	HistorySize = 20
)

// repetitionScores is the repetition score for 0, 1, 2 and 3 or more
// prior calls to the same tool (at most 0.6 × 0.5 = 0.3).
var repetitionScores = [...]float64{0, 0.1, 0.3, 0.6}

// pathFields are the input keys Write and Edit name their target file in
// (Claude Code's file_path; path and notebook_path of similar tools).
var pathFields = []string{"file_path", "path", "notebook_path"}

const (
	adviceRemove = "Delete only the specific paths you created, one by one and without forcing, or ask the user to do it"
	adviceShell  = "Download the script to a file, read it, and run it only after the user has agreed"
	adviceSudo   = "Do the work without sudo, or ask the user to run the privileged step themselves"
	adviceChmod  = "Grant only the permission that is needed (for example chmod u+x or chmod 644)"
	adviceEtc    = "Do not change system configuration under /etc/; change the project's own files, or ask the user"
	adviceSSH    = "Do not change SSH keys or configuration; ask the user to make that change"
)

func patterns(score float64, category, advice string, fields []string, texts ...string) []Pattern {
	out := make([]Pattern, len(texts))
	for i, t := range texts {
		out[i] = Pattern{Text: t, Score: score, Category: category, Fields: fields, Advice: advice}
	}
	return out
}

// defaultBash is the tool shield's command table, with the spellings an agent
// reaches for to route around it: rm's flag orders, other shells after a
// pipe (see pipeToShell), redirects into /etc/ and ~/.ssh/.
func defaultBash() []Pattern {
	var ps []Pattern
	ps = append(ps, patterns(0.9, "destructive", adviceRemove, nil,
		"rm -rf", "rm -fr", "rm -r -f", "rm -f -r",
		"rm --recursive --force", "rm --force --recursive", "rm -r --force", "rm --recursive -f",
		"rm -f --recursive", "rm --force -r")...)
	ps = append(ps, patterns(0.7, "destructive", adviceRemove, nil, "rm -f", "rm --force")...)
	ps = append(ps, patterns(0.6, "privilege", adviceSudo, nil, "sudo")...)
	ps = append(ps, patterns(0.5, "permissions", adviceChmod, nil, "chmod 777", "chmod -r 777", "chmod a+rwx")...)
	ps = append(ps, patterns(0.8, "remote-code", adviceShell, nil,
		append(slices.Clone(pipeToShell), "| sudo sh", "| sudo bash")...)...)
	ps = append(ps, patterns(0.3, "network", "", nil, "curl", "wget")...)
	ps = append(ps, patterns(0.7, "system-write", adviceEtc, nil, "> /etc/", ">/etc/", "tee /etc/", "tee -a /etc/")...)
	ps = append(ps, patterns(0.8, "credentials", adviceSSH, nil,
		"> ~/.ssh/", ">~/.ssh/", "> $home/.ssh/", ">$home/.ssh/", "tee ~/.ssh/", "tee -a ~/.ssh/")...)
	return ps
}

// defaultWrite is the table for Write and Edit: the target path under
// /etc/ (0.7) or in a .ssh/ directory (0.8). An Edit changes a file as
// surely as a Write, so it gets the same table. The patterns look at the
// path fields only: file content is data, not a write target (a Dockerfile
// may name /etc/nginx/).
func defaultWrite() []Pattern {
	return append(patterns(0.7, "system-write", adviceEtc, pathFields, "/etc/"),
		patterns(0.8, "credentials", adviceSSH, pathFields, ".ssh/")...)
}

// makeExecutable are the chmod spellings that make a file executable.
var makeExecutable = []string{
	"chmod +x", "chmod u+x", "chmod a+x", "chmod ug+x", "chmod +rx", "chmod +rwx", "chmod u+rwx",
	"chmod 755", "chmod 775", "chmod 777", "chmod 700", "chmod 750", "chmod 711",
}

// pipeToShell are the spellings of piping into a shell. The compact form
// is kept for sh (the seed's) and bash only: tldr writes alternatives as
// "bash|zsh|fish", and the compact zsh/dash/ksh forms matched only those.
var pipeToShell = []string{"| sh", "|sh", "| bash", "|bash", "| zsh", "| dash", "| ksh"}

// defaultRules are the tool shield's combination rules, with Edit standing in for
// Write where the seed names Write.
func defaultRules() []Rule {
	return []Rule{
		{Name: "download-then-execute", Score: 0.85, Category: "remote-code", Advice: adviceShell,
			Triggers: []Trigger{{Tool: toolwall.ToolBash, Any: []string{"curl", "wget"}}, {Tool: toolwall.ToolBash, Any: pipeToShell}}},
		{Name: "write-then-make-executable", Score: 0.75, Category: "exec-written", Advice: "Run the script with its interpreter after the user has read it, instead of making it executable",
			Triggers: []Trigger{{Tool: toolwall.ToolWrite}, {Tool: toolwall.ToolBash, Any: makeExecutable}}},
		{Name: "edit-then-make-executable", Score: 0.75, Category: "exec-written", Advice: "Run the script with its interpreter after the user has read it, instead of making it executable",
			Triggers: []Trigger{{Tool: toolwall.ToolEdit}, {Tool: toolwall.ToolBash, Any: makeExecutable}}},
		{Name: "chmod-then-write", Score: 0.65, Category: "exec-written", Advice: "Write the file first and leave its permissions as they are",
			Triggers: []Trigger{{Tool: toolwall.ToolBash, Any: []string{"chmod"}}, {Tool: toolwall.ToolWrite}}},
		{Name: "chmod-then-edit", Score: 0.65, Category: "exec-written", Advice: "Edit the file first and leave its permissions as they are",
			Triggers: []Trigger{{Tool: toolwall.ToolBash, Any: []string{"chmod"}}, {Tool: toolwall.ToolEdit}}},
	}
}
