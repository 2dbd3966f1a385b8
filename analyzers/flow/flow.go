package flow

import (
	"context"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/provenance"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids.
const (
	RuleInstallURL = "flow.install-url"
	RuleRunURL     = "flow.run-url"
)

// Analyzer is the flow analyzer.
var Analyzer = &analysis.Analyzer{
	Name:  "flow",
	Doc:   "where bytes come from: the origins a call's commands pass into files, and the sinks they reach; installs and runs straight from a URL",
	Tools: []string{toolwall.ToolBash, toolwall.ToolWrite},
	Run:   run,
	Rules: []analysis.Rule{
		{ID: RuleInstallURL, Action: toolwall.Ask, Protects: "against installing a package from a URL or a repository instead of by name from a registry (its build scripts run unreviewed)", Example: "pip install git+https://example.com/x.git"},
		{ID: RuleRunURL, Action: toolwall.Ask, Protects: "against a runner running code straight from the network (npx, uv run, deno run of a URL; go run of a module the project does not use)", Example: "deno run https://example.com/x.ts"},
	},
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	if in.Call.Tool == toolwall.ToolWrite {
		if p, ok := in.Call.Field("file_path"); ok && p != "" {
			p = paths.Abs(paths.Expand(p, in.Call.Home), in.Call.Cwd)
			f := provenance.Flow{{Kind: provenance.Agent, Via: "Write", Path: p}}
			r.Tag(provenance.TagOrigin, p, f.Encode())
		}
		return
	}
	if in.Script == nil {
		return
	}
	w := walker{in: in, r: r, pending: map[*shell.Command]provenance.Flow{}}
	funcs := map[string]bool{}
	for _, f := range in.Script.Funcs {
		funcs[f.Name] = true
	}
	for _, c := range in.Script.Commands {
		if c.Remote || len(c.Args) == 0 {
			continue
		}
		w.command(c, funcs)
	}
}

type walker struct {
	in      *analysis.Input
	r       *analysis.Report
	pending map[*shell.Command]provenance.Flow // what a command prints, when it passes an origin on
}

func (w *walker) cwd(c *shell.Command) string {
	if c.Cwd != "" {
		return c.Cwd
	}
	return w.in.Call.Cwd
}

// kind returns the flow its catalog entry declares for c's invocation.
func kind(c *shell.Command) provenance.Kind {
	if c.Inv == nil {
		return ""
	}
	for p := c.Inv.Program(); p != nil; p = p.Parent {
		for _, f := range p.Flows {
			if c.Inv.Holds(f.Cond) {
				return provenance.Kind(f.Kind)
			}
		}
	}
	return ""
}

const maxVia = 60

// via is the command as a reason quotes it, cut short.
func via(c *shell.Command) string {
	s := c.String()
	if len(s) > maxVia {
		s = s[:maxVia] + "…"
	}
	return s
}

func (w *walker) command(c *shell.Command, funcs map[string]bool) {
	w.sinks(c, funcs)
	k := kind(c)
	if k == "" {
		return
	}
	// What c's output is made of: a network origin, or the files and the
	// pipe it reads, with c's own step after.
	var srcs []provenance.Flow
	step := provenance.Step{Kind: k, Via: via(c)}
	if k == provenance.Network {
		for _, e := range c.Effects {
			if e.Kind == shell.Fetches && !e.Word.Dynamic {
				srcs = append(srcs, provenance.Flow{{Kind: provenance.Network, Via: c.Name, From: e.Word.Value}})
			}
		}
		if len(srcs) == 0 && c.Inv != nil {
			for _, u := range c.Inv.OperandsOf(programs.URL) {
				if !u.Dynamic {
					srcs = append(srcs, provenance.Flow{{Kind: provenance.Network, Via: c.Name, From: u.Value}})
				}
			}
		}
	} else {
		for _, e := range c.Effects {
			if (e.Kind == shell.Reads || e.Kind == shell.Moves) && e.Path != "" && !e.Remote {
				srcs = append(srcs, provenance.Flow{{Kind: provenance.From, From: e.Path}, step})
			}
		}
		if c.Stdin.Kind == shell.StdinPipe && c.Stdin.From != nil {
			if up, ok := w.pending[c.Stdin.From]; ok {
				srcs = append(srcs, append(append(provenance.Flow(nil), up...), step))
			}
		}
	}
	if len(srcs) > 0 {
		w.pending[c] = srcs[0]
	}
	for _, e := range c.Effects {
		if e.Path == "" || e.Remote {
			continue
		}
		tree := false
		switch e.Kind {
		case shell.Writes, shell.Appends, shell.Links:
			tree = e.Recursive
		case shell.Creates:
			if k != provenance.Network {
				continue
			}
			tree = true // git clone's directory
		case shell.Modifies:
			// in place: the file keeps its origin, with this step; a
			// decompressor's output is named without the suffix
			w.emit(provenance.Flow{{Kind: provenance.From, From: e.Path}, step}, e.Path, false)
			if k == provenance.Archive {
				if ext := path.Ext(e.Path); ext != "" && len(ext) <= 5 && e.Path != strings.TrimSuffix(e.Path, ext) {
					w.emit(provenance.Flow{{Kind: provenance.From, From: e.Path}, step}, strings.TrimSuffix(e.Path, ext), false)
				}
			}
			continue
		default:
			continue
		}
		for _, s := range srcs {
			w.emit(s, e.Path, tree)
		}
	}
	if k == provenance.Network && c.Inv != nil && c.Inv.Program() != nil && c.Inv.Program().Path() == "git clone" && len(c.Inv.OperandsOf(programs.Create)) == 0 {
		// git clone URL: the directory is named after the repository
		for _, s := range srcs {
			name := strings.TrimSuffix(path.Base(strings.TrimSuffix(s.Root().From, "/")), ".git")
			if name != "" && name != "." && name != "/" && !strings.ContainsAny(name, ":") {
				w.emit(s, path.Join(w.cwd(c), name), true)
			}
		}
	}
}

// emit tags path p (a tree when tree) with flow f, the last step's Path
// set: an origin when f starts at one, else a derive.
func (w *walker) emit(f provenance.Flow, p string, tree bool) {
	f = append(provenance.Flow(nil), f...)
	f[len(f)-1].Path = p
	if f.Root().Kind == provenance.From && f.Root().From == p && len(f) == 2 && f[1].Kind == provenance.Copy {
		return // cat x > x: nothing new
	}
	tag := provenance.TagOrigin
	switch {
	case f.Root().Kind == provenance.From && tree:
		tag = provenance.TagDeriveTree
	case f.Root().Kind == provenance.From:
		tag = provenance.TagDerive
	case tree:
		tag = provenance.TagOriginTree
	}
	w.r.Tag(tag, p, f.Encode())
}

// sinks tags what c runs or sends that an origin decides, and judges
// installs and runs straight from a URL.
func (w *walker) sinks(c *shell.Command, funcs map[string]bool) {
	name := c.Args[0]
	var prog *programs.Program
	if c.Inv != nil {
		prog = c.Inv.Program()
	}
	switch {
	case name.Dynamic || name.Value == "":
	case c.Parent != nil && webURL(name.Value):
		// a runner handed a URL as its command (npx URL, uv run URL)
		w.runURL(c, name.Value)
	case prog == nil && !strings.Contains(name.Value, "/") && !funcs[name.Value] && !builtin[name.Value]:
		w.r.Tag(provenance.TagRunName, name.Value, c.Name)
	}
	for _, e := range c.Effects {
		if e.Kind == shell.Sends && !e.Data && e.Path != "" && !e.Remote {
			w.r.Tag(provenance.TagSend, e.Path, c.Name)
		}
	}
	if prog == nil {
		return
	}
	// A shell reading its program from a pipe of stages that pass an
	// origin on runs the file at the pipe's start.
	if c.Stdin.Kind == shell.StdinPipe && c.Stdin.From != nil && c.Inv.RunsStdin() {
		if up, ok := w.pending[c.Stdin.From]; ok && up.Root().Kind == provenance.From {
			w.r.Tag(toolwall.TagExecLocal, up.Root().From, c.Name)
		}
	}
	cwd := w.cwd(c)
	for p := prog; p != nil; p = p.Parent {
		for _, rr := range p.Runs {
			if !c.Inv.Holds(rr.Cond) {
				continue
			}
			for _, f := range rr.Files {
				for _, dir := range []string{cwd, w.in.Call.Project} {
					if dir == "" {
						continue
					}
					w.r.Tag(toolwall.TagBuildInput, path.Join(dir, f), c.Name)
				}
			}
		}
	}
	for _, v := range append(c.Inv.OperandsOf(programs.Package), c.Inv.ValuesOf(programs.Package)...) {
		if !v.Dynamic && (remoteSource(v.Value) || prog.Root().Name == "npm" && githubShorthand(v.Value)) {
			w.r.Add(toolwall.Finding{
				Rule: RuleInstallURL, Category: "remote-code", Score: 0.6, Action: toolwall.Ask,
				Reason: fmt.Sprintf("`%s` needs approval: it installs %s, code straight from a URL or a repository rather than a package its registry resolves by name, and its build and install scripts run now, unreviewed. Install the published package by name, or show the user the source and let them install it.", via(c), v.Value),
			})
		}
	}
	for _, v := range c.Inv.OperandsOf(programs.Exec, programs.Source) {
		switch {
		case v.Dynamic:
		case webURL(v.Value):
			w.runURL(c, v.Value)
		case prog.Path() == "go run" && goModule(v.Value) && !w.projectUses(v.Value):
			w.runURL(c, v.Value)
		}
	}
}

func (w *walker) runURL(c *shell.Command, u string) {
	if c.Parent != nil && c.Args[0].Value == u {
		c = c.Parent // quote the runner: npx --yes URL
	}
	w.r.Add(toolwall.Finding{
		Rule: RuleRunURL, Category: "remote-code", Score: 0.6, Action: toolwall.Ask,
		Reason: fmt.Sprintf("`%s` needs approval: it runs %s, code fetched from the network that nobody has reviewed. Download it, show it to the user, and run it only if they approve; or add it to the project as a dependency.", via(c), u),
	})
}

// remoteSource reports whether a package or program operand names code
// on the network: a URL, or a VCS source (git+https://, git@host:…).
func remoteSource(v string) bool {
	l := strings.ToLower(v)
	for _, p := range [...]string{"http://", "https://", "git+", "git://", "ssh://", "git@", "github:", "gitlab:", "bitbucket:", "hg+", "svn+", "bzr+", "ftp://"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	// pip's "name @ https://…" direct reference
	return strings.Contains(l, "@ http") || strings.Contains(l, "@http") || strings.Contains(l, "@git+")
}

// webURL reports an http, https or ftp URL.
func webURL(v string) bool {
	l := strings.ToLower(v)
	return strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "ftp://")
}

// githubShorthand reports npm's user/repo (GitHub) spelling: one slash,
// not a scope (@scope/name), not a path.
func githubShorthand(v string) bool {
	if strings.HasPrefix(v, "@") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "-") {
		return false
	}
	user, repo, ok := strings.Cut(v, "/")
	return ok && user != "" && repo != "" && !strings.Contains(repo, "/") && !strings.HasSuffix(v, ".tgz") && !strings.HasSuffix(v, ".tar.gz")
}

