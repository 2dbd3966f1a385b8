package programs_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/programs"
)

// tokens reads the first simple command of src into parser tokens: quote
// removal of literals and quotes; a word holding an expansion is dynamic
// from the expansion on (Splits when the expansion is unquoted).
func tokens(t testing.TB, src string) []programs.Token {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	var out []programs.Token
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || out != nil {
			return out == nil
		}
		for _, w := range ce.Args {
			out = append(out, token(w))
		}
		return false
	})
	return out
}

func token(w *syntax.Word) programs.Token {
	var b strings.Builder
	tok := programs.Token{}
	dyn := func(unquoted bool) {
		if !tok.Dynamic {
			tok.Dynamic, tok.Prefix = true, b.String()
		}
		tok.Splits = tok.Splits || unquoted
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				} else {
					dyn(false)
				}
			}
		default:
			dyn(true)
		}
	}
	tok.Value = b.String()
	if !tok.Dynamic {
		tok.Prefix = tok.Value
	}
	return tok
}

// table reads a tab-separated case table: command, expected rendering.
func table(t *testing.T, name string) [][2]string {
	t.Helper()
	var out [][2]string
	for _, r := range rows.ReadRest(t, name, 2) {
		a, b := r.Fields[0], r.Fields[1]
		out = append(out, [2]string{a, strings.TrimLeft(b, "\t")})
	}
	return out
}

// TestParse reads every row of testdata/parse.tsv through the builtin
// catalog and compares the rendering.
func TestParse(t *testing.T) {
	for _, r := range table(t, "testdata/parse.tsv") {
		argv := tokens(t, r[0])
		p := programs.Parse(programs.Lookup(argv[0].Value), argv)
		if got := p.Render(argv); got != r[1] {
			t.Errorf("%s\n got  %s\n want %s", r[0], got, r[1])
		}
	}
}

// TestCatalogLoads reads the embedded catalog: every file parses, names
// are unique, conditions name real options.
func TestCatalogLoads(t *testing.T) {
	c, err := programs.LoadFS(os.DirFS("."), "catalog")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Programs()) == 0 {
		t.Fatal("empty catalog")
	}
}

// TestEveryFileEmbedded checks that every catalog file is embedded.
func TestEveryFileEmbedded(t *testing.T) {
	files, err := filepath.Glob("catalog/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	emb := programs.EmbeddedFiles()
	for _, f := range files {
		if !slices.Contains(emb, filepath.Base(f)) {
			t.Errorf("%s is not embedded: add it to embed.go", f)
		}
	}
	if len(emb) != len(files) {
		t.Errorf("%d files embedded, %d in catalog/", len(emb), len(files))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"rm -rf /", "cp -t d a b", "tar xzf a.tgz -C d", "find / -name x -exec rm {} ;", "dd if=/dev/zero of=/dev/sda", "git RESET --HARD", "git push --forc --force-with-lease-if-includes=x o"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argv := []programs.Token{}
		for _, w := range strings.Fields(s) {
			argv = append(argv, programs.Token{Value: w, Prefix: w})
		}
		if len(argv) == 0 {
			return
		}
		p := programs.Parse(programs.Lookup(argv[0].Value), argv)
		for _, op := range p.Operands {
			if op.Word <= 0 || op.Word >= len(argv) {
				t.Fatalf("operand index %d out of range", op.Word)
			}
		}
		for _, o := range p.Opts {
			if o.Word <= 0 || o.Word >= len(argv) || o.HasValue && (o.ValueWord < 0 || o.ValueWord >= len(argv)) || o.End > len(argv) {
				t.Fatalf("option %+v out of range", o)
			}
		}
		for _, n := range p.Near {
			if n.Word <= 0 || n.Word >= len(argv) || len(n.As) == 0 {
				t.Fatalf("near word %+v out of range", n)
			}
		}
		_ = p.Render(argv)
	})
}

// TestForFile checks the program that runs a file by its extension.
func TestForFile(t *testing.T) {
	for file, want := range map[string]string{
		"/tmp/r.py": "python", "x.JS": "node", "a.pl": "perl", "b.rb": "ruby", "i.php": "php",
		"s.lua": "lua", "t.tcl": "tclsh", "p.ps1": "pwsh", "j.jl": "julia", "run.sh": "bash",
		"README.md": "", "Makefile": "",
	} {
		got := ""
		if p := programs.ForFile(file); p != nil {
			got = p.Name
		}
		if got != want {
			t.Errorf("ForFile(%q) = %q, want %q", file, got, want)
		}
	}
}
