package tafc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolwall/toolwall/executor"
)

// Model completes a prompt. Implementations bound their own time and
// return an error rather than an empty answer.
type Model interface {
	Complete(ctx context.Context, system, prompt string) (string, error)
}

// Options configure [Think].
type Options struct {
	// Model is asked; nil turns TAFC off.
	Model Model
	// MaxThinking bounds the reasoning text kept, in bytes (default 4096).
	MaxThinking int
}

// Plan is the outcome of the reasoning step.
type Plan struct {
	// Off says no model is configured: Tools is every tool.
	Off bool
	// Thinking is the model's reasoning (bounded), for the agent's
	// context.
	Thinking string
	// Tools names the tools the model chose, in definition order; every
	// tool when Off or Err.
	Tools []string
	// Err says why the step failed (the model's error, an answer without
	// a TOOLS line); nil when it worked.
	Err error
}

// System is the system prompt of the reasoning step.
const System = "You plan tool use for a coding agent. Think step by step about which of the listed tools the request needs, then end with one line: TOOLS: name, name (only names from the list; TOOLS: none when no tool is needed)."

// Prompt is the user prompt for query and tools.
func Prompt(query string, tools []executor.Definition) string {
	var b strings.Builder
	b.WriteString("Request:\n")
	b.WriteString(query)
	b.WriteString("\n\nTools:\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "- %s: %s\n", t.Name, t.Description)
	}
	return b.String()
}

// ErrNoTools is wrapped by Plan.Err when the answer has no TOOLS line.
var ErrNoTools = errors.New("tafc: the answer has no TOOLS line")

// Think runs the reasoning step for query over tools.
func Think(ctx context.Context, opts Options, query string, tools []executor.Definition) Plan {
	all := make([]string, len(tools))
	for i, t := range tools {
		all[i] = t.Name
	}
	if opts.Model == nil {
		return Plan{Off: true, Tools: all}
	}
	answer, err := opts.Model.Complete(ctx, System, Prompt(query, tools))
	if err != nil {
		return Plan{Tools: all, Err: fmt.Errorf("tafc: model: %w", err)}
	}
	max := opts.MaxThinking
	if max <= 0 {
		max = 4096
	}
	thinking, chosen, err := Parse(answer, all)
	if len(thinking) > max {
		thinking = thinking[:max]
	}
	if err != nil {
		return Plan{Thinking: thinking, Tools: all, Err: err}
	}
	return Plan{Thinking: thinking, Tools: chosen}
}

// Parse reads a model's answer: the text before the last line starting
// with "TOOLS:" (any case) is the reasoning, and that line's
// comma-separated names, kept when they are in known (matched without
// regard to case, returned in known's order). "none" chooses no tool. An
// answer without such a line wraps ErrNoTools.
func Parse(answer string, known []string) (thinking string, tools []string, err error) {
	lines := strings.Split(strings.ReplaceAll(answer, "\r\n", "\n"), "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(strings.Trim(l, "*` "))), "TOOLS:") {
			at = i
		}
	}
	if at < 0 {
		return strings.TrimSpace(answer), nil, fmt.Errorf("%w: %q", ErrNoTools, tail(answer, 120))
	}
	thinking = strings.TrimSpace(strings.Join(lines[:at], "\n"))
	line := strings.TrimSpace(strings.Trim(lines[at], "*` "))
	named := map[string]bool{}
	for _, n := range strings.Split(line[len("TOOLS:"):], ",") {
		named[strings.ToLower(strings.Trim(strings.TrimSpace(n), "`*\"'"))] = true
	}
	tools = []string{}
	for _, k := range known {
		if named[strings.ToLower(k)] {
			tools = append(tools, k)
		}
	}
	return thinking, tools, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// Select returns the definitions plan chose, in their order.
func Select(tools []executor.Definition, plan Plan) []executor.Definition {
	var out []executor.Definition
	for _, t := range tools {
		if slices.Contains(plan.Tools, t.Name) {
			out = append(out, t)
		}
	}
	return out
}
