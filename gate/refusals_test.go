package gate_test

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/session"
)

// TestRefusalCounting plays testdata/refusals.txt (format in its header):
// sessions whose refusals chain.repeated-refusal counts, or does not
// when they are toolwall's own faults, through the full gate with a real
// session store and the project's configuration file.
func TestRefusalCounting(t *testing.T) {
	f, err := os.Open("testdata/refusals.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type step struct {
		line int
		text string
	}
	var names []string
	cases := map[string][]step{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if name, ok := strings.CutPrefix(l, "case "); ok {
			names = append(names, name)
			continue
		}
		if len(names) == 0 {
			t.Fatalf("refusals.txt:%d: a step before the first case", n)
		}
		cases[names[len(names)-1]] = append(cases[names[len(names)-1]], step{n, l})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			project := t.TempDir()
			p := policy.New(nil)
			var crash, cancel bool
			var stop context.CancelFunc
			test := &analysis.Analyzer{Name: "test", Tools: []string{toolwall.ToolBash}, Run: func(context.Context, *analysis.Input, *analysis.Report) {
				if crash {
					panic("test analyzer crashed")
				}
				if cancel {
					stop()
				}
			}}
			g := gate.New(gate.Options{
				Analyzers: append(analyzers.All(), p.Analyzer(), test),
				Store:     session.NewMemory(session.Options{}),
				Logger:    slog.New(slog.DiscardHandler),
			})
			for _, st := range cases[name] {
				at := "refusals.txt:" + strconv.Itoa(st.line)
				if what, ok := strings.CutPrefix(st.text, "project "); ok {
					content := map[string]string{"broken": "[thresholds\nwarn = 0.3\n", "fixed": "[thresholds]\nwarn = 0.3\n"}[what]
					if content == "" {
						t.Fatalf("%s: project broken or fixed, not %q", at, what)
					}
					if err := os.WriteFile(filepath.Join(project, policy.ProjectFile), []byte(content), 0o600); err != nil {
						t.Fatal(err)
					}
					p.Recheck()
					continue
				}
				kind, rest, _ := strings.Cut(st.text, " ")
				times := 1
				if x, more, ok := strings.Cut(rest, " "); ok && strings.HasPrefix(x, "x") {
					if n, err := strconv.Atoi(x[1:]); err == nil {
						times, rest = n, more
					}
				}
				quoted, err := strconv.QuotedPrefix(rest)
				if err != nil {
					t.Fatalf("%s: %v", at, err)
				}
				text, _ := strconv.Unquote(quoted)
				want, ok := strings.CutPrefix(strings.TrimSpace(rest[len(quoted):]), "=> ")
				if !ok {
					t.Fatalf("%s: no => ACTION RULES", at)
				}
				call := toolwall.NewBashCall(text)
				crash, cancel = kind == "crash", kind == "cancel"
				switch kind {
				case "bash", "crash", "cancel":
				case "input":
					call.Input = json.RawMessage(text)
				default:
					t.Fatalf("%s: unknown step %q", at, kind)
				}
				call.Session, call.Cwd, call.Project, call.Home = "s", project, project, "/home/user"
				for i := range times {
					ctx, c := context.WithCancel(context.Background())
					stop = c
					v := g.Evaluate(ctx, call)
					c()
					got := strings.TrimSpace(v.Action.String() + " " + strings.Join(v.Rules(), " "))
					if got != want {
						t.Errorf("%s (call %d of %d): %s => %s, want %s", at, i+1, times, text, got, want)
					}
				}
			}
		})
	}
}
