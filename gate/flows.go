package gate

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/chain"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/provenance"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids of flows across calls (package provenance).
const (
	RuleNetworkCode  = "flow.network-code"
	RuleAgentCode    = "flow.agent-code"
	RuleSecretEgress = "flow.secret-egress"
	RuleAutorunWrite = "flow.autorun-write"
)

// origins folds the session's executed calls (hist, oldest first) into
// a map of where each path's bytes come from.
func origins(hist []session.Record) *provenance.Map {
	m := &provenance.Map{}
	for _, r := range hist {
		call := r.Summary
		if call == "" {
			call = r.Tool
		}
		m.Apply(downloaded(r.Effects), r.Turn, call)
	}
	return m
}

// Origins folds a session's executed calls (hist, oldest first) and
// then a call's effects into the map of where each path's bytes come
// from, as the gate does when it judges the call (toolwall explain).
func Origins(hist []session.Record, effects []toolwall.Effect) *provenance.Map {
	m := origins(hist)
	m.Apply(downloaded(effects), 0, "")
	return m
}

// trace follows where the bytes of this call come from: it folds the
// history and this call's effects (a download an analyzer tagged
// without a URL is network content too), resolves this call's derives
// into origins (the form recorded, so a later call needs no older
// history), and judges each sink this call reaches by the origins there.
func (g *Gate) trace(call toolwall.Call, hist []session.Record, effects []toolwall.Effect) ([]toolwall.Finding, []toolwall.Effect, *provenance.Map) {
	if !flowing(effects) {
		return nil, effects, nil
	}
	m := origins(hist)
	effects = downloaded(effects)
	var before map[string]bool // paths of this call's flows that held one before it
	for _, e := range effects {
		if provenance.Carries(e.Tag) {
			if _, ok := m.Lookup(e.Path); ok {
				if before == nil {
					before = map[string]bool{}
				}
				before[e.Path] = true
			}
		}
	}
	effects = m.Apply(effects, 0, "")
	var out []toolwall.Finding
	seen := map[string]bool{}
	add := func(rule, key string, f toolwall.Finding) {
		if seen[rule+"\x00"+key] {
			return
		}
		seen[rule+"\x00"+key] = true
		f.Analyzer, f.Rule = "flow", rule
		if f.Category == "" {
			f.Category = "remote-code"
		}
		out = append(out, f)
	}
	for _, e := range effects {
		var doing string
		var cands []string
		switch e.Tag {
		case toolwall.TagExecLocal:
			doing, cands = "running it runs", []string{e.Path}
		case toolwall.TagBuildInput:
			doing, cands = "`"+e.Detail+"` runs it as code, so this runs", []string{e.Path}
		case toolwall.TagInstallPackage:
			doing, cands = "installing it runs its scripts, so this runs", []string{e.Path}
		case provenance.TagRunName:
			doing, cands = "running `"+e.Path+"` by name runs it, so this runs", onPath(call, e.Path)
		case provenance.TagSend:
			doing, cands = "sending it out sends", []string{e.Path}
		case provenance.TagOrigin, provenance.TagOriginTree:
			if _, _, ok := provenance.AutoRun(e.Path, ""); ok && provenance.Decode(e.Detail).Root().Kind == provenance.Network {
				doing, cands = "placing it there makes it run later, unasked:", []string{e.Path}
			}
		}
		for _, p := range cands {
			f, ok := m.Lookup(p)
			if !ok {
				continue
			}
			what, bad := f.Tainted()
			if !bad {
				continue
			}
			root := f.Root().Kind
			story, key := f.Story(p), p
			if dir := f[len(f)-1].Path; dir != "" && dir != p && paths.Under(p, dir) {
				// an entry of a tree (a clone, an extracted archive): one
				// finding for the tree
				story, key = fmt.Sprintf("`%s` is inside `%s`, which holds bytes that were %s", p, dir, strings.TrimPrefix(f.Story(dir), "`"+dir+"` was ")), dir
			}
			switch {
			case e.Tag == provenance.TagSend && root == provenance.Secret && len(f) > 1:
				add(RuleSecretEgress, key, toolwall.Finding{Score: 0.6, Action: toolwall.Ask,
					Reason: fmt.Sprintf("%s; %s %s. Confirm with the user that this may leave the machine.", story, doing, what)})
			case e.Tag == provenance.TagSend || root == provenance.Secret:
			case root == provenance.Network && broad(call, f, p):
				// an archive extracted over the project or the home may
				// have written the file, or not: a human should look
				add(RuleNetworkCode, p, toolwall.Finding{Score: 0.6, Action: toolwall.Ask,
					Reason: fmt.Sprintf("%s may have been written by what was extracted there: %s; if so, %s %s. Check whether the file is the project's own (git status), and run it only then.", "`"+p+"`", f.Story(f[len(f)-1].Path), doing, what)})
			case root == provenance.Network:
				add(RuleNetworkCode, key, toolwall.Finding{Score: 0.9, Action: toolwall.Deny,
					Reason: fmt.Sprintf("%s; %s %s. Show the user the file and where it came from, and run it only if they approve; or install the software with a package manager by name.", story, doing, what)})
			case root == provenance.Agent:
				add(RuleAgentCode, key, toolwall.Finding{Score: 0.6, Action: toolwall.Ask, Category: "autorun",
					Reason: fmt.Sprintf("%s; %s %s. Run the needed commands directly so each can be checked, or ask the user.", story, doing, what)})
			}
		}
	}
	return out, plain(effects, before), m
}

