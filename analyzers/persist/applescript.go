package persist

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// applescript reads AppleScript program text the way osascript runs it,
// for what this analyzer judges: `do shell script "…"` hands its string
// to sh, so the string is read as shell and every rule runs on its
// commands; `delete POSIX file "…"` and `delete file "…"` through the
// Finder delete that path, judged for logs. (The shell reader does not
// read AppleScript yet; once it does, its commands arrive as commands of
// their own and this reading can go.) Only string literals are read;
// text built at run time is not seen.
func (k *checker) applescript(c *shell.Command, code string) {
	if k.depth > 0 {
		return
	}
	for _, s := range scriptStrings(code, "do shell script") {
		script, err := shell.Read(s, shell.Options{Cwd: k.cwd(c), Home: k.home})
		if err != nil {
			continue
		}
		k.depth++
		for i, inner := range script.Commands {
			k.command(script.Commands, i, inner)
		}
		k.depth--
	}
	for _, verb := range [...]string{"delete posix file", "delete file", "delete (posix file", "delete alias"} {
		for _, p := range scriptStrings(code, verb) {
			if p = k.abs(c, shell.Word{Value: p, Prefix: p}); p != "" && isLog(p) {
				k.logAsk(c, p)
				return
			}
		}
	}
}

// scriptStrings returns the string literals that follow each occurrence
// of verb (matched case-insensitively, with blanks between its words as
// written) in AppleScript code, with their escapes (\" \\) undone.
func scriptStrings(code, verb string) []string {
	var out []string
	l := strings.ToLower(code)
	for i := 0; i < len(l) && len(out) < 16; {
		j := strings.Index(l[i:], verb)
		if j < 0 {
			break
		}
		rest := code[i+j+len(verb):]
		i += j + len(verb)
		t := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(t, `"`) {
			continue
		}
		var b strings.Builder
		for n := 1; n < len(t); n++ {
			ch := t[n]
			if ch == '\\' && n+1 < len(t) {
				n++
				b.WriteByte(t[n])
				continue
			}
			if ch == '"' {
				break
			}
			b.WriteByte(ch)
		}
		out = append(out, b.String())
	}
	return out
}
