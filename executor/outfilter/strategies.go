package outfilter

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// run applies the rule's strategy to lines.
func (r *Rule) run(lines []string, failed bool) []string {
	switch r.Strategy {
	case StripNoise:
		return stripNoise(lines, r.patterns)
	case Truncate:
		return truncate(lines, intOr(r.Head, 50), intOr(r.Tail, 50))
	case KeepMatching:
		return keepMatching(lines, r.patterns)
	case StripAnnotated:
		return stripAnnotated(lines, r.patterns)
	case TestSummary:
		return testSummary(lines, orDefault(r.MaxLines, 30))
	case GroupByRule:
		return groupByRule(lines, r.rule, orDefault(r.Examples, 3))
	case GitStatus:
		return gitStatus(lines)
	case GitDiff:
		return gitDiff(lines, orDefault(r.MaxLines, 40))
	case Dedup:
		return dedup(lines, r.Normalize)
	}
	return lines
}

func intOr(p *int, d int) int {
	if p == nil {
		return d
	}
	return *p
}

func orDefault(n, d int) int {
	if n <= 0 {
		return d
	}
	return n
}

var (
	ansi     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`) })
	progress = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(\d{1,3}(\.\d+)?%|[|/\\-]\s*$|[⠁-⣿]|\[[#=>. -]+\])`)
	})
	digits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+`) })
)

// stripNoise drops ANSI escapes, carriage-return progress rewrites,
// lines matching patterns (default: progress and spinner lines) and runs
// of blank lines.
func stripNoise(lines []string, patterns []*regexp.Regexp) []string {
	var out []string
	blank := false
	for _, l := range lines {
		l = ansi().ReplaceAllString(l, "")
		if i := strings.LastIndexByte(l, '\r'); i >= 0 {
			l = l[i+1:]
		}
		noisy := progress().MatchString(l)
		if len(patterns) > 0 {
			noisy = noisy || slices.ContainsFunc(patterns, func(re *regexp.Regexp) bool { return re.MatchString(l) })
		}
		if noisy {
			continue
		}
		if strings.TrimSpace(l) == "" {
			if blank {
				continue
			}
			blank = true
		} else {
			blank = false
		}
		out = append(out, l)
	}
	return out
}

func truncate(lines []string, head, tail int) []string {
	if len(lines) <= head+tail {
		return lines
	}
	return slices.Concat(lines[:head], lines[len(lines)-tail:])
}

func keepMatching(lines []string, patterns []*regexp.Regexp) []string {
	var out []string
	for _, l := range lines {
		if slices.ContainsFunc(patterns, func(re *regexp.Regexp) bool { return re.MatchString(l) }) {
			out = append(out, l)
		}
	}
	return out
}

// stripAnnotated drops each line matching a pattern and the indented
// lines that continue it.
func stripAnnotated(lines []string, patterns []*regexp.Regexp) []string {
	var out []string
	skipping := false
	for _, l := range lines {
		if slices.ContainsFunc(patterns, func(re *regexp.Regexp) bool { return re.MatchString(l) }) {
			skipping = true
			continue
		}
		if skipping && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && !strings.HasPrefix(strings.TrimSpace(l), "-->") {
			continue
		}
		skipping = false
		out = append(out, l)
	}
	return out
}

var (
	failLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^--- FAIL|^FAIL\b|^\s*FAIL\s|panic:|^\s*●|✕|✗|^E\s{2,}|^_{3,} .* _{3,}$|^FAILED |\bfailures:|^\s*thread '.*' panicked|assert(ion)?(Error)?\b|Error:|error\[)`)
	})
	summaryLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^ok\s+\S+|^PASS$|^FAIL$|^(FAIL|ok)\s+\S+\s+[\d.]+s|test result:|^=+ .*(passed|failed|error).* =+$|^Tests?:|^Test Suites:|^Ran \d+ tests?|^\d+ (passed|failed)|^(passed|failed|errors?)\b|\b\d+ (passing|failing|pending)\b|^coverage:)`)
	})
	passLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^=== (RUN|PAUSE|CONT)|^\s*--- (PASS|SKIP)|^test .* \.\.\. ok$|PASSED|^\s*✓|^\s*√)`)
	})
)

// Words every line failLine or summaryLine matches contains (lower
// case): a cheap filter before the regexps.
var (
	failMarkers    = []string{"fail", "panic", "●", "✕", "✗", "e  ", "___", "assert", "error"}
	summaryMarkers = []string{"ok", "pass", "fail", "test", "ran ", "error", "pending", "coverage"}
)

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// testSummary keeps failure blocks (a failure line and up to maxLines
// lines after it until a passing line) and summary lines, and drops the
// rest of a test run.
func testSummary(lines []string, maxLines int) []string {
	var out []string
	ctx := 0
	for _, l := range lines {
		low := strings.ToLower(l)
		switch t := strings.TrimSpace(l); {
		case strings.HasPrefix(t, "=== RUN") || strings.HasPrefix(t, "--- PASS") || strings.HasPrefix(t, "--- SKIP") || strings.HasPrefix(t, "=== PAUSE") || strings.HasPrefix(t, "=== CONT"):
			ctx = 0 // go test's passing lines, the bulk of a run
		case containsAny(low, failMarkers) && failLine().MatchString(l):
			out = append(out, l)
			ctx = maxLines
		case containsAny(low, summaryMarkers) && summaryLine().MatchString(l):
			out = append(out, l)
			ctx = 0
		case passLine().MatchString(l):
			ctx = 0
		case ctx > 0:
			out = append(out, l)
			ctx--
		}
	}
	return out
}

