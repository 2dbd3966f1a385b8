package destroy

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// consumed judges inputs that a tool deletes after reading them (tar
// --remove-files, zip -m, 7z -sdel, rsync --remove-source-files) as the
// recursive delete they amount to.
func (a *run) consumed(c *shell.Command, inputs []shell.Word) {
	for _, w := range inputs {
		if w.Dynamic || strings.Contains(w.Value, ":") {
			continue
		}
		t := a.env.resolve(w, c.Cwd)
		if t.dynamic {
			continue
		}
		a.tagDelete(t)
		a.judgeDelete(c, t, "")
	}
}

// archiveInputs returns the files an archiver takes in and then deletes,
// or nil when it keeps them: tar with --remove-files (operands after the
// options, without -f/-C and their values), zip with -m/--move (operands
// after the archive), 7z a with -sdel (operands after the archive).
func archiveInputs(n string, args []shell.Word) []shell.Word {
	var ops []shell.Word
	removes := false
	switch n {
	case "tar", "bsdtar", "gtar":
		skip := false
		for i, w := range args[1:] {
			v := w.Value
			switch {
			case skip:
				skip = false
			case v == "--remove-files":
				removes = true
			case v == "-f" || v == "-C" || v == "--file" || v == "--directory" || v == "-T" || v == "-X":
				skip = true
			case strings.HasPrefix(v, "--"):
			case strings.HasPrefix(v, "-") || i == 0 && !strings.Contains(v, "/"):
				// bundled short options (old style when first): a trailing
				// f takes the next word as the archive
				if strings.HasSuffix(v, "f") {
					skip = true
				}
			default:
				ops = append(ops, w)
			}
		}
	case "zip":
		for _, w := range args[1:] {
			v := w.Value
			switch {
			case v == "--move" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "m"):
				removes = true
			case strings.HasPrefix(v, "-"):
			default:
				ops = append(ops, w)
			}
		}
		if len(ops) > 0 {
			ops = ops[1:] // the archive itself
		}
	case "7z", "7za", "7zr":
		for _, w := range args[1:] {
			v := w.Value
			switch {
			case v == "-sdel":
				removes = true
			case strings.HasPrefix(v, "-"):
			default:
				ops = append(ops, w)
			}
		}
		if len(ops) > 1 {
			ops = ops[2:] // the command letter and the archive
		} else {
			ops = nil
		}
	}
	if !removes {
		return nil
	}
	return ops
}
