package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Role is the author of a message: User or Assistant.
type Role string

// Message roles. The system prompt is Request.System, not a message.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// Message is one turn of the conversation sent to the model.
type Message struct {
	Role    Role
	Content string
}

// Request is one chat completion.
type Request struct {
	// System is the system prompt ("" sends none).
	System string
	// Messages are the conversation, oldest first; at least one.
	Messages []Message
	// MaxTokens bounds the reply in tokens; 0 means Config.MaxTokens.
	MaxTokens int
}

// Usage is what a call cost in tokens, as the server reports it (0 when
// it reports nothing, as some local servers do).
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// Response is a model's reply.
type Response struct {
	// Text is the reply's visible text: the message content of an OpenAI
	// chat completion, the text blocks of an Anthropic message joined by
	// newlines. Reasoning or thinking content (OpenAI-compatible servers'
	// reasoning_content, Anthropic thinking blocks) is never included.
	Text string
	// Model is the model that answered, as the server names it (the
	// configured name when the server names none).
	Model string
	// Usage is the token count of the call.
	Usage Usage
	// Latency is the wall time from sending the request to reading the
	// whole reply.
	Latency time.Duration
}

// Client completes chats. Implementations are safe for concurrent use.
type Client interface {
	// Complete sends req and returns the reply. Every failure is an
	// [*Error]: the server unreachable or answering an error status, a
	// reply that is not the wire format, one larger than MaxReplyBytes,
	// the timeout or the context ending first.
	Complete(ctx context.Context, req Request) (*Response, error)
	// Model is the configured model name.
	Model() string
}

// Providers Config.Provider accepts.
const (
	// OpenAI is the OpenAI chat completions wire format (POST
	// {base_url}/chat/completions), spoken by OpenAI, Ollama
	// (http://127.0.0.1:11434/v1), vLLM, llama.cpp's server and LM Studio.
	OpenAI = "openai"
	// Anthropic is the Anthropic Messages wire format (POST
	// {base_url}/v1/messages).
	Anthropic = "anthropic"
)

// Defaults of Config.
const (
	// DefaultTimeout bounds one request (3 s): the hook answers within
	// 4 s, so a model slower than this is treated as unavailable.
	DefaultTimeout = 3 * time.Second
	// DefaultMaxTokens bounds a reply (256 tokens: a label and a short
	// explanation).
	DefaultMaxTokens = 256
	// MaxReplyBytes bounds the body of a reply (1 MiB); a larger one fails
	// with ErrReplyTooLarge.
	MaxReplyBytes = 1 << 20
)

// Config says which model to ask and how.
type Config struct {
	// Provider is OpenAI (the default when "") or Anthropic.
	Provider string
	// BaseURL is the server's API root, required: for OpenAI-compatible
	// servers the part before /chat/completions
	// ("http://127.0.0.1:11434/v1", "https://api.openai.com/v1"); for
	// Anthropic the part before /v1/messages ("https://api.anthropic.com").
	// Nothing is sent anywhere unless it is configured.
	BaseURL string
	// Model is the model name the server knows, required.
	Model string
	// APIKeyEnv names the environment variable holding the API key ("" for
	// servers that need none, like a local Ollama). The key itself is
	// never part of a Config.
	APIKeyEnv string
	// Timeout bounds one request (0: DefaultTimeout).
	Timeout time.Duration
	// MaxTokens bounds a reply (0: DefaultMaxTokens).
	MaxTokens int
}

// WithDefaults returns c with zero fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.Provider == "" {
		c.Provider = OpenAI
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	return c
}

// Check reports what is wrong with c: an unknown provider, a missing or
// malformed base URL (http or https, with a host), a missing model, an
// environment variable name that is not one, a negative timeout or token
// bound.
func (c Config) Check() error {
	switch c.Provider {
	case "", OpenAI, Anthropic:
	default:
		return fmt.Errorf("llm: unknown provider %q (want %q or %q)", c.Provider, OpenAI, Anthropic)
	}
	if c.BaseURL == "" {
		return errors.New("llm: base_url is required (nothing is sent to a model unless you name its server)")
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return fmt.Errorf("llm: base_url %q is not an http(s) URL with a host and no user info", c.BaseURL)
	}
	if strings.TrimSpace(c.Model) == "" {
		return errors.New("llm: model is required")
	}
	if c.APIKeyEnv != "" && !envName(c.APIKeyEnv) {
		return fmt.Errorf("llm: api_key_env %q is not an environment variable name (want the variable's name, not the key)", c.APIKeyEnv)
	}
	if c.Timeout < 0 || c.MaxTokens < 0 {
		return errors.New("llm: timeout and max_tokens must not be negative")
	}
	return nil
}

