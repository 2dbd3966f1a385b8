package pwsh

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// Options tell the reader where the command runs.
type Options struct {
	// Cwd, Home and Project are the call's places in the POSIX namespace
	// (paths.FromWindows); a Windows path in the command that names one of
	// them in another letter case is read as it.
	Cwd, Home, Project string
	// Shell sets the shell reader's limits.
	Shell shell.Options
}

// MaxBytes bounds the source read (128 KiB, as the shell reader's).
const MaxBytes = 128 << 10

// Read reads a PowerShell command the way the shell reader reads bash
// (package shell): every command that would run, each with its argv read
// through the program catalog and its effects, so the analyzers judge
// PowerShell through the same rules. A cmdlet with a counterpart in the
// catalog is read as it (Remove-Item -Recurse -Force as rm -r -f,
// Invoke-WebRequest as curl, Invoke-Expression of a pipe as sh, …; see
// cmdlets.txt); other cmdlets keep their own name, lower-cased, with
// their parameters; programs keep their argv. Pipelines, statement
// lists, groups, script blocks, subexpressions, the call and dot-source
// operators, -Command, -EncodedCommand and -File bodies of powershell
// and pwsh, cmd /c bodies, and code run by Invoke-Expression,
// Invoke-Command, Start-Job, Start-Process and ForEach-Object are read
// as commands that run; the branches of if, switch, try and loops are all
// read as if they run. Windows paths are read in the POSIX namespace
// (paths.FromWindows). Each command's Text is its PowerShell source.
//
// Errors: a *SyntaxError for a command that cannot be read (the gate asks
// about it), a *LimitError for one too large or nested too deeply.
func Read(src string, opts Options) (s *shell.Script, err error) {
	if len(src) > MaxBytes {
		return nil, &LimitError{Msg: fmt.Sprintf("the command is longer than %d bytes", MaxBytes)}
	}
	if _, err := cmdlets(); err != nil {
		return nil, err
	}
	stmts, err := parse(src)
	if err != nil {
		return nil, err
	}
	t := &tr{home: opts.Home, cwd: opts.Cwd, project: opts.Project}
	var bash string
	func() {
		defer func() {
			if r := recover(); r != nil {
				switch e := r.(type) {
				case *SyntaxError:
					err = e
				case *LimitError:
					err = e
				default:
					panic(r)
				}
			}
		}()
		bash = t.stmts(stmts)
	}()
	if err != nil {
		return nil, err
	}
	so := opts.Shell
	so.Cwd, so.Home = opts.Cwd, opts.Home
	so.MaxBytes = max(so.MaxBytes, 8*MaxBytes)
	s, err = shell.Read(bash, so)
	var lim *shell.LimitError
	switch {
	case errors.As(err, &lim):
		return nil, &LimitError{Msg: lim.Error()}
	case err != nil:
		return nil, fmt.Errorf("pwsh: reading the translation of %q: %w", src, err)
	}
	for _, c := range s.Commands {
		t.restore(c)
	}
	s.Source = src
	return s, nil
}

// restore gives a command its PowerShell text and drops the marker.
func (t *tr) restore(c *shell.Command) {
	for i, a := range c.Assigns {
		n, ok := strings.CutPrefix(a, marker+"=")
		if !ok {
			continue
		}
		if k, err := strconv.Atoi(n); err == nil && k < len(t.texts) {
			c.Text = t.texts[k]
		}
		c.Assigns = append(c.Assigns[:i:i], c.Assigns[i+1:]...)
		return
	}
}

// Translate returns the bash text Read reads for src, for tests and
// toolwall explain.
func Translate(src string, opts Options) (string, error) {
	stmts, err := parse(src)
	if err != nil {
		return "", err
	}
	t := &tr{home: opts.Home, cwd: opts.Cwd, project: opts.Project}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	out := t.stmts(stmts)
	for i := range t.texts {
		out = strings.ReplaceAll(out, marker+"="+strconv.Itoa(i)+" ", "")
	}
	return out, err
}
