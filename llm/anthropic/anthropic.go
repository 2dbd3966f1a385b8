package anthropic

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/llm/internal/wire"
)

// Client is an llm.Client for the Anthropic Messages API.
type Client struct {
	cfg  llm.Config
	fail func(ctx context.Context, status int, err error) *llm.Error
	msgs sdk.MessageService
}

// New returns a client for cfg (defaults applied) with the API key key
// (sent as x-api-key; "" sends none). It fails when cfg does not pass
// llm.Config.Check.
func New(cfg llm.Config, key llm.Secret) (*Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(cfg.BaseURL),
		option.WithHTTPClient(wire.HTTPClient(cfg.Timeout)),
		option.WithMaxRetries(0),
		option.WithRequestTimeout(cfg.Timeout),
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key.Reveal()))
	}
	// The key lives only in the SDK's option closures and in fail's, so
	// no print of a Client can show it.
	fail := func(ctx context.Context, status int, err error) *llm.Error {
		return wire.Fail(ctx, cfg, key, status, err)
	}
	return &Client{cfg: cfg, fail: fail, msgs: sdk.NewMessageService(opts...)}, nil
}

// String describes the client: provider, model and base URL.
func (c *Client) String() string { return "anthropic " + c.cfg.Model + " at " + c.cfg.BaseURL }

// Format prints String for every verb.
func (c *Client) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.String())) }

// LogValue logs the configuration (which holds no key).
func (c *Client) LogValue() slog.Value { return c.cfg.LogValue() }

// Model returns the configured model name.
func (c *Client) Model() string { return c.cfg.Model }

// Complete sends one message request.
func (c *Client) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	ctx2, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	params := sdk.MessageNewParams{
		Model:     sdk.Model(c.cfg.Model),
		MaxTokens: int64(c.cfg.MaxTokens),
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = int64(req.MaxTokens)
	}
	if req.System != "" {
		params.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	for _, m := range req.Messages {
		block := sdk.NewTextBlock(m.Content)
		if m.Role == llm.Assistant {
			params.Messages = append(params.Messages, sdk.NewAssistantMessage(block))
		} else {
			params.Messages = append(params.Messages, sdk.NewUserMessage(block))
		}
	}
	start := time.Now()
	resp, err := c.msgs.New(ctx2, params)
	latency := time.Since(start)
	if err != nil {
		status := 0
		var ae *sdk.Error
		if errors.As(err, &ae) {
			status = ae.StatusCode
		}
		return nil, c.fail(ctx, status, err)
	}
	var parts []string
	for _, b := range resp.Content {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	if len(parts) == 0 {
		return nil, c.fail(ctx, 0, llm.ErrEmpty)
	}
	model := string(resp.Model)
	if model == "" {
		model = c.cfg.Model
	}
	return &llm.Response{
		Text:    strings.Join(parts, "\n"),
		Model:   model,
		Usage:   llm.Usage{InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens},
		Latency: latency,
	}, nil
}
