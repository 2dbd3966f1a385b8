package govern

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/pipeline"
)

// stubShield denies Bash commands holding DENY and asks about ASK.
type stubShield struct{}

func (stubShield) Evaluate(_ context.Context, c toolwall.Call) toolwall.Verdict {
	cmd, _ := c.Command()
	switch {
	case strings.Contains(cmd, "DENY"):
		return toolwall.Verdict{Action: toolwall.Deny, Reason: "policy says no"}
	case strings.Contains(cmd, "ASK"):
		return toolwall.Verdict{Action: toolwall.Ask, Reason: "policy asks"}
	}
	return toolwall.Verdict{}
}
func (stubShield) RecordInvocation(context.Context, toolwall.Call, bool) {}
func (stubShield) WatchedTools() []string                                { return []string{toolwall.ToolBash} }

// core succeeds unless the input holds FAIL.
var core = pipeline.ToolFunc(func(_ context.Context, req *pipeline.Request) (*pipeline.Result, error) {
	if strings.Contains(string(req.Call.Input), "FAIL") {
		return &pipeline.Result{Output: "exit 1", IsError: true}, nil
	}
	return &pipeline.Result{Output: "ok"}, nil
})

func kv(fields []string) map[string]string {
	m := map[string]string{}
	for _, f := range fields {
		k, v, _ := strings.Cut(f, "=")
		m[k] = v
	}
	return m
}

func provisional(ps []Provisional) string {
	if len(ps) == 0 {
		return "none"
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.Scope+"="+p.Pattern)
	}
	return "provisional:" + strings.Join(out, ",")
}

// TestGovernance runs testdata/governance.txt (format in its header).
func TestGovernance(t *testing.T) {
	b, err := os.ReadFile("testdata/governance.txt")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	steps := map[string][]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if n, ok := strings.CutPrefix(l, "case "); ok {
			names = append(names, n)
			continue
		}
		steps[names[len(names)-1]] = append(steps[names[len(names)-1]], l)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			var l Layers
			var severity Severity
			var p *pipeline.Pipeline
			for _, st := range steps[name] {
				lhs, want, _ := strings.Cut(st, "=>")
				want = strings.TrimSpace(want)
				f := strings.Fields(lhs)
				got := "ok"
				var err error
				switch f[0] {
				case "scopes":
					cfg := ScopeConfig{Scopes: map[string][]string{}}
					var reg []string
					for k, v := range kv(f[1:]) {
						switch k {
						case "default":
							cfg.Default = v
						case "registry":
							reg = strings.Split(v, ",")
						case "callers":
							cfg.Callers = map[string]string{}
							for _, cs := range strings.Split(v, ",") {
								c, sc, _ := strings.Cut(cs, ":")
								cfg.Callers[c] = sc
							}
						default:
							cfg.Scopes[k] = strings.Split(v, ",")
						}
					}
					var prov []Provisional
					l.Scopes, prov, err = CompileScopes(cfg, reg)
					if se, ok := err.(*ScopeError); ok {
						got, err = "err:"+se.Kind, nil
					} else if err != nil {
						got, err = "err", nil
					} else if len(prov) > 0 {
						got = provisional(prov)
					}
				case "register":
					got = provisional(l.Scopes.Register(strings.Split(f[1], ",")...))
				case "authz":
					var rules []AuthRule
					for _, r := range f[1:] {
						eff, rest, _ := strings.Cut(r, ":")
						rule := AuthRule{Effect: Effect(eff)}
						rest, lvl, _ := strings.Cut(rest, "#")
						rest, caller, _ := strings.Cut(rest, "@")
						rule.Tool = rest
						if caller != "" {
							rule.Callers = []string{caller}
						}
						if lvl != "" {
							rule.Trust = []Level{Level(lvl)}
						}
						rules = append(rules, rule)
					}
					l.Authz, err = NewAuthorizer(rules, l.Trust)
				case "trust":
					opts := TrustOptions{Levels: map[string]Level{}}
					for k, v := range kv(f[1:]) {
						switch k {
						case "default":
							opts.Default = Level(v)
						case "main":
							opts.Levels[""] = Level(v)
						default:
							opts.Levels[k] = Level(v)
						}
					}
					l.Trust, err = NewTrust(opts)
				case "quota":
					n, _ := strconv.Atoi(f[1])
					l.Quota = NewQuota(n)
					if len(f) > 2 {
						limits := map[string]int{}
						for k, v := range kv(f[2:]) {
							if k == "main" {
								k = ""
							}
							limits[k], _ = strconv.Atoi(v)
						}
						l.Quota.PerCaller(limits)
					}
				case "anomaly":
					m := kv(f[1:])
					w, _ := strconv.Atoi(m["window"])
					warn, _ := strconv.ParseFloat(m["warn"], 64)
					crit, _ := strconv.ParseFloat(m["critical"], 64)
					l.Anomaly = NewAnomaly(AnomalyOptions{Window: w, Warn: warn, Critical: crit,
						Report: func(_ context.Context, s Severity, _ float64, _ *pipeline.Result, _ error) { severity = s }})
				case "policy":
					m := pipeline.Shield(stubShield{}, nil)
					l.Policy = &m
				case "call":
					if p == nil {
						if p, err = pipeline.NewBuilder().Use(Stack(l)...).Core(core).Build(); err != nil {
							t.Fatal(err)
						}
					}
					req := &pipeline.Request{}
					i := 1
					for ; i < len(f) && (strings.Contains(f[i], "=") || f[i] == "approved"); i++ {
						k, v, _ := strings.Cut(f[i], "=")
						switch k {
						case "session":
							req.Call.Session = v
						case "caller":
							req.Call.Caller = v
						case "approved":
							req.Approved = true
						}
					}
					req.Call = toolwall.Call{Tool: f[i], Session: req.Call.Session, Caller: req.Call.Caller,
						Input: toolwall.NewBashCall(strings.Join(f[i+1:], " ")).Input}
					res, err2 := p.Execute(context.Background(), req)
					if got = string(Classify(res, err2)); got == "" {
						got = "ok"
					}
				case "severity":
					got, severity = severity.String(), SeverityNone
				default:
					t.Fatalf("unknown step %q", st)
				}
				if err != nil {
					t.Fatalf("%s: %v", st, err)
				}
				if got != want {
					t.Errorf("%s => %s, want %s", strings.TrimSpace(lhs), got, want)
				}
			}
		})
	}
}

