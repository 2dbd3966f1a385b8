package policy

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/advisors/adversarial"
	"github.com/toolwall/toolwall/advisors/advisor"
	"github.com/toolwall/toolwall/advisors/guardrail"
	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/paths"
)

// LLM is the [llm] table: the model the later stage asks (the guardrail
// and the advisor), and each [[guardrail.ensemble]] entry, whose unset
// keys are taken from [llm].
type LLM struct {
	// Provider is "openai" (any OpenAI-compatible server: OpenAI, Ollama,
	// vLLM, llama.cpp, LM Studio; the default) or "anthropic".
	Provider string `toml:"provider"`
	// BaseURL is the server's API root, e.g. "http://127.0.0.1:11434/v1"
	// (Ollama), "https://api.openai.com/v1", "https://api.anthropic.com".
	BaseURL string `toml:"base_url"`
	// Model is the model name the server knows.
	Model string `toml:"model"`
	// APIKeyEnv names the environment variable holding the API key (the
	// key itself never goes in the file).
	APIKeyEnv string `toml:"api_key_env"`
	// Timeout bounds one request and the later stage as a whole (default
	// 3s; at most 60s). In the Claude Code hook the stage also ends
	// 250 ms before the hook's 4 s deadline.
	Timeout Duration `toml:"timeout"`
	// MaxTokens bounds a reply (default 256, at most 8192).
	MaxTokens int `toml:"max_tokens"`
}

// Guardrail is the [guardrail] table.
type Guardrail struct {
	// Enabled turns the guardrail on (default off).
	Enabled bool `toml:"enabled"`
	// Window is how many recent executed calls of the session the model
	// sees (default 20; 1 to 100).
	Window *int `toml:"window"`
	// Threshold is the least label that stops the call: "LOW", "MEDIUM"
	// or "HIGH" (default; UNKNOWN is not a valid threshold).
	Threshold string `toml:"threshold"`
	// ConfirmUnknown asks a human when the model gives no usable label or
	// cannot be reached (default true); false allows with a logged
	// warning.
	ConfirmUnknown *bool `toml:"confirm_unknown"`
	// Action is what a label at or above the threshold does: "ask"
	// (default) or "deny".
	Action string `toml:"action"`
	// Tools limits the guardrail to these tool names (default: every
	// tool).
	Tools []string `toml:"tools"`
	// Experiences names safety-experience sets: "default" (terminal and
	// filesystem), "terminal", "filesystem", "postgres", "browser",
	// "notion", "git", "cloud", or a file <name>-mcp.json in
	// ExperiencesDir (default: none).
	Experiences []string `toml:"experiences"`
	// ExperiencesDir is a folder of ToolShield-shaped files
	// {"exp.1": "...", ...}; "~/" is expanded.
	ExperiencesDir string `toml:"experiences_dir"`
	// MCPConfig is a JSON file with an "mcpServers" object whose server
	// names select sets (e.g. "~/.claude.json").
	MCPConfig string `toml:"mcp_config"`
	// DetectMCPPorts opts in to detecting MCP servers on these ports of
	// 127.0.0.1 (at most 16; default none).
	DetectMCPPorts []int `toml:"detect_mcp_ports"`
	// Ensemble lists more models to ask; the highest concrete label wins.
	Ensemble []LLM `toml:"ensemble"`
}

// Advisor is the [advisor] table (layer 3).
type Advisor struct {
	// Enabled turns the advisor on (default off).
	Enabled bool `toml:"enabled"`
	// Threshold is the percent above which a command is refused: 0 to
	// 100 in steps of 10 (default 70).
	Threshold *int `toml:"threshold"`
}

// Adversarial is the [adversarial] table: the tool-executor framework's adversarial policy
// gate, an executor wrapper that asks a model ALLOW or DENY before each
// call is dispatched (see package advisors/adversarial). It configures
// the executors an application wraps (AdversarialOptions,
// AdversarialClient) and toolwall run, fetch and search.
type Adversarial struct {
	// Enabled turns the gate on (default off).
	Enabled bool `toml:"enabled"`
	// OnError is what a call gets when the model gives no opinion:
	// "deny" (default), "ask" or "allow".
	OnError string `toml:"on_error"`
	// Window is how many recent calls of the session the model sees
	// (default 10; 1 to 100).
	Window *int `toml:"window"`
	// Tools limits the gate to these tools (default: every tool).
	Tools []string `toml:"tools"`
	// LLM is the model asked ([adversarial.llm]); its unset keys are
	// taken from [llm].
	LLM LLM `toml:"llm"`
}

