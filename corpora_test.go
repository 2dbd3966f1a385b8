package toolwall_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/eval"
)

// corporaDir is where the public command corpora are: $TOOLWALL_CORPORA,
// else the corpora of the shared folder beside the clone.
func corporaDir(t *testing.T) string {
	dir := os.Getenv("TOOLWALL_CORPORA")
	if dir == "" {
		dir = filepath.Join("..", "shared", "corpora")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpora not present at %s (set TOOLWALL_CORPORA)", dir)
	}
	return dir
}

// jsonLines calls fn with each JSON object of a .jsonl file.
func jsonLines(t *testing.T, path string, fn func(map[string]any)) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		fn(m)
		n++
	}
	if err := sc.Err(); err != nil || n == 0 {
		t.Fatalf("%s: %d lines read, %v", path, n, err)
	}
}

func judge(cmd string) toolwall.Verdict {
	c := eval.Case{ID: "corpus", Tool: toolwall.ToolBash, Command: cmd}
	return specGate.Evaluate(context.Background(), c.Call())
}

var specGate = newSpecGate(engine.NoMemory)

// TestCorpora measures the gate on the public corpora and prints the
// numbers docs/measurements.md reports. It fails only on gross
// regressions: benign lines stopped (parse errors aside) above 1.5%. tldr
// documents destructive commands on purpose (terraform destroy, useradd,
// aws … delete-*); the analyzers' own corpus tests hold the reviewed lists
// of such stops line by line.
//
//	TOOLWALL_CORPORA=<the public corpora> go test -run TestCorpora -v .
func TestCorpora(t *testing.T) {
	dir := corporaDir(t)
	reviewed := readStops(t)
	found := map[stopKey][]string{} // every stop met, with its rule ids
	for _, name := range []string{"tldr", "nl2bash"} {
		var lines, stopped, unparsed int
		rules := map[string]int{}
		seen := map[string]bool{} // each distinct line once, as the scorecard counts
		jsonLines(t, filepath.Join(dir, "benign", name+".jsonl"), func(m map[string]any) {
			cmd, _ := m["cmd"].(string)
			if hint, _ := m["risk_hint"].([]any); len(hint) > 0 || strings.TrimSpace(cmd) == "" || strings.Contains(cmd, "\n") || seen[cmd] {
				return
			}
			seen[cmd] = true
			lines++
			v := judge(cmd)
			switch {
			case slices.Contains(v.Rules(), "shell.parse-error") && v.Action == toolwall.Ask:
				unparsed++
			case v.Action.Stops():
				stopped++
				found[stopKey{name, cmd}] = v.Rules()
				for _, r := range v.Rules() {
					rules[r]++
				}
			}
		})
		rate := float64(stopped) / float64(lines)
		t.Logf("benign %-8s %5d lines (empty risk_hint): %4d stopped (%.2f%%), %3d do not parse as shell (ask); top rules: %s",
			name, lines, stopped, 100*rate, unparsed, top(rules, 6))
		if rate > 0.015 {
			t.Errorf("%s: %.2f%% of benign lines stopped", name, 100*rate)
		}
	}

	checkStops(t, reviewed, found)
	windowsCorpus(t, dir)

	cases, err := eval.ReadFile(filepath.Join(dir, "peers", "dcg-corpus.tsv"), "")
	if err != nil {
		t.Fatal(err)
	}
	agree := map[string][2]int{}
	for _, c := range cases {
		v := judge(c.Command)
		a := agree[c.Expect]
		a[0]++
		if eval.Matches(c.Expect, v.Action) || (c.Expect == "deny" && v.Action == toolwall.Ask) {
			a[1]++
		}
		agree[c.Expect] = a
	}
	for _, e := range []string{"allow", "deny"} {
		t.Logf("peer dcg: expected %-5s %3d cases, we agree on %3d (deny counted as agreed when we ask)", e, agree[e][0], agree[e][1])
	}

	type tally struct{ n, stopped int }
	tactics := map[string]*tally{}
	jsonLines(t, filepath.Join(dir, "dangerous", "atomic-red-team.jsonl"), func(m map[string]any) {
		cmd, _ := m["command"].(string)
		v := judge(cmd)
		ts, _ := m["tactics"].([]any)
		for _, x := range ts {
			tac := fmt.Sprint(x)
			if tactics[tac] == nil {
				tactics[tac] = &tally{}
			}
			tactics[tac].n++
			if v.Action.Stops() {
				tactics[tac].stopped++
			}
		}
	})
	names := make([]string, 0, len(tactics))
	for k := range tactics {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return tactics[names[i]].n > tactics[names[j]].n })
	for _, k := range names {
		t.Logf("atomic-red-team %-22s %3d/%3d stopped", k, tactics[k].stopped, tactics[k].n)
	}
}