// envName reports whether s is a portable environment variable name.
func envName(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// LogValue logs the configuration; it holds no key, only the variable's
// name.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("provider", c.Provider),
		slog.String("base_url", c.BaseURL),
		slog.String("model", c.Model),
		slog.String("api_key_env", c.APIKeyEnv),
		slog.Duration("timeout", c.Timeout),
		slog.Int("max_tokens", c.MaxTokens),
	)
}

// Key returns the API key from the variable c names: "" when c names
// none; an error when the variable is unset or empty.
func (c Config) Key(getenv func(string) string) (Secret, error) {
	if c.APIKeyEnv == "" {
		return "", nil
	}
	k := getenv(c.APIKeyEnv)
	if k == "" {
		return "", fmt.Errorf("llm: the API key variable %s is unset or empty", c.APIKeyEnv)
	}
	return Secret(k), nil
}

// Redacted is what a Secret prints instead of itself.
const Redacted = "[REDACTED]"

// Secret is an API key. Printing it in any way — fmt verbs, slog, JSON,
// text marshalling — gives Redacted; Reveal returns the key.
type Secret string

// Reveal returns the key, for the one place it is sent: the request
// header.
func (s Secret) Reveal() string { return string(s) }

// String returns Redacted.
func (s Secret) String() string { return Redacted }

// GoString returns Redacted (for %#v).
func (s Secret) GoString() string { return Redacted }

// Format prints Redacted for every verb.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(Redacted)) }

// LogValue returns Redacted.
func (s Secret) LogValue() slog.Value { return slog.StringValue(Redacted) }

// MarshalText returns Redacted.
func (s Secret) MarshalText() ([]byte, error) { return []byte(Redacted), nil }

// Scrub returns text with every occurrence of the key replaced by
// Redacted.
func (s Secret) Scrub(text string) string {
	if len(s) < 4 { // a degenerate key would mangle unrelated text
		return text
	}
	return strings.ReplaceAll(text, string(s), Redacted)
}

// Errors a client's *Error matches with errors.Is.
var (
	// ErrReplyTooLarge: the reply body was larger than MaxReplyBytes.
	ErrReplyTooLarge = errors.New("llm: reply larger than 1 MiB")
	// ErrStatus: the server answered with an HTTP error status.
	ErrStatus = errors.New("llm: error status")
	// ErrEmpty: the reply held no text (no choices, no text blocks).
	ErrEmpty = errors.New("llm: reply holds no text")
)

// Error is a failed completion. It keeps no reference to the SDK's error
// (which holds the request and its headers): only its text, with the API
// key scrubbed, and the cause when it is one a caller branches on
// (context.Canceled, context.DeadlineExceeded, ErrReplyTooLarge,
// ErrStatus, ErrEmpty).
type Error struct {
	// Provider is OpenAI or Anthropic.
	Provider string
	// Model is the configured model.
	Model string
	// Status is the HTTP status of an error reply (0 when none came).
	Status int
	// Msg says what happened, key scrubbed.
	Msg string
	// Err is the cause a caller may branch on, or nil.
	Err error
}

// Error returns "llm: <provider> <model>: <msg>".
func (e *Error) Error() string {
	return fmt.Sprintf("llm: %s %s: %s", e.Provider, e.Model, e.Msg)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Timeout reports whether the call ran out of time (its own timeout or
// the context's deadline).
func (e *Error) Timeout() bool { return errors.Is(e.Err, context.DeadlineExceeded) }

// Lazy returns a client for cfg that opens the real one with open on its
// first Complete, so a process that never asks a model pays nothing for
// it. When open fails, or is nil (no client implementations linked),
// every Complete returns that failure as an *Error.
func Lazy(cfg Config, open func(Config) (Client, error)) Client {
	return &lazy{cfg: cfg.WithDefaults(), open: open}
}

type lazy struct {
	cfg  Config
	open func(Config) (Client, error)
	once sync.Once
	c    Client
	err  error
}

func (l *lazy) Complete(ctx context.Context, req Request) (*Response, error) {
	l.once.Do(func() {
		if l.open == nil {
			l.err = errors.New("no model client is linked into this program")
			return
		}
		l.c, l.err = l.open(l.cfg)
	})
	if l.err != nil {
		return nil, &Error{Provider: l.cfg.Provider, Model: l.cfg.Model, Msg: strings.TrimPrefix(l.err.Error(), "llm: ")}
	}
	return l.c.Complete(ctx, req)
}

func (l *lazy) Model() string { return l.cfg.Model }