// AdversarialClient returns the model of [adversarial.llm] over [llm].
func (c *Config) AdversarialClient() llm.Config { return c.Adversarial.LLM.Client(c.LLM) }

// AdversarialOptions returns the adversarial gate's options of
// [adversarial]; the caller adds the client (AdversarialClient), the
// audit sink and the session store.
func (c *Config) AdversarialOptions() adversarial.Options {
	a := c.Adversarial
	o := adversarial.Options{Tools: a.Tools, Timeout: c.AdversarialClient().Timeout}
	o.OnError, _ = adversarial.ParseFallback(a.OnError) // checked by Parse; "" is deny
	if a.Window != nil {
		o.Window = *a.Window
	}
	return o
}

// Client returns the client configuration of l, each unset key taken
// from base.
func (l LLM) Client(base LLM) llm.Config {
	pick := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	t := l.Timeout.Duration
	if t == 0 {
		t = base.Timeout.Duration
	}
	n := l.MaxTokens
	if n == 0 {
		n = base.MaxTokens
	}
	return llm.Config{
		Provider: pick(l.Provider, base.Provider), BaseURL: pick(l.BaseURL, base.BaseURL),
		Model: pick(l.Model, base.Model), APIKeyEnv: pick(l.APIKeyEnv, base.APIKeyEnv),
		Timeout: t, MaxTokens: n,
	}.WithDefaults()
}

// Members returns the client configurations of the guardrail's models:
// [llm], then each [[guardrail.ensemble]] entry over it.
func (c *Config) Members() []llm.Config {
	out := []llm.Config{c.LLM.Client(LLM{})}
	for _, e := range c.Guardrail.Ensemble {
		out = append(out, e.Client(c.LLM))
	}
	return out
}

// GuardrailPolicy returns the confirm-risky policy of [guardrail].
func (c *Config) GuardrailPolicy() guardrail.Policy {
	p := guardrail.Policy{}
	if r, err := guardrail.ParseRisk(c.Guardrail.Threshold); err == nil {
		p.Threshold = r
	}
	if c.Guardrail.ConfirmUnknown != nil && !*c.Guardrail.ConfirmUnknown {
		p.IgnoreUnknown = true
	}
	if strings.EqualFold(c.Guardrail.Action, "deny") {
		p.Action = toolwall.Deny
	}
	return p
}

// GuardrailExperiences returns what [guardrail] asks to load, paths
// expanded against home.
func (c *Config) GuardrailExperiences(home string) guardrail.Experiences {
	return guardrail.Experiences{
		Names:       c.Guardrail.Experiences,
		Dir:         paths.Expand(c.Guardrail.ExperiencesDir, home),
		MCPConfig:   paths.Expand(c.Guardrail.MCPConfig, home),
		DetectPorts: c.Guardrail.DetectMCPPorts,
	}
}

// GuardrailWindow returns guardrail.window or its default.
func (c *Config) GuardrailWindow() int {
	if c.Guardrail.Window != nil {
		return *c.Guardrail.Window
	}
	return guardrail.DefaultWindow
}