// plain leaves out of the effects to record the origins that carry no
// risk and replace none (the agent's own writing of content toolwall
// does not stop, a file made from project bytes, over a path that held
// no flow before this call): a session's records stay the calls that
// matter to later ones, so writing files cannot push a download out of
// the window.
func plain(effects []toolwall.Effect, before map[string]bool) []toolwall.Effect {
	plainOne := func(e toolwall.Effect) bool {
		if e.Tag != provenance.TagOrigin && e.Tag != provenance.TagOriginTree || before[e.Path] {
			return false
		}
		r := provenance.Decode(e.Detail).Root()
		return r.Kind == provenance.Project || r.Kind == provenance.Agent && r.From != provenance.Stopped
	}
	if !slices.ContainsFunc(effects, plainOne) {
		return effects
	}
	out := make([]toolwall.Effect, 0, len(effects))
	set := map[string]bool{} // paths an earlier effect of this call gave a flow: a later clearing of it is kept
	for _, e := range effects {
		if plainOne(e) && !set[e.Path] {
			continue
		}
		if provenance.Carries(e.Tag) {
			set[e.Path] = true
		}
		out = append(out, e)
	}
	return out
}

// broad reports whether p has flow f only as an entry of a tree that is
// the project root or the home directory (an archive extracted there):
// the archive may or may not have held p.
func broad(call toolwall.Call, f provenance.Flow, p string) bool {
	dir := f[len(f)-1].Path
	if dir == p || dir != call.Project && dir != call.Home {
		return false
	}
	// an entry under a directory named after the archive (x.tgz → x/,
	// tool-1.2.zip → tool-1.2/) is the archive's own
	if len(f) > 1 {
		stem := path.Base(f[len(f)-2].Path)
		for _, ext := range []string{".gz", ".tgz", ".bz2", ".xz", ".zst", ".zip", ".7z", ".tar", ".cpio"} {
			stem = strings.TrimSuffix(stem, ext)
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(p, dir+"/"), "/")
		if stem != "" && strings.HasPrefix(first, stem) && first != path.Base(p) {
			return false
		}
	}
	return true
}

// flowing reports whether effects hold anything trace reads.
func flowing(effects []toolwall.Effect) bool {
	for _, e := range effects {
		switch e.Tag {
		case provenance.TagOrigin, provenance.TagOriginTree, provenance.TagDerive, provenance.TagDeriveTree,
			provenance.TagRunName, provenance.TagSend, toolwall.TagDownloadFile,
			toolwall.TagExecLocal, toolwall.TagBuildInput, toolwall.TagInstallPackage:
			return true
		}
	}
	return false
}

// downloaded prepares this call's effects for the fold: a download an
// analyzer tagged (curl -O, gh release download) with no origin of this
// call naming the file gets a network origin (its URL not known), and
// a script whose body toolwall would stop (write-script "destructive")
// is agent-written with stopped content.
func downloaded(effects []toolwall.Effect) []toolwall.Effect {
	named := func(p string) int {
		for i, o := range effects {
			if (o.Tag == provenance.TagOrigin || o.Tag == provenance.TagDerive) && o.Path == p {
				return i
			}
		}
		return -1
	}
	var out []toolwall.Effect
	for _, e := range effects {
		if e.Path == "" {
			continue
		}
		if e.Tag == toolwall.TagDownloadFile && named(e.Path) < 0 || e.Tag == toolwall.TagWriteScript && e.Detail == "destructive" {
			out = make([]toolwall.Effect, 0, len(effects)+2)
			break
		}
	}
	if out == nil {
		return effects
	}
	for _, e := range effects {
		switch {
		case e.Tag == toolwall.TagDownloadFile && e.Path != "" && named(e.Path) < 0:
			out = append(out, e)
			f := provenance.Flow{{Kind: provenance.Network, Via: e.Detail, From: "the network", Path: e.Path}}
			e = toolwall.Effect{Tag: provenance.TagOrigin, Path: e.Path, Detail: f.Encode()}
		case e.Tag == toolwall.TagWriteScript && e.Detail == "destructive" && e.Path != "" && named(e.Path) < 0:
			out = append(out, e)
			f := provenance.Flow{{Kind: provenance.Agent, Via: "a script written by the shell", From: provenance.Stopped, Path: e.Path}}
			e = toolwall.Effect{Tag: provenance.TagOrigin, Path: e.Path, Detail: f.Encode()}
		case e.Tag == provenance.TagOrigin && provenance.Decode(e.Detail).Root().Kind == provenance.Agent && slices.Contains(effects, toolwall.Effect{Tag: toolwall.TagWriteScript, Path: e.Path, Detail: "destructive"}):
			f := provenance.Decode(e.Detail)
			f[0].From = provenance.Stopped
			e.Detail = f.Encode()
		}
		out = append(out, e)
	}
	return out
}

