package destroy

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// forkBomb denies a called function that runs two copies of itself at
// once: two self-calls, one of them piped or backgrounded (c146–c149, any
// name: ":(){ :|:& };:", "bomb(){ bomb|bomb& };bomb", "f(){ f & f & }; f").
func (a *run) forkBomb() {
	for _, f := range a.script.Funcs {
		fn := strings.ToLower(f.Name)
		self, concurrent := 0, false
		for _, c := range f.Calls {
			if c.Name == fn || (c.Name == "" && len(c.Args) > 0 && selfRef(c.Args[0].Raw)) {
				self++
				concurrent = concurrent || c.Piped > 1 || c.Background
			}
		}
		if self < 2 || !concurrent {
			continue
		}
		for _, c := range a.script.Commands {
			if c.Name == fn {
				a.deny("fork-bomb", "`"+f.Name+"` was refused: it is a fork bomb: the function runs two copies of itself at once, "+
					"so processes double until the machine stops responding. Run a bounded loop or a fixed number of workers instead.")
				break
			}
		}
	}
}

// selfRef reports whether a command word names the running function
// through bash's FUNCNAME array ("$FUNCNAME", "${FUNCNAME[0]}").
func selfRef(raw string) bool {
	switch strings.ReplaceAll(raw, `"`, "") {
	case "$FUNCNAME", "${FUNCNAME}", "${FUNCNAME[0]}":
		return true
	}
	return false
}

// unbounded asks about xargs told to run as many processes at once as it
// can (-P 0) on an endless stream of items (yes | xargs -P0 …): processes
// pile up until the machine stops responding, as a fork bomb's do.
func (a *run) unbounded() {
	for _, c := range a.script.Commands {
		if progName(c) != "xargs" || c.Stdin.Kind != shell.StdinPipe || c.Stdin.From == nil || c.Stdin.From.Name != "yes" {
			continue
		}
		for _, w := range c.Inv.Values("max-procs") {
			if !w.Dynamic && strings.Trim(w.Value, "0") == "" {
				a.ask("fork-bomb.unbounded", quote(c)+" needs confirmation: it starts as many processes at once as it can (-P 0) "+
					"on the endless output of yes, so they pile up until the machine stops responding. Give -P a small number and bound the input (head -n).")
				return
			}
		}
	}
}

// dynamicCommand asks about a command whose program is only known at run
// time when it looks destructive: its known prefix or an argument names a
// program that deletes or a disk tool (by the catalog), an argument is
// --no-preserve-root or of=/dev/…, or an argument is /, home or a system
// root: "$c -fr ~", "$(printf rm) -rf ~", "rm${IFS}-rf${IFS}~", "$cmd rm
// -rf /tmp/x" (c097–c099, c105). A recursive-looking option alone is not
// enough ("$PYTHON -m pytest -rf"). A command word whose every value is
// written in the script (shell.Command.Candidates) is judged as each
// value instead.
func (a *run) dynamicCommand(c *shell.Command) {
	looks := destructiveName(path.Base(c.Args[0].Prefix))
	for _, w := range c.Args[1:] {
		if looks {
			break
		}
		if w.Dynamic {
			continue
		}
		v := w.Value
		looks = destructiveName(path.Base(v)) || strings.HasPrefix(v, "--no-preserve-root") ||
			strings.HasPrefix(v, "of=/dev/")
		if !looks {
			e := &a.env
			if c.Remote {
				e = &a.remote
			}
			if t := e.resolve(w, c.Cwd); !t.dynamic {
				cls := e.classify(t)
				looks = cls == clsRoot || cls == clsSystem || cls == clsHome || cls == clsOtherHome
			}
		}
	}
	if looks {
		a.ask("rm.dynamic-command", quote(c)+" needs confirmation: the program it runs ("+c.Args[0].Raw+
			") is only known at run time, and its arguments look destructive. Write the command name literally.")
	}
}