// checkLLM checks the [llm], [guardrail] and [advisor] tables.
func (c *Config) checkLLM() error {
	if (c.Guardrail.Enabled || c.Advisor.Enabled) && (c.LLM.BaseURL == "" || c.LLM.Model == "") {
		return fmt.Errorf("the guardrail and the advisor need [llm] base_url and model")
	}
	if c.LLM != (LLM{}) {
		if err := c.LLM.check("llm", LLM{}); err != nil {
			return err
		}
	}
	for i, e := range c.Guardrail.Ensemble {
		if err := e.check(fmt.Sprintf("guardrail.ensemble[%d]", i), c.LLM); err != nil {
			return err
		}
	}
	g := c.Guardrail
	if g.Window != nil && (*g.Window < 1 || *g.Window > 100) {
		return fmt.Errorf("guardrail.window = %d: want 1 to 100", *g.Window)
	}
	if g.Threshold != "" {
		if strings.EqualFold(strings.TrimSpace(g.Threshold), "UNKNOWN") {
			return fmt.Errorf("guardrail.threshold: UNKNOWN is not a valid threshold (want LOW, MEDIUM or HIGH; unknown labels are governed by confirm_unknown)")
		}
		if _, err := guardrail.ParseRisk(g.Threshold); err != nil {
			return fmt.Errorf("guardrail.threshold = %q: want LOW, MEDIUM or HIGH", g.Threshold)
		}
	}
	switch strings.ToLower(g.Action) {
	case "", "ask", "deny":
	default:
		return fmt.Errorf("guardrail.action = %q: want \"ask\" or \"deny\"", g.Action)
	}
	for _, t := range g.Tools {
		if strings.TrimSpace(t) == "" {
			return fmt.Errorf("guardrail.tools: empty tool name")
		}
	}
	for _, n := range g.Experiences {
		if _, ok := guardrail.Canonical(n); !ok && n != "default" {
			return fmt.Errorf("guardrail.experiences: %q is not a set name like \"terminal\" or \"postgres-mcp\"", n)
		}
	}
	for _, p := range []struct{ key, v string }{{"guardrail.experiences_dir", g.ExperiencesDir}, {"guardrail.mcp_config", g.MCPConfig}} {
		if p.v != "" && !filepath.IsAbs(p.v) && !strings.HasPrefix(p.v, "~/") {
			return fmt.Errorf("%s %q must be an absolute path or start with ~/", p.key, p.v)
		}
	}
	if len(g.DetectMCPPorts) > guardrail.MaxDetectPorts {
		return fmt.Errorf("guardrail.detect_mcp_ports: at most %d ports", guardrail.MaxDetectPorts)
	}
	for _, p := range g.DetectMCPPorts {
		if p < 1 || p > 65535 {
			return fmt.Errorf("guardrail.detect_mcp_ports: %d is not a port", p)
		}
	}
	if err := c.checkAdversarial(); err != nil {
		return err
	}
	if t := c.Advisor.Threshold; t != nil {
		if err := advisor.CheckThreshold(*t); err != nil {
			return fmt.Errorf("advisor.threshold = %d: want 0 to 100 in steps of 10 (unset means 70)", *t)
		}
	}
	return nil
}

// checkAdversarial checks the [adversarial] table.
func (c *Config) checkAdversarial() error {
	a := c.Adversarial
	if a.Enabled {
		if m := c.AdversarialClient(); m.BaseURL == "" || m.Model == "" {
			return fmt.Errorf("the adversarial gate needs base_url and model in [adversarial.llm] or [llm]")
		}
	}
	if a.LLM != (LLM{}) {
		if err := a.LLM.check("adversarial.llm", c.LLM); err != nil {
			return err
		}
	}
	if a.OnError != "" {
		if _, err := adversarial.ParseFallback(a.OnError); err != nil {
			return fmt.Errorf("adversarial.on_error = %q: want \"deny\", \"ask\" or \"allow\"", a.OnError)
		}
	}
	if a.Window != nil && (*a.Window < 1 || *a.Window > 100) {
		return fmt.Errorf("adversarial.window = %d: want 1 to 100", *a.Window)
	}
	for _, t := range a.Tools {
		if strings.TrimSpace(t) == "" {
			return fmt.Errorf("adversarial.tools: empty tool name")
		}
	}
	return nil
}

// check checks one model table (name in errors), unset keys from base.
func (l LLM) check(name string, base LLM) error {
	if l.Timeout.Duration < 0 || l.Timeout.Duration > time.Minute {
		return fmt.Errorf("%s.timeout must be from 0s to 60s", name)
	}
	if l.MaxTokens < 0 || l.MaxTokens > 8192 {
		return fmt.Errorf("%s.max_tokens must be from 1 to 8192", name)
	}
	if err := l.Client(base).Check(); err != nil {
		return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "llm: "))
	}
	return nil
}