func top(m map[string]int, n int) string {
	type kv struct {
		k string
		v int
	}
	var s []kv
	for k, v := range m {
		s = append(s, kv{k, v})
	}
	sort.Slice(s, func(i, j int) bool { return s[i].v > s[j].v || s[i].v == s[j].v && s[i].k < s[j].k })
	var out []string
	for i := 0; i < len(s) && i < n; i++ {
		out = append(out, fmt.Sprintf("%s=%d", s[i].k, s[i].v))
	}
	return strings.Join(out, " ")
}

// windowsCorpus measures tldr-pages' Windows examples (cmd.exe and
// PowerShell lines) judged as the PowerShell calls Windows hosts send:
// the stops not reviewed in testdata/corpus-windows-stops.txt must stay
// within the benign corpora's targets (stop <= 1.5 %, deny <= 0.3 % of the
// lines with an empty risk_hint); lines the PowerShell reader cannot read
// are asked about and counted apart, as bash parse errors are.
func windowsCorpus(t *testing.T, dir string) {
	b, err := os.ReadFile("testdata/corpus-windows-stops.txt")
	if err != nil {
		t.Fatal(err)
	}
	reviewed := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			reviewed[l] = true
		}
	}
	var lines, stopped, denied, unread, known int
	rules := map[string]int{}
	jsonLines(t, filepath.Join(dir, "benign", "tldr-windows.jsonl"), func(m map[string]any) {
		cmd, _ := m["cmd"].(string)
		if hint, _ := m["risk_hint"].([]any); len(hint) > 0 || cmd == "" || strings.Contains(cmd, "\n") {
			return
		}
		lines++
		in, _ := json.Marshal(map[string]string{"command": cmd})
		v := specGate.Evaluate(context.Background(), toolwall.Call{Tool: toolwall.ToolPowerShell, Input: in,
			Cwd: "/Users/user/project", Project: "/Users/user/project", Home: "/Users/user"})
		switch {
		case slices.Contains(v.Rules(), "pwsh.parse-error"):
			unread++
		case v.Action.Stops() && reviewed[cmd]:
			known++
		case v.Action.Stops():
			stopped++
			if v.Action == toolwall.Deny {
				denied++
			}
			for _, r := range v.Rules() {
				rules[r]++
			}
			t.Logf("tldr-windows stop not reviewed: %s %v: %s", v.Action, v.Rules(), cmd)
		}
	})
	rate, drate := float64(stopped)/float64(lines), float64(denied)/float64(lines)
	t.Logf("benign tldr-windows %5d lines (empty risk_hint, as PowerShell): %4d stopped and not reviewed (%.2f%%), %d denied (%.2f%%), %d reviewed stops, %3d cannot be read (ask); top rules: %s",
		lines, stopped, 100*rate, denied, 100*drate, known, unread, top(rules, 6))
	if rate > 0.015 || drate > 0.003 {
		t.Errorf("tldr-windows: %.2f%% stopped, %.2f%% denied", 100*rate, 100*drate)
	}
}

// stopsFile lists every benign corpus line the gate stops, each reviewed
// (the test fails when a new one appears).
const stopsFile = "testdata/corpus-stops.txt"

// stopKey is one corpus line.
type stopKey struct{ corpus, cmd string }