func TestQualify(t *testing.T) {
	for in, want := range map[string]string{"Bash": "builtin:Bash", "mcp__github__create_issue": "mcp:github/create_issue",
		"skill:lint/run": "skill:lint/run", "mcp:x/y": "mcp:x/y", "a2a:peer/t": "a2a:peer/t", "mcp__odd": "builtin:mcp__odd"} {
		if got := Qualify(in); got != want {
			t.Errorf("Qualify(%q) = %q, want %q", in, got, want)
		}
	}
	if _, err := ParseLevel("root"); err == nil {
		t.Error("unknown level parsed")
	}
	if !slices.Contains([]string{"warning"}, SeverityWarning.String()) {
		t.Error(fmt.Sprint(SeverityWarning))
	}
}

// TestCallerReasons: a refusal by a caller's own quota or scope names the
// sub-agent, so the model and the audit log see whose limit it was.
func TestCallerReasons(t *testing.T) {
	scopes, _, err := CompileScopes(ScopeConfig{Default: "code", Scopes: map[string][]string{"code": {"builtin:Bash"}, "research": {"builtin:Read"}},
		Callers: map[string]string{"explorer": "research"}}, []string{"Bash", "Read"})
	if err != nil {
		t.Fatal(err)
	}
	q := NewQuota(0).PerCaller(map[string]int{"helper": 1})
	p, err := pipeline.NewBuilder().Use(Stack(Layers{Scopes: scopes, Quota: q})...).Core(core).Build()
	if err != nil {
		t.Fatal(err)
	}
	run := func(caller, tool string) string {
		res, err := p.Execute(context.Background(), &pipeline.Request{Call: toolwall.Call{Tool: tool, Session: "s", Caller: caller, Input: toolwall.NewBashCall("ls " + caller).Input}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Output
	}
	if out := run("explorer", "Bash"); !strings.Contains(out, `outside the "research" capability scope of the sub-agent explorer`) {
		t.Errorf("scope: %s", out)
	}
	run("helper", "Bash")
	if out := run("helper", "Bash"); !strings.Contains(out, "quota_blocked: the sub-agent helper has used all 1 of its tool calls") || q.UsedBy("s", "helper") != 1 || q.Used("s") != 1 {
		t.Errorf("quota: %s (used %d, by helper %d)", out, q.Used("s"), q.UsedBy("s", "helper"))
	}
}
