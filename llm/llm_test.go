package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/llm/llmtest"
	"github.com/toolwall/toolwall/llm/providers"
)

type replyCase struct {
	Name   string        `json:"name"`
	Reply  llmtest.Reply `json:"reply"`
	Text   string        `json:"text"`
	Model  string        `json:"model"`
	Err    string        `json:"err"`
	Status int           `json:"status"`
	// TimeoutMS is the client's timeout (default 300 ms, short for the
	// slow cases; a huge reply gets time to arrive, so that only its
	// size can fail it).
	TimeoutMS int `json:"timeout_ms"`
}

func replyCases(t *testing.T) []replyCase {
	b, err := os.ReadFile("testdata/replies.json")
	if err != nil {
		t.Fatal(err)
	}
	var cs []replyCase
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

// formats returns the configuration of each wire format on srv.
func formats(srv *llmtest.Server) map[string]llm.Config {
	return map[string]llm.Config{llm.OpenAI: srv.OpenAI(), llm.Anthropic: srv.Anthropic()}
}

func kind(err error) string {
	var e *llm.Error
	switch {
	case err == nil:
		return ""
	case !errors.As(err, &e):
		return "not *llm.Error"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case e.Timeout():
		return "timeout"
	case errors.Is(err, llm.ErrReplyTooLarge):
		return "too-large"
	case errors.Is(err, llm.ErrStatus):
		return "status"
	case errors.Is(err, llm.ErrEmpty):
		return "empty"
	}
	return "other"
}

// TestReplies runs every scripted reply through both wire formats.
func TestReplies(t *testing.T) {
	for _, c := range replyCases(t) {
		for _, format := range []string{llm.OpenAI, llm.Anthropic} {
			t.Run(c.Name+"/"+format, func(t *testing.T) {
				t.Parallel()
				srv := llmtest.New(t, c.Reply)
				cfg := formats(srv)[format]
				cfg.Timeout = 300 * time.Millisecond
				if c.TimeoutMS > 0 {
					cfg.Timeout = time.Duration(c.TimeoutMS) * time.Millisecond
				}
				client, err := providers.Open(cfg)
				if err != nil {
					t.Fatal(err)
				}
				resp, err := client.Complete(context.Background(), llm.Request{System: "sys", Messages: []llm.Message{{Role: llm.User, Content: "hello"}}})
				if got := kind(err); got != c.Err {
					t.Fatalf("error %v (%s), want %q", err, got, c.Err)
				}
				if err != nil {
					var e *llm.Error
					errors.As(err, &e)
					if e.Status != c.Status || e.Provider != format || e.Model != llmtest.Model {
						t.Errorf("error fields %+v", e)
					}
					return
				}
				want := c.Model
				if want == "" {
					want = llmtest.Model
				}
				if resp.Text != c.Text || resp.Model != want || resp.Usage.InputTokens != c.Reply.InputTokens || resp.Usage.OutputTokens != c.Reply.OutputTokens || resp.Latency <= 0 {
					t.Errorf("response %+v", resp)
				}
			})
		}
	}
}

// TestRequestShape reads what each format sends: the system prompt, the
// messages, the model and max tokens; no retry after a 503.
func TestRequestShape(t *testing.T) {
	for _, format := range []string{llm.OpenAI, llm.Anthropic} {
		t.Run(format, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply{Status: 503, Text: "busy"}, llmtest.Reply{Text: "ok"})
			cfg := formats(srv)[format]
			cfg.MaxTokens = 77
			client, err := providers.Open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			msgs := []llm.Message{{Role: llm.User, Content: "one"}, {Role: llm.Assistant, Content: "two"}, {Role: llm.User, Content: "three"}}
			if _, err := client.Complete(context.Background(), llm.Request{System: "the system prompt", Messages: msgs}); kind(err) != "status" {
				t.Fatalf("503: %v", err)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Fatalf("%d requests after a 503; a client must not retry", n)
			}
			if _, err := client.Complete(context.Background(), llm.Request{System: "the system prompt", Messages: msgs, MaxTokens: 5}); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			r := reqs[0]
			if r.Format != format || r.System != "the system prompt" || r.Model != llmtest.Model || r.MaxTokens != 77 || fmt.Sprint(r.Messages) != fmt.Sprint(msgs) {
				t.Errorf("request %+v", r)
			}
			if reqs[1].MaxTokens != 5 {
				t.Errorf("per-request max tokens %d", reqs[1].MaxTokens)
			}
		})
	}
}

