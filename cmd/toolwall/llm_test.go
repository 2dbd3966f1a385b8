package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/llm/llmtest"
)

// scripted starts a model server that rates a call HIGH when the prompt's
// current action mentions "truncate" and LOW otherwise, and answers the
// advisor's question with 90 % for "shred" and 10 % otherwise.
func scripted(t testing.TB) *llmtest.Server {
	srv := llmtest.New(t)
	srv.Respond(func(r llmtest.Request) llmtest.Reply {
		user := r.Messages[len(r.Messages)-1].Content
		if strings.Contains(r.System, "0 to 100") {
			if strings.Contains(user, "shred") {
				return llmtest.Reply{Text: "90", InputTokens: 160, OutputTokens: 1}
			}
			return llmtest.Reply{Text: "10", InputTokens: 160, OutputTokens: 1}
		}
		current := user[strings.Index(user, "Current action"):]
		if strings.Contains(current, "truncate") {
			return llmtest.Reply{Text: "RISK: HIGH\nIt empties the users database.", InputTokens: 900, OutputTokens: 11}
		}
		return llmtest.Reply{Text: "RISK: LOW\nIt only reads.", InputTokens: 850, OutputTokens: 6}
	})
	return srv
}

// llmConfig writes a configuration naming srv, with extra tables.
func llmConfig(t testing.TB, srv *llmtest.Server, format, extra string) string {
	cfg := srv.OpenAI()
	if format == "anthropic" {
		cfg = srv.Anthropic()
	}
	body := fmt.Sprintf("[llm]\nprovider = %q\nbase_url = %q\nmodel = %q\ntimeout = \"2s\"\n%s", cfg.Provider, cfg.BaseURL, cfg.Model, extra)
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCheckOpinions: `toolwall check --json` carries the model's label,
// explanation, model and tokens; the text form prints them; the exit
// status follows the later stage's action.
func TestCheckOpinions(t *testing.T) {
	for _, format := range []string{"openai", "anthropic"} {
		t.Run(format, func(t *testing.T) {
			srv := scripted(t)
			conf := llmConfig(t, srv, format, "[guardrail]\nenabled = true\n")
			run := func(args ...string) ([]byte, int) {
				c := exec.Command(bin, append([]string{"--config", conf, "check", "--cwd", "/workspace/app", "--home", "/home/user"}, args...)...)
				c.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "TOOLWALL_CONFIG=")
				out, err := c.Output()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				}
				return out, code
			}
			out, code := run("--json", "--", "truncate -s 0 data/users.db")
			var v toolwall.Verdict
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if code != exitAsk || v.Action != toolwall.Ask || len(v.Opinions) != 1 {
				t.Fatalf("exit %d, verdict %+v", code, v)
			}
			o := v.Opinions[0]
			if o.Analyzer != "guardrail" || o.Label != "HIGH" || o.Explanation != "It empties the users database." || o.Model != llmtest.Model || o.InputTokens != 900 || o.OutputTokens != 11 || o.Action != toolwall.Ask || o.Latency <= 0 {
				t.Errorf("opinion %+v", o)
			}
			if !bytes.Contains(out, []byte(`"label": "HIGH"`)) || !bytes.Contains(out, []byte(`"input_tokens": 900`)) {
				t.Errorf("JSON field names:\n%s", out)
			}
			out, code = run("--", "ls -la")
			if code != 0 || !strings.Contains(string(out), "model:   guardrail scripted-model: LOW (allow; 850 in + 6 out tokens, ") || !strings.Contains(string(out), "It only reads.") {
				t.Errorf("exit %d, text:\n%s", code, out)
			}
		})
	}
}

// TestEvalLLM: `toolwall eval --llm` reports per expectation how the
// model's labels spread and what it added over the rules alone.
func TestEvalLLM(t *testing.T) {
	srv := scripted(t)
	conf := llmConfig(t, srv, "openai", "")
	cases := filepath.Join(t.TempDir(), "mine.tsv")
	os.WriteFile(cases, []byte("allow\tls -la\nallow\tgo test ./...\nstop\ttruncate -s 0 data/users.db\nstop\ttruncate -s 0 data/orders.db\nstop\trm -rf ~\nstop\tcp data/users.db /tmp/x\n"), 0o600)
	c := exec.Command(bin, "--config", conf, "eval", "--llm", cases)
	c.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "TOOLWALL_CONFIG=")
	out, err := c.CombinedOutput()
	t.Logf("toolwall eval --llm mine.tsv:\n%s", out)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 4 {
		t.Fatalf("exit %v, want 4 (one stop case passes neither)", err)
	}
	for _, want := range []string{
		"  expect allow     2 cases,     2 passed,     0 failed   got: allow=2\n               model: guardrail LOW=2   rules alone passed 2, with the model 2\n",
		"  expect stop      4 cases,     3 passed,     1 failed   got: allow=1 ask=2 deny=1\n               model: guardrail HIGH=2 guardrail LOW=1 no model asked=1   rules alone passed 1, with the model 3\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("report lacks\n%s", want)
		}
	}
	c = exec.Command(bin, "eval", "--llm", cases)
	c.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "TOOLWALL_CONFIG=")
	if out, err := c.CombinedOutput(); err == nil || !strings.Contains(string(out), "eval --llm needs a model") {
		t.Errorf("without [llm]: %v\n%s", err, out)
	}
}

