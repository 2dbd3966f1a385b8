package guardrail

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolwall/toolwall/advisors/internal/tags"
)

// Reply is a parsed guardrail answer.
type Reply struct {
	// Risk is the label; Unknown when the answer has none usable.
	Risk Risk
	// Explanation is the answer's text outside the label line, on one
	// line, at most 300 bytes (model output: untrusted).
	Explanation string
	// Problem says why Risk is Unknown ("" otherwise).
	Problem string
}

// spanTags are the tags whose spans a reply is read without: the prompt's
// own (a model quoting the action must not smuggle its labels) and the
// reasoning spans local reasoning models print before their answer.
var spanTags = []string{"tool", "summary", "thought", "arguments", "think", "thinking"}

// Parse reads a guardrail model's answer (the LLM security analyzer's hardened parser):
//
//   - only the first 16 KiB are read, CRLF and CR become LF;
//   - balanced spans of <tool>, <summary>, <thought>, <arguments>,
//     <think> and <thinking> are taken out, so a label quoted from the
//     action or thought about does not count; any of those tags left
//     over (unbalanced, crossing, self-closing, unterminated) → Unknown;
//   - a label counts only on a line of its own: "RISK: LOW", "RISK:
//     MEDIUM" or "RISK: HIGH", any case, surrounding spaces and markdown
//     emphasis (*, _, `) ignored;
//   - no label, or two different ones → Unknown; one label repeated →
//     that label.
//
// It runs in time linear in the input.
func Parse(text string) Reply {
	text = tags.Normalize(text)
	rest, ok := tags.Strip(text, spanTags)
	if !ok {
		return Reply{Problem: "the answer has an unbalanced or unterminated tag", Explanation: tags.Line(text, 300)}
	}
	var found []Risk
	var other []string
	for _, line := range strings.Split(rest, "\n") {
		if r, ok := labelLine(line); ok {
			if !slices.Contains(found, r) {
				found = append(found, r)
			}
			continue
		}
		other = append(other, line)
	}
	expl := tags.Line(strings.Join(other, " "), 300)
	switch len(found) {
	case 0:
		return Reply{Problem: "the answer has no RISK line", Explanation: expl}
	case 1:
		return Reply{Risk: found[0], Explanation: expl}
	}
	names := make([]string, len(found))
	for i, r := range found {
		names[i] = r.String()
	}
	return Reply{Problem: fmt.Sprintf("the answer has conflicting RISK lines (%s)", strings.Join(names, ", ")), Explanation: expl}
}

// labelLine reads "RISK: <label>" alone on a line.
func labelLine(line string) (Risk, bool) {
	t := strings.Trim(line, " \t*_`")
	if len(t) < 5 || !strings.EqualFold(t[:5], "RISK:") {
		return Unknown, false
	}
	r, err := ParseRisk(t[5:])
	return r, err == nil
}