// TestCancelMidCall cancels the caller's context while the server holds
// the reply: the error says cancelled, not timeout.
func TestCancelMidCall(t *testing.T) {
	for _, format := range []string{llm.OpenAI, llm.Anthropic} {
		t.Run(format, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply{Hang: true})
			client, err := providers.Open(formats(srv)[format])
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-srv.Arrived(); cancel() }()
			start := time.Now()
			_, err = client.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: llm.User, Content: "x"}}})
			if kind(err) != "cancelled" || time.Since(start) > time.Second {
				t.Errorf("error %v (%s) after %v", err, kind(err), time.Since(start))
			}
		})
	}
}

// TestKey: the key goes in the Authorization header only when configured; the
// SDKs' own environment variables are never picked up; the key never
// appears in an error, even from a server that echoes it back, nor in
// any log or print of the configuration or the client.
func TestKey(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	t.Setenv("TOOLWALL_TEST_KEY", key)
	t.Setenv("OPENAI_API_KEY", "sk-ambient-openai")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ambient-anthropic")
	t.Setenv("OPENAI_BASE_URL", "http://192.0.2.1/v1")
	t.Setenv("ANTHROPIC_BASE_URL", "http://192.0.2.1")
	for _, format := range []string{llm.OpenAI, llm.Anthropic} {
		t.Run(format, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Respond(func(r llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Status: 401, Text: "bad key: " + r.Header.Get("Authorization") + r.Header.Get("X-Api-Key")}
			})
			bare, err := providers.Open(formats(srv)[format])
			if err != nil {
				t.Fatal(err)
			}
			_, _ = bare.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.User, Content: "x"}}})
			h := srv.Requests()[0].Header
			if a := h.Get("Authorization") + h.Get("X-Api-Key"); a != "" {
				t.Errorf("a client without a configured key sent %q (the SDK's environment leaked in)", a)
			}
			cfg := formats(srv)[format]
			cfg.APIKeyEnv = "TOOLWALL_TEST_KEY"
			client, err := providers.Open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.User, Content: "x"}}})
			h = srv.Requests()[1].Header
			// Both SDKs send the key as a bearer token.
			if got := h.Get("Authorization"); got != "Bearer "+key {
				t.Errorf("key header %q, want the bearer token", got)
			}
			if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), llm.Redacted) {
				t.Errorf("error %v: the echoed key must be scrubbed", err)
			}
			var buf bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&buf, nil))
			secret, _ := cfg.Key(os.Getenv)
			log.Info("llm", "config", cfg, "client", client, "err", err, "key", secret)
			fmt.Fprintf(&buf, "%v %+v %#v %s %q %x", client, client, client, secret, secret, secret)
			if strings.Contains(buf.String(), key) || strings.Contains(buf.String(), "0123456789abcdef") {
				t.Errorf("the key reached a log or a print:\n%s", buf.String())
			}
		})
	}
}

func TestConfigCheck(t *testing.T) {
	for _, c := range []struct {
		cfg  llm.Config
		want string
	}{
		{llm.Config{BaseURL: "http://127.0.0.1:11434/v1", Model: "m"}, ""},
		{llm.Config{Provider: "anthropic", BaseURL: "https://api.anthropic.com", Model: "m", APIKeyEnv: "ANTHROPIC_API_KEY"}, ""},
		{llm.Config{Provider: "gemini", BaseURL: "http://x", Model: "m"}, "unknown provider"},
		{llm.Config{Model: "m"}, "base_url is required"},
		{llm.Config{BaseURL: "ftp://x", Model: "m"}, "not an http(s) URL"},
		{llm.Config{BaseURL: "http://user:pw@x", Model: "m"}, "not an http(s) URL"},
		{llm.Config{BaseURL: "http://x"}, "model is required"},
		{llm.Config{BaseURL: "http://x", Model: "m", APIKeyEnv: "sk-live-abc"}, "not an environment variable name"},
		{llm.Config{BaseURL: "http://x", Model: "m", Timeout: -1}, "negative"},
	} {
		err := c.cfg.Check()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
	if _, err := providers.Open(llm.Config{BaseURL: "http://x", Model: "m", APIKeyEnv: "TOOLWALL_UNSET_VARIABLE"}); err == nil || !strings.Contains(err.Error(), "TOOLWALL_UNSET_VARIABLE") {
		t.Errorf("unset key variable: %v", err)
	}
}
