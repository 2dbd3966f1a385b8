package openai

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/llm/internal/wire"
)

// Client is an llm.Client for an OpenAI-compatible server.
type Client struct {
	cfg  llm.Config
	fail func(ctx context.Context, status int, err error) *llm.Error
	chat sdk.ChatCompletionService
}

// New returns a client for cfg (defaults applied) with the API key key
// ("" sends no Authorization header). It fails when cfg does not pass
// llm.Config.Check.
func New(cfg llm.Config, key llm.Secret) (*Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithHTTPClient(wire.HTTPClient(cfg.Timeout)),
		option.WithMaxRetries(0),
		option.WithRequestTimeout(cfg.Timeout),
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key.Reveal()))
	}
	// NewChatCompletionService takes exactly these options; unlike
	// NewClient it adds none read from the environment.
	// The key lives only in the SDK's option closures and in fail's, so
	// no print of a Client can show it.
	fail := func(ctx context.Context, status int, err error) *llm.Error {
		return wire.Fail(ctx, cfg, key, status, err)
	}
	return &Client{cfg: cfg, fail: fail, chat: sdk.NewChatCompletionService(opts...)}, nil
}

// String describes the client: provider, model and base URL.
func (c *Client) String() string { return "openai " + c.cfg.Model + " at " + c.cfg.BaseURL }

// Format prints String for every verb.
func (c *Client) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.String())) }

// LogValue logs the configuration (which holds no key).
func (c *Client) LogValue() slog.Value { return c.cfg.LogValue() }

// Model returns the configured model name.
func (c *Client) Model() string { return c.cfg.Model }

// Complete sends one chat completion.
func (c *Client) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	ctx2, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var msgs []sdk.ChatCompletionMessageParamUnion
	if req.System != "" {
		msgs = append(msgs, sdk.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		if m.Role == llm.Assistant {
			msgs = append(msgs, sdk.AssistantMessage(m.Content))
		} else {
			msgs = append(msgs, sdk.UserMessage(m.Content))
		}
	}
	max := req.MaxTokens
	if max <= 0 {
		max = c.cfg.MaxTokens
	}
	start := time.Now()
	resp, err := c.chat.New(ctx2, sdk.ChatCompletionNewParams{
		Model:       c.cfg.Model,
		Messages:    msgs,
		MaxTokens:   sdk.Int(int64(max)),
		Temperature: sdk.Float(0),
	})
	latency := time.Since(start)
	if err != nil {
		status := 0
		var ae *sdk.Error
		if errors.As(err, &ae) {
			// The SDK's text omits the server's message; keep it.
			status, err = ae.StatusCode, fmt.Errorf("%s: %s", http.StatusText(ae.StatusCode), ae.Message)
		}
		return nil, c.fail(ctx, status, err)
	}
	if len(resp.Choices) == 0 || resp.Choices[0].Message.Content == "" {
		return nil, c.fail(ctx, 0, llm.ErrEmpty)
	}
	model := resp.Model
	if model == "" {
		model = c.cfg.Model
	}
	return &llm.Response{
		Text:    resp.Choices[0].Message.Content,
		Model:   model,
		Usage:   llm.Usage{InputTokens: resp.Usage.PromptTokens, OutputTokens: resp.Usage.CompletionTokens},
		Latency: latency,
	}, nil
}
