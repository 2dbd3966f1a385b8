package govern

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gobwas/glob"

	"github.com/toolwall/toolwall/pipeline"
)

// Namespaces of fully-qualified tool ids. Built-in and skill
// tools are known when the scopes are compiled; MCP, ACP and A2A tools
// register later.
var (
	staticNamespaces  = []string{"builtin:", "skill:"}
	dynamicNamespaces = []string{"mcp:", "acp:", "a2a:"}
)

// Qualify returns the fully-qualified id of a tool name: an id that
// already has a namespace is kept, Claude Code's "mcp__server__tool" is
// "mcp:server/tool", and anything else is "builtin:<name>".
func Qualify(name string) string {
	for _, ns := range append(slices.Clone(staticNamespaces), dynamicNamespaces...) {
		if strings.HasPrefix(name, ns) {
			return name
		}
	}
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if server, tool, ok := strings.Cut(rest, "__"); ok {
			return "mcp:" + server + "/" + tool
		}
	}
	return "builtin:" + name
}

// ScopeConfig is [security.capability_scopes]: named scopes (task types)
// of tool id globs ("*" matches any characters, "/" included).
type ScopeConfig struct {
	// Scopes maps a scope name to its patterns.
	Scopes map[string][]string
	// Default is the scope of a pipeline that names none.
	Default string
	// Callers gives callers (toolwall.Call.Caller, a named sub-agent) a
	// scope of their own: a call of a listed caller is judged by its
	// scope, not the pipeline's (an explore sub-agent gets "research"
	// while the primary agent works in "code_edit"). Every scope named
	// must be defined.
	Callers map[string]string
}

// GeneralScope is the scope name that opts in to a pattern matching the
// whole registry.
const GeneralScope = "general"

// Scope error kinds.
const (
	// DeadPattern: a built-in or skill pattern matches no registered tool.
	DeadPattern = "dead-pattern"
	// AccidentallyFull: a pattern of a scope other than "general" matches
	// every registered tool.
	AccidentallyFull = "accidentally-full"
	// BadPattern: a pattern that does not compile or has no known
	// namespace.
	BadPattern = "bad-pattern"
)

// ScopeError is a scope configuration error.
type ScopeError struct {
	Kind, Scope, Pattern string
}

func (e *ScopeError) Error() string {
	switch e.Kind {
	case DeadPattern:
		return fmt.Sprintf("govern: scope %q: pattern %q matches no registered tool (a dead pattern: built-in and skill tools are all known now)", e.Scope, e.Pattern)
	case AccidentallyFull:
		return fmt.Sprintf("govern: scope %q: pattern %q matches every registered tool; only the %q scope may grant everything", e.Scope, e.Pattern, GeneralScope)
	}
	return fmt.Sprintf("govern: scope %q: bad pattern %q (want a glob over namespaced ids: builtin:, skill:<name>/, mcp:<server>/, acp:<peer>/, a2a:<peer>/)", e.Scope, e.Pattern)
}

// Scopes are compiled capability scopes. Safe for concurrent use.
type Scopes struct {
	def     string
	callers map[string]string

	mu          sync.Mutex
	scopes      map[string][]scopePattern
	registry    []string
	provisional []Provisional
}

type scopePattern struct {
	text string
	g    glob.Glob
}

// Provisional is a dynamic-namespace pattern that matches no tool yet:
// not an error, since its tools register later (the tool-executor framework's
// ProvisionalDeadPattern).
type Provisional struct{ Scope, Pattern string }

// CompileScopes checks cfg against the registry of tool names (qualified
// with Qualify) and returns the scopes and the provisional patterns. It
// fails with a *ScopeError for a dead static pattern, an accidentally
// full pattern or a bad one.
func CompileScopes(cfg ScopeConfig, registry []string) (*Scopes, []Provisional, error) {
	s := &Scopes{def: cfg.Default, callers: cfg.Callers, scopes: map[string][]scopePattern{}}
	for _, id := range registry {
		s.registry = append(s.registry, Qualify(id))
	}
	names := make([]string, 0, len(cfg.Scopes))
	for n := range cfg.Scopes {
		names = append(names, n)
	}
	sort.Strings(names)
	if cfg.Default != "" && cfg.Scopes[cfg.Default] == nil {
		return nil, nil, fmt.Errorf("govern: default scope %q is not defined", cfg.Default)
	}
	for caller, scope := range cfg.Callers {
		if cfg.Scopes[scope] == nil {
			return nil, nil, fmt.Errorf("govern: the scope %q of caller %q is not defined", scope, caller)
		}
	}
	for _, name := range names {
		for _, p := range cfg.Scopes[name] {
			g, err := glob.Compile(p)
			ns := p != "*" && !slices.ContainsFunc(append(slices.Clone(staticNamespaces), dynamicNamespaces...), func(n string) bool { return strings.HasPrefix(p, n) })
			if err != nil || ns {
				return nil, nil, &ScopeError{Kind: BadPattern, Scope: name, Pattern: p}
			}
			s.scopes[name] = append(s.scopes[name], scopePattern{p, g})
		}
	}
	prov, err := s.check()
	if err != nil {
		return nil, nil, err
	}
	return s, prov, nil
}

