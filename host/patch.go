package host

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
)

// PatchCalls reads a patch in the apply_patch format of Codex and
// OpenCode ("*** Begin Patch", "*** Add File: p", "*** Update File: p"
// with an optional "*** Move to: q", "*** Delete File: p", "*** End
// Patch") as the file changes it makes: an added file is a Write of its
// "+" lines, an update an Edit from its "-" and " " lines to its "+" and
// " " lines (a Write of the new text at the destination and a delete of
// the source when it moves), a deleted file a shell `rm` of it. Relative
// paths are resolved against cwd. ok is false when text is not such a
// patch (no file header at all).
func PatchCalls(text, cwd string) (calls []toolwall.Call, ok bool) {
	type op struct {
		kind, file, to string
		old, new       strings.Builder
	}
	var ops []*op
	var cur *op
	abs := func(p string) string {
		p = strings.TrimSpace(p)
		if cwd != "" && !path.IsAbs(p) && !strings.Contains(p, `\`) && !strings.Contains(p, ":") {
			return path.Join(cwd, p)
		}
		return p
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "*** Add File: "):
			cur = &op{kind: "add", file: abs(line[len("*** Add File: "):])}
			ops = append(ops, cur)
		case strings.HasPrefix(line, "*** Update File: "):
			cur = &op{kind: "update", file: abs(line[len("*** Update File: "):])}
			ops = append(ops, cur)
		case strings.HasPrefix(line, "*** Delete File: "):
			cur = &op{kind: "delete", file: abs(line[len("*** Delete File: "):])}
			ops = append(ops, cur)
		case strings.HasPrefix(line, "*** Move to: ") && cur != nil:
			cur.to = abs(line[len("*** Move to: "):])
		case strings.HasPrefix(line, "***"), strings.HasPrefix(line, "@@"), cur == nil:
		case strings.HasPrefix(line, "+"):
			cur.new.WriteString(line[1:] + "\n")
		case strings.HasPrefix(line, "-"):
			cur.old.WriteString(line[1:] + "\n")
		case strings.HasPrefix(line, " "):
			cur.old.WriteString(line[1:] + "\n")
			cur.new.WriteString(line[1:] + "\n")
		}
	}
	for _, o := range ops {
		switch o.kind {
		case "add":
			calls = append(calls, WriteCall(o.file, o.new.String()))
		case "delete":
			calls = append(calls, ShellCall("rm -f -- "+Quote(o.file), false))
		case "update":
			if o.to != "" && o.to != o.file {
				calls = append(calls, WriteCall(o.to, o.new.String()), ShellCall("rm -f -- "+Quote(o.file), false))
			} else {
				calls = append(calls, EditCall(o.file, o.old.String(), o.new.String()))
			}
		}
	}
	return calls, len(ops) > 0
}

// Quote quotes s as one shell word.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// JoinArgv writes an argument vector a host runs without a shell as the
// shell command that runs the same: every word quoted, so that nothing in
// it (a tilde, a glob, a $, a separator) is expanded or split.
func JoinArgv(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Quote(a))
	}
	return b.String()
}