// reviewedStops are the lines of stopsFile and the reason given for each
// rule id's group ("# rule: why").
type reviewedStops struct {
	lines map[stopKey]bool
	why   map[string]string
}

// readStops reads stopsFile: "# RULE: why" lines give a group's reason;
// other lines are "CORPUS<TAB>RULES<TAB>COMMAND" with the command
// Go-quoted.
func readStops(t *testing.T) reviewedStops {
	r := reviewedStops{lines: map[stopKey]bool{}, why: map[string]string{}}
	b, err := os.ReadFile(stopsFile)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for n, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "# "); ok {
			if rule, why, ok := strings.Cut(rest, ": "); ok && !strings.Contains(rule, " ") {
				r.why[rule] = why
			}
			continue
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 {
			t.Fatalf("%s:%d: want corpus, rules and command", stopsFile, n+1)
		}
		cmd, err := strconv.Unquote(f[2])
		if err != nil {
			t.Fatalf("%s:%d: %v", stopsFile, n+1, err)
		}
		r.lines[stopKey{f[0], cmd}] = true
	}
	return r
}

// checkStops fails on a stop not reviewed in stopsFile, and on a
// reviewed line no longer stopped. With TOOLWALL_UPDATE_STOPS=1 it writes
// the file anew from what was found instead, grouped by each line's
// first rule, keeping the groups' reasons; a group without one gets
// "REVIEW", which fails the next run until someone writes why.
func checkStops(t *testing.T, r reviewedStops, found map[stopKey][]string) {
	if os.Getenv("TOOLWALL_UPDATE_STOPS") != "" {
		groups := map[string][]string{}
		for k, rules := range found {
			groups[rules[0]] = append(groups[rules[0]], k.corpus+"\t"+strings.Join(rules, ",")+"\t"+strconv.Quote(k.cmd))
		}
		var b strings.Builder
		b.WriteString(stopsHeader)
		for _, rule := range slices.Sorted(maps.Keys(groups)) {
			why := r.why[rule]
			if why == "" {
				why = "REVIEW"
			}
			fmt.Fprintf(&b, "\n# %s: %s\n", rule, why)
			slices.Sort(groups[rule])
			b.WriteString(strings.Join(groups[rule], "\n") + "\n")
		}
		if err := os.WriteFile(stopsFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for rule, why := range r.why {
		if why == "REVIEW" {
			t.Errorf("%s: the stops of %s are not reviewed: write why they are intended", stopsFile, rule)
		}
	}
	var fresh, gone []string
	for k, rules := range found {
		if !r.lines[k] {
			fresh = append(fresh, fmt.Sprintf("%s\t%s\t%s", k.corpus, strings.Join(rules, ","), strconv.Quote(k.cmd)))
		}
	}
	for k := range r.lines {
		if _, ok := found[k]; !ok {
			gone = append(gone, fmt.Sprintf("%s\t%q", k.corpus, k.cmd))
		}
	}
	slices.Sort(fresh)
	slices.Sort(gone)
	if len(fresh) > 0 {
		t.Errorf("%d benign lines stopped that %s does not list (review each; TOOLWALL_UPDATE_STOPS=1 rewrites the file):\n%s", len(fresh), stopsFile, strings.Join(fresh, "\n"))
	}
	if len(gone) > 0 {
		t.Errorf("%d lines of %s are no longer stopped; take them out (TOOLWALL_UPDATE_STOPS=1):\n%s", len(gone), stopsFile, strings.Join(gone, "\n"))
	}
}

// stopsHeader opens stopsFile.
const stopsHeader = `# Benign corpus lines the gate stops, each reviewed. The corpora
# are benign/{tldr,nl2bash}.jsonl of the public corpora (tldr-pages,
# CC-BY-4.0, tldr-pages team and contributors; NL2Bash, Lin et al.,
# LREC 2018), lines with an empty risk_hint, each distinct line once.
# TestCorpora fails on a stop not listed here and on a listed line no
# longer stopped. Lines are grouped by the verdict's first rule id; the
# "# RULE: why" line above a group says why those stops are intended.
# Columns: corpus, rule ids, the command (Go-quoted).
`