// onPath lists where a program run by name may be found: the usual
// user and system bin directories, and the project's node_modules/.bin.
func onPath(call toolwall.Call, name string) []string {
	var out []string
	for _, d := range []string{
		path.Join(call.Home, ".local/bin"), path.Join(call.Home, "bin"), path.Join(call.Home, "go/bin"),
		path.Join(call.Home, ".cargo/bin"), "/usr/local/bin", "/opt/homebrew/bin",
		path.Join(call.Cwd, "node_modules/.bin"), path.Join(call.Project, "node_modules/.bin"),
	} {
		out = append(out, path.Join(d, name))
	}
	return out
}

// autorun judges what a call writes into a place that runs later (a git
// hook, .envrc, package.json's scripts, a makefile's recipes): content
// that toolwall would stop if it ran is asked about now
// (flow.autorun-write), and its file is marked agent-written with
// stopped content, so a later call that triggers it is judged too.
// Content is known for a Write (its content), an Edit (its new text) and
// a Bash write of static text (a heredoc, echo, printf).
func (g *Gate) autorun(ctx context.Context, call toolwall.Call, script *shell.Script, effects []toolwall.Effect) ([]toolwall.Finding, []toolwall.Effect) {
	type written struct{ path, text, via string }
	var ws []written
	switch call.Tool {
	case toolwall.ToolWrite, toolwall.ToolEdit:
		p, _ := call.Field("file_path")
		key := "content"
		if call.Tool == toolwall.ToolEdit {
			key = "new_string"
		}
		text, ok := call.Field(key)
		if p == "" || !ok {
			return nil, effects
		}
		ws = append(ws, written{paths.Abs(paths.Expand(p, call.Home), call.Cwd), text, call.Tool})
	case toolwall.ToolBash:
		if script == nil {
			return nil, effects
		}
		for _, c := range script.Commands {
			targets := writtenFiles(c)
			if len(targets) == 0 {
				continue
			}
			body := writtenText(c)
			if body == "" && c.Name == "tee" && c.Stdin.Kind == shell.StdinPipe && c.Stdin.From != nil && !c.Stdin.From.Remote {
				body = writtenText(c.Stdin.From) // echo … | tee FILE
			}
			if body == "" {
				continue
			}
			for _, t := range targets {
				ws = append(ws, written{t, body, "`" + c.String() + "`"})
			}
		}
	}
	var out []toolwall.Finding
	for _, w := range ws {
		how, body, ok := provenance.AutoRun(w.path, w.text)
		if !ok || body == "" || !g.destructive(ctx, call, runText(w.path, body)) {
			continue
		}
		out = append(out, toolwall.Finding{
			Analyzer: "flow", Rule: RuleAutorunWrite, Category: "autorun", Score: 0.6, Action: toolwall.Ask,
			Reason: fmt.Sprintf("This call writes into %s commands toolwall would stop if they were run directly, and %s. Run the needed commands directly so each can be checked, or ask the user.", w.path, how),
		})
		f := provenance.Flow{{Kind: provenance.Agent, Via: w.via, From: provenance.Stopped, Path: w.path}}
		effects = append(effects, toolwall.Effect{Tag: provenance.TagOrigin, Path: w.path, Detail: f.Encode()})
	}
	return out, effects
}

// current drops from the chain rules' view the downloads whose file no
// longer holds network bytes (the agent wrote over it, a project file was
// copied over it): chains of tags follow the flows.
func current(m *provenance.Map, steps []chain.Step) []chain.Step {
	if m == nil {
		return steps
	}
	for i, s := range steps {
		var keep []toolwall.Effect
		changed := false
		for _, e := range s.Effects {
			if e.Tag == toolwall.TagDownloadFile && e.Path != "" {
				if f, ok := m.Lookup(e.Path); !ok || f.Root().Kind != provenance.Network {
					changed = true
					continue
				}
			}
			keep = append(keep, e)
		}
		if changed {
			steps[i].Effects = keep
		}
	}
	return steps
}