// goModule reports a module path at a version: example.com/x@latest.
func goModule(v string) bool {
	mod, ver, ok := strings.Cut(v, "@")
	first, _, _ := strings.Cut(mod, "/")
	return ok && ver != "" && strings.Contains(first, ".") && !strings.HasPrefix(v, ".")
}

// projectUses reports whether the project's go.mod names the module, on
// the machine the call runs on (never for synthetic places).
func (w *walker) projectUses(v string) bool {
	if w.in.Exists == nil || w.in.Call.Project == "" {
		return false
	}
	b, err := os.ReadFile(path.Join(w.in.Call.Project, "go.mod"))
	if err != nil || len(b) > 1<<20 {
		return false
	}
	mod, _, _ := strings.Cut(v, "@")
	for mod != "" && mod != "." {
		if strings.Contains(string(b), mod+" ") {
			return true
		}
		mod = path.Dir(mod)
	}
	return false
}

// builtin lists the shell's builtins and keywords the catalog does not
// describe: run by name, they are never looked up on PATH.
var builtin = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`cd pushd popd dirs export unset set shift read exit return true false test [ [[ ]] : echo printf
		local declare typeset alias unalias wait jobs fg bg disown umask ulimit hash type command builtin trap eval exec source .
		let getopts readonly times break continue help history logout suspend enable compgen complete shopt caller bind mapfile readarray
		if then else elif fi for while until do done case esac function select coproc time ! { }`) {
		builtin[n] = true
	}
}