// groupByRule groups the lines the rule regexp matches by their "rule"
// capture, in order of first appearance: "rule ×N" then up to examples
// lines; lines it does not match are kept as they are.
func groupByRule(lines []string, re *regexp.Regexp, examples int) []string {
	idx := re.SubexpIndex("rule")
	var order []string
	byRule := map[string][]string{}
	var other []string
	for _, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil || m[idx] == "" {
			other = append(other, l)
			continue
		}
		if _, seen := byRule[m[idx]]; !seen {
			order = append(order, m[idx])
		}
		byRule[m[idx]] = append(byRule[m[idx]], l)
	}
	out := other
	for _, rule := range order {
		ls := byRule[rule]
		out = append(out, fmt.Sprintf("%s ×%d", rule, len(ls)))
		for _, l := range ls[:min(examples, len(ls))] {
			out = append(out, "  "+strings.TrimSpace(l))
		}
		if len(ls) > examples {
			out = append(out, fmt.Sprintf("  … %d more", len(ls)-examples))
		}
	}
	return out
}

// gitStatus compacts `git status` (long or short format) to the branch
// line, then one line per state with a count and up to 20 names.
func gitStatus(lines []string) []string {
	var out []string
	states := map[string][]string{}
	var order []string
	add := func(state, name string) {
		if _, ok := states[state]; !ok {
			order = append(order, state)
		}
		states[state] = append(states[state], name)
	}
	section := ""
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "On branch ") || strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "HEAD detached") || strings.HasPrefix(l, "Your branch"):
			out = append(out, l)
		case strings.HasPrefix(l, "Changes to be committed"):
			section = "staged "
		case strings.HasPrefix(l, "Changes not staged"):
			section = ""
		case strings.HasPrefix(l, "Untracked files"):
			section = "untracked"
		case strings.HasPrefix(l, "\t") && section == "untracked":
			add("untracked", t)
		case strings.HasPrefix(l, "\t") && strings.Contains(t, ":"):
			state, name, _ := strings.Cut(t, ":")
			add(section+state, strings.TrimSpace(name))
		case len(l) > 3 && l[2] == ' ' && strings.ContainsAny(l[:2], "MADRCU?!"):
			code := strings.TrimSpace(l[:2])
			add(map[string]string{"M": "modified", "A": "new file", "D": "deleted", "R": "renamed", "??": "untracked", "C": "copied", "U": "unmerged", "!!": "ignored"}[code]+map[bool]string{true: "", false: " (" + code + ")"}[len(code) == 1 || code == "??"], l[3:])
		case t == "" || strings.HasPrefix(t, "(use ") || strings.HasPrefix(t, "no changes added"):
		default:
			out = append(out, l)
		}
	}
	for _, s := range order {
		names := states[s]
		line := fmt.Sprintf("%s: %d — %s", s, len(names), strings.Join(names[:min(20, len(names))], ", "))
		if len(names) > 20 {
			line += fmt.Sprintf(", … %d more", len(names)-20)
		}
		out = append(out, line)
	}
	return out
}

// gitDiff prints, per file, its +/- counts and its first maxLines diff
// lines.
func gitDiff(lines []string, maxLines int) []string {
	var out []string
	var file string
	var body []string
	plus, minus := 0, 0
	flush := func() {
		if file == "" {
			return
		}
		out = append(out, fmt.Sprintf("%s (+%d -%d)", file, plus, minus))
		out = append(out, body[:min(maxLines, len(body))]...)
		if len(body) > maxLines {
			out = append(out, fmt.Sprintf("  … %d more diff lines", len(body)-maxLines))
		}
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			flush()
			f := strings.TrimPrefix(l, "diff --git ")
			if _, b, ok := strings.Cut(f, " b/"); ok {
				f = b
			}
			file, body, plus, minus = f, nil, 0, 0
		case file == "":
			out = append(out, l)
		case strings.HasPrefix(l, "index ") || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ "):
		default:
			if strings.HasPrefix(l, "+") {
				plus++
			} else if strings.HasPrefix(l, "-") {
				minus++
			}
			body = append(body, l)
		}
	}
	flush()
	return out
}

// dedup collapses runs of equal lines (equal once digits are ignored,
// with normalize) to the first line and a count.
func dedup(lines []string, normalize bool) []string {
	key := func(s string) string {
		if normalize {
			return digits().ReplaceAllString(s, "#")
		}
		return s
	}
	var out []string
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && key(lines[j]) == key(lines[i]) {
			j++
		}
		if n := j - i; n > 1 {
			out = append(out, fmt.Sprintf("%s [×%d]", lines[i], n))
		} else {
			out = append(out, lines[i])
		}
		i = j
	}
	return out
}
