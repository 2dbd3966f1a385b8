package destroy

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// Package runners that fetch and run a Node tool by name, with the
// subcommand that does so ("" when the runner itself is the command):
// npx rimraf, pnpm dlx rimraf, yarn dlx rimraf, bunx rimraf, npm exec
// rimraf.
var nodeRunners = map[string][]string{
	"npx": {""}, "bunx": {""}, "pnpx": {""},
	"pnpm": {"dlx", "exec"}, "yarn": {"dlx", "exec"}, "npm": {"exec", "x"}, "bun": {"x"},
}

// nodeRunnerValue are runner options that take the next word as value.
var nodeRunnerValue = map[string]bool{"-p": true, "--package": true, "-c": true, "--call": true, "-w": true, "--workspace": true}

// nodeTool returns the tool a package runner runs and the tool's argv
// (argv[0] is the tool word), or ok false when c runs none.
func nodeTool(n string, args []shell.Word) (string, []shell.Word, bool) {
	subs, ok := nodeRunners[n]
	if !ok {
		return "", nil, false
	}
	i := 1
	if subs[0] != "" {
		if len(args) < 2 || !contains(subs, args[1].Value) {
			return "", nil, false
		}
		i = 2
	}
	for ; i < len(args); i++ {
		v := args[i].Value
		switch {
		case args[i].Dynamic:
			return "", nil, false
		case v == "--":
			i++
			if i >= len(args) {
				return "", nil, false
			}
		case nodeRunnerValue[v]:
			i++
			continue
		case strings.HasPrefix(v, "-"):
			continue
		}
		if i >= len(args) || args[i].Dynamic {
			return "", nil, false
		}
		tool := args[i].Value
		if at := strings.LastIndexByte(tool, '@'); at > 0 {
			tool = tool[:at] // rimraf@5
		}
		return strings.ToLower(path.Base(tool)), args[i:], true
	}
	return "", nil, false
}

// rmLike maps Node deletion tools onto an equivalent rm argv: rimraf and
// del-cli delete their operands recursively; shx rm is rm.
func rmLike(tool string, argv []shell.Word) ([]shell.Word, bool) {
	switch tool {
	case "rimraf", "del-cli", "del":
		// These tools expand glob patterns in their operands themselves
		// (rimraf unless --no-glob), so a quoted '/*' is still a glob.
		noGlob := false
		for _, w := range argv[1:] {
			noGlob = noGlob || w.Value == "--no-glob" || w.Value == "-G"
		}
		out := []shell.Word{{Raw: "rm", Value: "rm", Prefix: "rm"}, {Raw: "-r", Value: "-r", Prefix: "-r"}}
		for _, w := range argv[1:] {
			if !w.Dynamic && strings.HasPrefix(w.Value, "-") {
				if w.Value == "--no-preserve-root" {
					out = append(out, w)
				}
				continue
			}
			if !noGlob && !w.Dynamic && hasMeta(w.Value) {
				w.Glob = true
			}
			out = append(out, w)
		}
		return out, true
	case "shx":
		if len(argv) > 1 && !argv[1].Dynamic && argv[1].Value == "rm" {
			return argv[1:], true
		}
	}
	return nil, false
}

// nodeDelete judges rimraf, del-cli and shx rm, run directly or through a
// package runner (npx rimraf ~), as the rm they are.
func (a *run) nodeDelete(c *shell.Command, n string, args []shell.Word) bool {
	tool, argv := n, args
	if t, av, ok := nodeTool(n, args); ok {
		tool, argv = t, av
	}
	rmArgs, ok := rmLike(tool, argv)
	if !ok {
		return false
	}
	a.rm(c, rmArgs)
	return true
}

