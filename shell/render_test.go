package shell

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readCase is one case of testdata/read.txt.
type readCase struct {
	line int
	src  string
	opt  Options
	want []string
}

// defaultOptions are the options of the acceptance cases
// (testdata/spec/cases.jsonl).
func defaultOptions() Options {
	return Options{Cwd: "/workspace/app", Home: "/home/user"}
}

// loadCases reads a case file: "$ " lines hold the source (joined by
// newlines), an "@ k=v ..." line sets options, the following lines the
// expected commands as rendered by render, "-" for none, "error KIND" for
// an error; a blank line ends a case; "#" lines are comments.
func loadCases(t testing.TB, name string) []readCase {
	t.Helper()
	fh, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []readCase
	var cur *readCase
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for sc.Scan() {
		n++
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "#"):
		case strings.TrimSpace(l) == "":
			flush()
		case strings.HasPrefix(l, "$ ") || l == "$":
			if cur == nil {
				cur = &readCase{line: n, opt: defaultOptions()}
			} else if len(cur.want) > 0 {
				t.Fatalf("%s:%d: source after expectations", name, n)
			} else {
				cur.src += "\n"
			}
			cur.src += strings.TrimPrefix(strings.TrimPrefix(l, "$"), " ")
		case strings.HasPrefix(l, "@ "):
			for _, kv := range strings.Fields(l[2:]) {
				k, v, _ := strings.Cut(kv, "=")
				setOption(t, &cur.opt, k, v)
			}
		default:
			if cur == nil {
				t.Fatalf("%s:%d: expectation without source", name, n)
			}
			cur.want = append(cur.want, l)
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func setOption(t testing.TB, o *Options, k, v string) {
	n, _ := strconv.Atoi(v)
	switch k {
	case "cwd":
		o.Cwd = v
	case "home":
		o.Home = v
	case "user":
		o.User = v
	case "maxdepth":
		o.MaxDepth = n
	case "maxbytes":
		o.MaxBytes = n
	case "maxcommands":
		o.MaxCommands = n
	case "maxnodes":
		o.MaxNodes = n
	default:
		t.Fatalf("unknown option %q", k)
	}
}

// renderScript renders a Read result as case lines.
func renderScript(s *Script, err error, opt Options) []string {
	if err != nil {
		var se *SyntaxError
		var le *LimitError
		switch {
		case errors.As(err, &se):
			return []string{fmt.Sprintf("error syntax depth=%d", se.Depth)}
		case errors.As(err, &le):
			return []string{"error limit " + le.Limit}
		}
		return []string{"error " + err.Error()}
	}
	if len(s.Commands) == 0 && len(s.Funcs) == 0 {
		return []string{"-"}
	}
	out := make([]string, 0, len(s.Commands)+1)
	for _, c := range s.Commands {
		out = append(out, render(c, opt))
	}
	if len(s.Funcs) > 0 {
		var fs []string
		for _, f := range s.Funcs {
			fs = append(fs, fmt.Sprintf("%s=%d", f.Name, len(f.Calls)))
		}
		out = append(out, "funcs: "+strings.Join(fs, " "))
	}
	return out
}

var bare = regexp.MustCompile(`^[A-Za-z0-9_./~:=@%+,{}*?\[\]-]+$`)

func renderValue(v string) string {
	if bare.MatchString(v) {
		return v
	}
	return strconv.Quote(v)
}

func renderWord(w Word) string {
	switch {
	case w.Dynamic && w.Value != w.Prefix:
		return "dyn:" + strconv.Quote(w.Prefix) + "~" + strconv.Quote(w.Value)
	case w.Dynamic:
		return "dyn:" + strconv.Quote(w.Prefix)
	case w.Glob:
		return "glob:" + renderValue(w.Value)
	}
	return renderValue(w.Value)
}

// render is one command as "argv ;; attributes" (attributes only when not
// the default).
func render(c *Command, opt Options) string {
	var b strings.Builder
	if len(c.Args) == 0 {
		b.WriteString("<none>")
	}
	for i, w := range c.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(renderWord(w))
	}
	var at []string
	add := func(s string) { at = append(at, s) }
	if len(c.Args) > 0 && c.Name != c.Args[0].Value && !(c.Args[0].Dynamic && c.Name == "") {
		add("name=" + renderValue(c.Name))
	}
	if c.Via != "" {
		add("via=" + renderValue(c.Via))
	}
	if c.Depth != 0 {
		add(fmt.Sprintf("depth=%d", c.Depth))
	}
	if c.Cwd != opt.Cwd {
		add("cwd=" + renderValue(c.Cwd))
	}
	if len(c.Wrappers) > 0 {
		add("wrap=" + strings.Join(c.Wrappers, ","))
	}
	if c.Privileged {
		add("priv")
	}
	if c.Background {
		add("bg")
	}
	if c.Func != "" {
		add("func=" + renderValue(c.Func))
	}
	if c.Piped != 1 {
		add(fmt.Sprintf("pipe=%d/%d", c.Pipeline, c.Piped))
	}
	if c.Parent != nil {
		add("parent=" + renderValue(c.Parent.Name))
	}
	if len(c.Assigns) > 0 {
		add("assign=" + renderValue(strings.Join(c.Assigns, ",")))
	}
	for _, r := range c.Redirects {
		s := "redir=" + r.Fd + r.Op + renderWord(r.Target)
		if r.Body != "" {
			s += ":" + strconv.Quote(r.Body)
		}
		add(s)
	}
	switch in := c.Stdin; in.Kind {
	case StdinPipe:
		from := "nil"
		if in.From != nil {
			from = renderValue(in.From.Name)
		}
		add("stdin=pipe:" + from)
		if len(in.Feeds) != 1 || in.Feeds[0] != in.From {
			var fs []string
			for _, x := range in.Feeds {
				fs = append(fs, renderValue(x.Name))
			}
			add("feeds=" + strings.Join(fs, ","))
		}
	case StdinFile:
		add("stdin=file:" + renderValue(in.Path))
	case StdinHeredoc:
		add("stdin=text:" + strconv.Quote(in.Text))
	case StdinSubstitute:
		add("stdin=subst")
	}
	if c.Stdin.Dynamic {
		add("stdin-dyn")
	}
	if len(c.Candidates) > 0 {
		add("cands=" + strings.Join(c.Candidates, ","))
	}
	if len(at) == 0 {
		return b.String()
	}
	return b.String() + " ;; " + strings.Join(at, " ")
}
