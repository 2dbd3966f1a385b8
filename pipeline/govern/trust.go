package govern

import (
	"context"
	"fmt"

	"github.com/gobwas/glob"

	"github.com/toolwall/toolwall/pipeline"
)

// Level is a caller's trust level (the tool-executor framework's SkillTrustLevel).
type Level string

// Trust levels, most trusted first. Quarantined is the default.
const (
	Trusted     Level = "trusted"
	Verified    Level = "verified"
	Quarantined Level = "quarantined"
	Blocked     Level = "blocked"
)

// ParseLevel parses a level name.
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case Trusted, Verified, Quarantined, Blocked:
		return l, nil
	}
	return "", fmt.Errorf("govern: unknown trust level %q (want trusted, verified, quarantined or blocked)", s)
}

// TrustOptions configure the trust gate.
type TrustOptions struct {
	// Levels gives callers (toolwall.Call.Caller; "" is the primary
	// agent) their level; any other caller is Default.
	Levels map[string]Level
	// Default is the level of an unlisted caller (default Quarantined).
	Default Level
	// Quarantine lists the tool id globs a quarantined caller may use
	// (default read-only built-ins: builtin:Read, builtin:Grep,
	// builtin:Glob).
	Quarantine []string
	// Confirm lists the tool id globs a verified caller may use only with
	// a human's approval (default builtin:Bash, builtin:Write,
	// builtin:Edit, builtin:MultiEdit, builtin:NotebookEdit).
	Confirm []string
}

// Trust is the trust gate (the tool-executor framework's TrustGateExecutor):
//
//   - blocked: every call refused;
//   - quarantined: only the Quarantine tools;
//   - verified: every tool, the Confirm tools only with Request.Approved
//     (otherwise a confirmation request);
//   - trusted: every tool.
type Trust struct {
	opts       TrustOptions
	quarantine []glob.Glob
	confirm    []glob.Glob
}

// NewTrust compiles the trust gate.
func NewTrust(opts TrustOptions) (*Trust, error) {
	if opts.Default == "" {
		opts.Default = Quarantined
	}
	if opts.Quarantine == nil {
		opts.Quarantine = []string{"builtin:Read", "builtin:Grep", "builtin:Glob"}
	}
	if opts.Confirm == nil {
		opts.Confirm = []string{"builtin:Bash", "builtin:Write", "builtin:Edit", "builtin:MultiEdit", "builtin:NotebookEdit"}
	}
	t := &Trust{opts: opts}
	for _, l := range append([]Level{opts.Default}, values(opts.Levels)...) {
		if _, err := ParseLevel(string(l)); err != nil {
			return nil, err
		}
	}
	for _, set := range []struct {
		in  []string
		out *[]glob.Glob
	}{{opts.Quarantine, &t.quarantine}, {opts.Confirm, &t.confirm}} {
		for _, p := range set.in {
			g, err := glob.Compile(p)
			if err != nil {
				return nil, fmt.Errorf("govern: bad tool glob %q: %w", p, err)
			}
			*set.out = append(*set.out, g)
		}
	}
	return t, nil
}

func values(m map[string]Level) []Level {
	var out []Level
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// Level returns caller's trust level.
func (t *Trust) Level(caller string) Level {
	if l, ok := t.opts.Levels[caller]; ok {
		return l
	}
	return t.opts.Default
}

// Middleware is the trust gate layer (trust_blocked).
func (t *Trust) Middleware() pipeline.Middleware {
	return pipeline.Middleware{Name: "trust-gate", Wrap: func(next pipeline.Tool) pipeline.Tool {
		return pipeline.ToolFunc(func(ctx context.Context, req *pipeline.Request) (*pipeline.Result, error) {
			id := Qualify(req.Call.Tool)
			who := req.Call.Caller
			if who == "" {
				who = "the primary agent"
			}
			switch l := t.Level(req.Call.Caller); {
			case l == Blocked:
				return refuse(PhaseTrust, fmt.Sprintf("%s is blocked: no tool may run for it.", who)), nil
			case l == Quarantined && !anyGlob(t.quarantine, id):
				return refuse(PhaseTrust, fmt.Sprintf("%s is quarantined and may only use read-only tools; %s is not one. Ask the user to verify it.", who, id)), nil
			case l == Verified && anyGlob(t.confirm, id) && !req.Approved:
				reason := fmt.Sprintf("%s is verified, not trusted: %s needs a human's approval.", who, id)
				r := refuse(PhaseTrust, reason)
				r.Confirm = &pipeline.Confirmation{Reason: reason}
				return r, nil
			}
			return next.Execute(ctx, req)
		})
	}}
}