// fdValue are fd options that take the next word as value.
var fdValue = map[string]bool{
	"-e": true, "--extension": true, "-t": true, "--type": true, "-d": true, "--max-depth": true,
	"--min-depth": true, "--exact-depth": true, "-E": true, "--exclude": true, "-S": true, "--size": true,
	"--changed-within": true, "--changed-before": true, "--change-newer-than": true, "--change-older-than": true,
	"--newer": true, "--older": true, "-o": true, "--owner": true, "-j": true, "--threads": true,
	"--max-results": true, "-c": true, "--color": true, "--base-directory": true, "--path-separator": true,
	"--ignore-file": true, "--format": true, "--batch-size": true, "--max-buffer-time": true,
}

// fdSelective are fd options that pick files by what they are.
var fdSelective = map[string]bool{
	"-e": true, "--extension": true, "-S": true, "--size": true, "--changed-within": true,
	"--changed-before": true, "--change-newer-than": true, "--change-older-than": true, "--newer": true,
	"--older": true, "-o": true, "--owner": true,
}

// fd checks fd (fd-find, also installed as fdfind) running a deleter or a
// permission changer on what it finds (-x/--exec, -X/--exec-batch), like
// find -exec: from /, home or a system root it is denied whatever the
// filter; elsewhere a search that matches everything is judged as a
// recursive delete of its search paths.
func (a *run) fd(c *shell.Command, args []shell.Word) {
	var pos, searchPaths, tail []shell.Word
	selective := false
	for i := 1; i < len(args); i++ {
		w := args[i]
		v := w.Value
		if w.Dynamic {
			pos = append(pos, w)
			continue
		}
		name, val, hasVal := strings.Cut(v, "=")
		switch {
		case v == "-x" || v == "--exec" || v == "-X" || v == "--exec-batch":
			tail = args[i+1:]
			i = len(args)
		case fdValue[name] && strings.HasPrefix(v, "-"):
			if fdSelective[name] {
				selective = true
			}
			if !hasVal && i+1 < len(args) {
				i++
			}
		case name == "--search-path":
			if !hasVal && i+1 < len(args) {
				i++
				searchPaths = append(searchPaths, args[i])
			} else if hasVal {
				searchPaths = append(searchPaths, shell.Word{Raw: val, Value: val, Prefix: val})
			}
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			pos = append(pos, w)
		}
	}
	if len(tail) == 0 || tail[0].Dynamic {
		return
	}
	prog := strings.ToLower(path.Base(tail[0].Value))
	del, perm := deleters[prog], permChangers[prog]
	if !del && !perm {
		return
	}
	pattern := ""
	var paths []shell.Word
	if len(pos) > 0 {
		pattern, paths = pos[0].Value, pos[1:]
		if pos[0].Dynamic {
			selective = true
		}
	}
	switch pattern {
	case "", ".", "^", ".*", "^.*", "^.*$", "*":
	default:
		selective = true
	}
	paths = append(paths, searchPaths...)
	if len(paths) == 0 {
		paths = []shell.Word{{Raw: ".", Value: ".", Prefix: "."}}
	}
	for _, s := range paths {
		t := a.env.resolve(s, c.Cwd)
		if del {
			a.tagDelete(t)
		}
		if t.dynamic {
			if del && !selective {
				a.ask("rm.dynamic-target", quote(c)+" needs confirmation: it deletes under "+s.Raw+
					", a path only known at run time. Write the literal path.")
			}
			continue
		}
		cls := a.env.classify(t)
		broad := cls == clsRoot || cls == clsSystem || cls == clsHome || cls == clsOtherHome
		switch {
		case del && broad:
			a.deny("find.delete-broad-root", quote(c)+" was refused: it deletes files under "+a.env.describe(t, cls)+
				", where no name filter makes a mistake recoverable. Search from the directory you mean (inside the project or a temp directory).")
		case del && !selective:
			a.judgeDelete(c, t, quote(c))
		case perm && !selective && (cls == clsRoot || cls == clsSystem || cls == clsHome) && !userPrefix(t.base):
			a.deny("perms.recursive-on-root", quote(c)+" was refused: it changes ownership or permissions of every file under "+
				a.env.describe(t, cls)+", which breaks the system or your account and cannot be undone by hand. Change only the files you mean.")
		}
	}
}
