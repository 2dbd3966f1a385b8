package shell

import (
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/toolwall/toolwall/internal/rows"
)

var langNames = map[string]lang{"python": langPython, "node": langNode, "perl": langPerl, "ruby": langRuby, "php": langPHP,
	"lua": langLua, "r": langR, "julia": langJulia, "applescript": langAppleScript}

// codeCase is one line of testdata/code.tsv.
type codeCase struct {
	line int
	l    lang
	src  string
	want []string
}

func loadCode(t testing.TB) []codeCase {
	return loadCodeFile(t, "code.tsv")
}

// loadCodeFile reads a case file of loadCode's format from testdata.
func loadCodeFile(t testing.TB, name string) []codeCase {
	t.Helper()
	var out []codeCase
	for _, r := range rows.ReadMin(t, "testdata/"+name, 2) {
		n, cols := r.Line, r.Fields
		lg, ok := langNames[cols[0]]
		if !ok {
			t.Fatalf("%s:%d: unknown language %q", name, n, cols[0])
		}
		src, err := strconv.Unquote(cols[1])
		if err != nil {
			t.Fatalf("%s:%d: program: %v", name, n, err)
		}
		c := codeCase{line: n, l: lg, src: src}
		for _, q := range cols[2:] {
			want, err := strconv.Unquote(q)
			if err != nil {
				t.Fatalf("%s:%d: column: %v", name, n, err)
			}
			c.want = append(c.want, want)
		}
		out = append(out, c)
	}
	return out
}

// TestCommandsOf checks the commands found in inline programs
// (testdata/code.tsv).
func TestCommandsOf(t *testing.T) {
	for _, c := range loadCode(t) {
		got, _, _, ok := commandsOf(c.l, c.src, DefaultMaxNodes)
		if !ok {
			t.Errorf("code.tsv:%d: over budget", c.line)
		}
		if len(got) == 0 && len(c.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("code.tsv:%d: commandsOf(%q)\n got %q\nwant %q", c.line, c.src, got, c.want)
		}
	}
}

// FuzzCommandsOf checks that reading program text never panics, answers
// the same twice and stays linear. Seeds: testdata/code.tsv.
func FuzzCommandsOf(f *testing.F) {
	for _, c := range loadCode(f) {
		f.Add(uint8(c.l), c.src)
	}
	f.Fuzz(func(t *testing.T, l uint8, src string) {
		lg := lang(l%uint8(langPHP)) + 1
		start := time.Now()
		a, aw, _, _ := commandsOf(lg, src, DefaultMaxNodes)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("commandsOf took %v on %d bytes", d, len(src))
		}
		if b, bw, _, _ := commandsOf(lg, src, DefaultMaxNodes); !reflect.DeepEqual(a, b) || !reflect.DeepEqual(aw, bw) {
			t.Fatalf("commandsOf(%q) not deterministic: %q vs %q", src, a, b)
		}
	})
}

// BenchmarkCommandsOf measures reading a typical one-liner per language.
func BenchmarkCommandsOf(b *testing.B) {
	progs := []struct {
		l   lang
		src string
	}{
		{langPython, `import subprocess, os; subprocess.run(["git", "status"], check=True); print(os.getcwd())`},
		{langNode, `const {execSync} = require("child_process"); console.log(execSync("git rev-parse HEAD").toString().trim())`},
		{langPerl, `while (<>) { s/foo/bar/g; print } system("make -j4")`},
	}
	for _, p := range progs {
		b.Run(viaOf[p.l], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				commandsOf(p.l, p.src, DefaultMaxNodes)
			}
		})
	}
}

// TestCodeWrites reads the files inline programs write
// (testdata/codewrites.tsv: each write as "w PATH" or "a PATH", a path
// below the home written "~/…").
func TestCodeWrites(t *testing.T) {
	for _, c := range loadCodeFile(t, "codewrites.tsv") {
		_, writes, _, ok := commandsOf(c.l, c.src, DefaultMaxNodes)
		var got []string
		for _, w := range writes {
			mode, home := "w", ""
			if w.appends {
				mode = "a"
			}
			if w.home {
				home = "~"
			}
			got = append(got, mode+" "+home+w.path.text)
		}
		if !ok || !slices.Equal(got, c.want) {
			t.Errorf("codewrites.tsv:%d: writes of %q\n got %q\nwant %q", c.line, c.src, got, c.want)
		}
	}
}