// check resolves every pattern against the registry (s.mu held or not yet
// shared).
func (s *Scopes) check() ([]Provisional, error) {
	var prov []Provisional
	names := make([]string, 0, len(s.scopes))
	for n := range s.scopes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, p := range s.scopes[name] {
			n := 0
			for _, id := range s.registry {
				if p.g.Match(id) {
					n++
				}
			}
			switch {
			case n == 0 && slices.ContainsFunc(dynamicNamespaces, func(ns string) bool { return strings.HasPrefix(p.text, ns) }):
				prov = append(prov, Provisional{name, p.text})
			case n == 0:
				return nil, &ScopeError{Kind: DeadPattern, Scope: name, Pattern: p.text}
			case n == len(s.registry) && len(s.registry) > 1 && name != GeneralScope:
				return nil, &ScopeError{Kind: AccidentallyFull, Scope: name, Pattern: p.text}
			}
		}
	}
	s.provisional = prov
	return prov, nil
}

// Register adds dynamically registered tools (an MCP server came up) and
// re-resolves the provisional patterns; it returns those still matching
// nothing.
func (s *Scopes) Register(names ...string) []Provisional {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		if id := Qualify(n); !slices.Contains(s.registry, id) {
			s.registry = append(s.registry, id)
		}
	}
	var left []Provisional
	for _, p := range s.provisional {
		for _, sp := range s.scopes[p.Scope] {
			if sp.text == p.Pattern && !slices.ContainsFunc(s.registry, sp.g.Match) {
				left = append(left, p)
			}
		}
	}
	s.provisional = left
	return slices.Clone(left)
}

// Allowed reports whether scope grants the tool (by name or id).
func (s *Scopes) Allowed(scope, tool string) bool {
	if scope == "" {
		scope = s.def
	}
	id := Qualify(tool)
	return slices.ContainsFunc(s.scopes[scope], func(p scopePattern) bool { return p.g.Match(id) })
}

// Filter returns the tools of names that scope grants: the tool list the
// model is shown.
func (s *Scopes) Filter(scope string, names []string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !s.Allowed(scope, n) })
}

// ScopeOf returns the scope a call of caller is judged by in a pipeline
// working on scope: the caller's own (ScopeConfig.Callers), else scope,
// else the default.
func (s *Scopes) ScopeOf(scope, caller string) string {
	if own, ok := s.callers[caller]; ok {
		return own
	}
	if scope == "" {
		return s.def
	}
	return scope
}

// Middleware is the scope layer for one pipeline working on scope ("" for
// the default): a call outside it — or outside its caller's own scope —
// is refused before any other layer sees it (scope_blocked).
func (s *Scopes) Middleware(scope string) pipeline.Middleware {
	return pipeline.Middleware{Name: "capability-scope", Wrap: func(next pipeline.Tool) pipeline.Tool {
		return pipeline.ToolFunc(func(ctx context.Context, req *pipeline.Request) (*pipeline.Result, error) {
			name := s.ScopeOf(scope, req.Call.Caller)
			if !s.Allowed(name, req.Call.Tool) {
				whose := "this task"
				if _, own := s.callers[req.Call.Caller]; own {
					whose = callerName(req.Call.Caller)
				}
				return refuse(PhaseScope, fmt.Sprintf("the tool %s (%s) is outside the %q capability scope of %s; use one of the tools you were given.", req.Call.Tool, Qualify(req.Call.Tool), name, whose)), nil
			}
			return next.Execute(ctx, req)
		})
	}}
}
