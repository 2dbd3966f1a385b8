package helper_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/llm/helper"
	"github.com/toolwall/toolwall/llm/llmtest"
)

// bin is the toolwall-llm program, built once.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "toolwall-llm")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, helper.Name)
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/toolwall-llm").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building toolwall-llm: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
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

// TestHelper runs completions through the toolwall-llm process against a
// scripted server speaking both wire formats: the answer and every kind
// of failure come back as they would in process, and the key, read by
// the helper from its environment, is sent and never echoed.
func TestHelper(t *testing.T) {
	const key = "sk-helper-0123456789"
	t.Setenv("TOOLWALL_HELPER_TEST_KEY", key)
	for _, format := range []string{llm.OpenAI, llm.Anthropic} {
		for _, c := range []struct {
			name  string
			reply llmtest.Reply
			text  string
			err   string
		}{
			{"answer", llmtest.Reply{Text: "RISK: LOW\nok", Thinking: "RISK: HIGH", InputTokens: 10, OutputTokens: 3}, "RISK: LOW\nok", ""},
			{"503", llmtest.Reply{Status: 503, Text: "busy " + key}, "", "status"},
			{"huge", llmtest.Reply{Text: "x", Pad: 1200000}, "", "too-large"},
			{"empty", llmtest.Reply{Text: ""}, "", "empty"},
			{"garbage", llmtest.Reply{Body: "nope"}, "", "other"},
			{"slow", llmtest.Reply{Text: "late", Delay: 5 * time.Second}, "", "timeout"},
		} {
			t.Run(format+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				srv := llmtest.New(t, c.reply)
				cfg := srv.OpenAI()
				if format == llm.Anthropic {
					cfg = srv.Anthropic()
				}
				cfg.Timeout, cfg.APIKeyEnv = 500*time.Millisecond, "TOOLWALL_HELPER_TEST_KEY"
				if c.name == "huge" {
					cfg.Timeout = 5 * time.Second // time to arrive, so only its size fails it
				}
				client, err := helper.New(bin, cfg)
				if err != nil {
					t.Fatal(err)
				}
				resp, err := client.Complete(context.Background(), llm.Request{System: "s", Messages: []llm.Message{{Role: llm.User, Content: "u"}}})
				if kind(err) != c.err {
					t.Fatalf("error %v (%s), want %q", err, kind(err), c.err)
				}
				if err != nil && strings.Contains(err.Error(), key) {
					t.Errorf("the key came back in %v", err)
				}
				if err == nil && (resp.Text != c.text || resp.Model != llmtest.Model || resp.Usage.InputTokens != 10 || resp.Latency <= 0) {
					t.Errorf("response %+v", resp)
				}
				r := srv.Requests()[0]
				if r.Header.Get("Authorization") != "Bearer "+key || r.System != "s" || r.Messages[0].Content != "u" {
					t.Errorf("request %+v", r)
				}
			})
		}
	}
}

// TestHelperCancel: cancelling the caller's context stops the helper
// process and says cancelled.
func TestHelperCancel(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Hang: true})
	client, err := helper.New(bin, srv.OpenAI())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-srv.Arrived(); cancel() }()
	start := time.Now()
	_, err = client.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: llm.User, Content: "x"}}})
	if kind(err) != "cancelled" || time.Since(start) > time.Second {
		t.Errorf("%v after %v", err, time.Since(start))
	}
}

// TestHelperMissing: no helper, no client, and the error says how to
// install it; an unset key variable comes back as the helper's error.
func TestHelperMissing(t *testing.T) {
	cfg := llm.Config{BaseURL: "http://127.0.0.1:9/v1", Model: "m"}
	if _, err := helper.New(filepath.Join(t.TempDir(), helper.Name), cfg); err == nil || !strings.Contains(err.Error(), "go install ./cmd/...") {
		t.Errorf("missing helper: %v", err)
	}
	cfg.APIKeyEnv = "TOOLWALL_HELPER_UNSET"
	c, err := helper.New(bin, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.User, Content: "x"}}}); err == nil || !strings.Contains(err.Error(), "TOOLWALL_HELPER_UNSET is unset") {
		t.Errorf("unset key: %v", err)
	}
}

// TestDetect: the helper finds a real MCP server (official SDK) on a
// loopback port and answers with its name.
func TestDetect(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "postgres", Version: "1.0.0"}, nil)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	port, _ := strconv.Atoi(ts.URL[strings.LastIndex(ts.URL, ":")+1:])
	sets, err := helper.Detect(context.Background(), bin, []int{port})
	if err != nil || !slices.Equal(sets, []string{"postgres"}) {
		t.Errorf("Detect = %v, %v", sets, err)
	}
}
