package pwsh

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/analysis/analysistest"
)

var places = Options{Cwd: "/Users/me/proj", Project: "/Users/me/proj", Home: "/Users/me"}

// TestTranslate: each PowerShell command becomes the bash text in
// testdata/translate.tsv.
func TestTranslate(t *testing.T) {
	for _, row := range analysistest.ReadTSV(t, "translate.tsv", 2) {
		src, want := row.Fields[0], row.Fields[1]
		got, err := Translate(src, places)
		if err != nil || got != want {
			t.Errorf("line %d: %s\n got %q (%v)\nwant %q", row.Line, src, got, err, want)
		}
	}
}

// TestReadText: the commands read keep their PowerShell text, for
// reasons; their effects are the catalog's.
func TestReadText(t *testing.T) {
	s, err := Read(`Get-ChildItem C:\x | Remove-Item -Recurse -Force; iwr https://x.example/a -OutFile a.exe`, places)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, c := range s.Commands {
		texts = append(texts, c.Text)
		if len(c.Assigns) != 0 {
			t.Errorf("%s: marker left in %v", c.Text, c.Assigns)
		}
	}
	want := []string{`Get-ChildItem C:\x`, `Remove-Item -Recurse -Force`, `iwr https://x.example/a -OutFile a.exe`}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("texts %q, want %q", texts, want)
	}
	if e := s.Commands[2].Effects; len(e) == 0 || e[0].Path != "/Users/me/proj/a.exe" {
		t.Errorf("effects of the download: %+v", e)
	}
}

// TestErrors: what cannot be read is a *SyntaxError, what is too large
// or nested too deeply a *LimitError.
func TestErrors(t *testing.T) {
	for _, src := range []string{`Write-Output 'x`, `Get-Item (x`, `Get-Item x }`, `"unterminated`, `powershell -enc !!!`, `@"` + "\nx"} {
		if _, err := Read(src, places); !errors.As(err, new(*SyntaxError)) {
			t.Errorf("%q: %v, want a SyntaxError", src, err)
		}
	}
	deep := strings.Repeat("(", 100) + strings.Repeat(")", 100)
	nested := "Remove-Item x"
	for range 12 {
		nested = "iex '" + strings.ReplaceAll(nested, "'", "''") + "'"
	}
	for _, src := range []string{deep, nested, strings.Repeat("a ", MaxBytes)} {
		if _, err := Read(src, places); !errors.As(err, new(*LimitError)) {
			t.Errorf("%.40q: %v, want a LimitError", src, err)
		}
	}
}

// FuzzRead: any input is read or refused with a typed error, quickly,
// the same way twice, and never panics.
func FuzzRead(f *testing.F) {
	for _, row := range analysistest.ReadTSV(f, "translate.tsv", 2) {
		f.Add(row.Fields[0])
	}
	f.Add(`iex ([Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('VwByAGkAdABlAA==')))`)
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		a, err1 := Translate(src, places)
		b, err2 := Translate(src, places)
		if a != b || (err1 == nil) != (err2 == nil) {
			t.Fatalf("not deterministic: %q %v / %q %v", a, err1, b, err2)
		}
		_, err := Read(src, places)
		var syn *SyntaxError
		var lim *LimitError
		if err != nil && !errors.As(err, &syn) && !errors.As(err, &lim) && !strings.HasPrefix(err.Error(), "pwsh: reading the translation") {
			t.Fatalf("untyped error %v", err)
		}
		if time.Since(start) > 2*time.Second {
			t.Fatalf("slow: %v", time.Since(start))
		}
	})
}

func BenchmarkRead(b *testing.B) {
	for b.Loop() {
		if _, err := Read(`cd "C:\Users\me\proj" ; Get-ChildItem -Recurse -Filter *.cs | Select-String TODO`, places); err != nil {
			b.Fatal(err)
		}
	}
}