// TestHookGuardrail drives the hook process by process: the history the
// model sees at a PreToolUse holds the calls earlier processes recorded
// at PostToolUse; the HIGH label asks, naming the model's reason.
func TestHookGuardrail(t *testing.T) {
	srv := scripted(t)
	env := append(hookEnv(t), "TOOLWALL_CONFIG="+llmConfig(t, srv, "anthropic", "[guardrail]\nenabled = true\n[advisor]\nenabled = true\n"))
	for _, c := range []string{"id", "ls -la /etc/sudoers.d"} {
		if d := decision(t, runHook(t, env, pre("g1", c))); d.PermissionDecision != "allow" {
			t.Fatalf("%s: %+v", c, d)
		}
		runHook(t, env, post("g1", c))
	}
	d := decision(t, runHook(t, env, pre("g1", "truncate -s 0 data/users.db")))
	if d.PermissionDecision != "ask" || !strings.Contains(d.PermissionDecisionReason, "guardrail.risk-high") || !strings.Contains(d.PermissionDecisionReason, "It empties the users database") {
		t.Errorf("truncate: %+v", d)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if strings.Contains(last.System, "0 to 100") {
		last = reqs[len(reqs)-2]
	}
	user := last.Messages[0].Content
	if !strings.Contains(user, "1. <tool>Bash</tool>\n   <arguments>{\"command\":\"id\"}</arguments>\n2. <tool>Bash</tool>\n   <arguments>{\"command\":\"ls -la /etc/sudoers.d\"}</arguments>\n") {
		t.Errorf("the model did not see the session's history:\n%s", user)
	}
	d = decision(t, runHook(t, env, pre("g1", "shred notes.txt")))
	if d.PermissionDecision != "deny" || !strings.Contains(d.PermissionDecisionReason, "Refused: the advisor model (scripted-model) rated this command 90%") {
		t.Errorf("shred: %+v", d)
	}
}

// TestHookSlowModel: a model slower than the stage's budget leaves the
// hook answering on time, asking, with the reason saying why.
func TestHookSlowModel(t *testing.T) {
	srv := llmtest.New(t)
	srv.Respond(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "RISK: LOW", Delay: 10 * time.Second} })
	conf := llmConfig(t, srv, "openai", "[guardrail]\nenabled = true\n")
	conf2 := strings.Replace(readFile(t, conf), `timeout = "2s"`, `timeout = "300ms"`, 1)
	os.WriteFile(conf, []byte(conf2), 0o600)
	env := append(hookEnv(t), "TOOLWALL_CONFIG="+conf)
	start := time.Now()
	d := decision(t, runHook(t, env, pre("slow", "ls")))
	if took := time.Since(start); d.PermissionDecision != "ask" || !strings.Contains(d.PermissionDecisionReason, "LLM guardrail unavailable") || took > 3*time.Second {
		t.Errorf("after %v: %+v", took, d)
	}
}

func readFile(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// BenchmarkHookProcessLLM is BenchmarkHookProcess with the guardrail and
// the advisor on, against a scripted model server on loopback that
// answers at once: the process cost the later stage adds (clients,
// prompt, two HTTP round trips, the history read), not a model's.
func BenchmarkHookProcessLLM(b *testing.B) {
	srv := scripted(b)
	dir := b.TempDir()
	env := append(os.Environ(), "TOOLWALL_STATE="+filepath.Join(dir, "state.db"), "HOME=/home/user",
		"TOOLWALL_CONFIG="+llmConfig(b, srv, "openai", "[guardrail]\nenabled = true\n[advisor]\nenabled = true\n"))
	payload, _ := json.Marshal(pre("bench", "go test ./... 2>&1 | tail -20"))
	postp, _ := json.Marshal(post("bench", "git status"))
	for range 20 {
		cmd := exec.Command(bin, "hook", "claude-code")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(postp)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		cmd := exec.Command(bin, "hook", "claude-code")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(payload)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHookDetect: with detect_mcp_ports the guardrail's prompt carries
// the safety experiences of the MCP server found on loopback (an official
// SDK server named "postgres"), found by the helper; the hook's stdout
// holds nothing but its answer.
func TestHookDetect(t *testing.T) {
	srv := scripted(t)
	ms := mcp.NewServer(&mcp.Implementation{Name: "postgres", Version: "1.0.0"}, nil)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms }, nil))
	defer ts.Close()
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	env := append(hookEnv(t), "TOOLWALL_CONFIG="+llmConfig(t, srv, "openai", "[guardrail]\nenabled = true\ndetect_mcp_ports = ["+port+"]\n"))
	if out := runHook(t, env, pre("d1", "ls")); out != "" {
		t.Errorf("stdout %q, want nothing for an allowed call", out)
	}
	if sys := srv.Requests()[0].System; !strings.Contains(sys, "[postgres-mcp]\n1. DROP DATABASE") {
		t.Errorf("system prompt without the detected server's experiences:\n%s", sys)
	}
}

// TestHookProtectsHelper: the model helper beside the binary is one of
// toolwall's own files: an agent that replaced it could answer "RISK: LOW"
// for every call.
func TestHookProtectsHelper(t *testing.T) {
	env := hookEnv(t)
	helperPath := filepath.Join(filepath.Dir(bin), "toolwall-llm")
	for _, cmd := range []string{
		"cp /bin/true " + helperPath,
		"rm -f " + helperPath,
		"go build -o " + helperPath + " ./fake",
		"cp fake ~/go/bin/toolwall-llm",
	} {
		d := decision(t, runHook(t, env, pre("p1", cmd)))
		if d.PermissionDecision != "deny" || !strings.Contains(d.PermissionDecisionReason, "self.tamper") {
			t.Errorf("%s: %+v, want deny by self.tamper", cmd, d)
		}
	}
}
