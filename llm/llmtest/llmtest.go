// Package llmtest runs a scripted model server on loopback for tests: a
// real HTTP server (net/http/httptest) that speaks both wire formats the
// llm package's clients use — OpenAI chat completions (POST
// /v1/chat/completions) and Anthropic Messages (POST /v1/messages) — and
// answers each request with the next scripted [Reply]: a text, an error
// status, a raw body (garbage, a huge reply), a delay (a slow server), or
// a hang until the client gives up. Every request is captured, decoded
// (system prompt, messages, model, max tokens, headers) for tests to read
// the prompt that was sent.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolwall/toolwall/llm"
)

// Model is the model name the scripted configurations ask for.
const Model = "scripted-model"

// Reply is one scripted answer.
type Reply struct {
	// Text is the reply's text.
	Text string
	// Thinking, when set, is sent as reasoning a client must ignore:
	// reasoning_content in an OpenAI reply, a thinking block before the
	// text in an Anthropic one.
	Thinking string
	// Status is the HTTP status (0: 200). With a status of 400 or more
	// the body is the format's error object carrying Text as message.
	Status int
	// Body, when set, is sent as is instead of a wire-format reply (with
	// content type application/json).
	Body string
	// Pad, when positive, makes the body at least this many bytes by
	// padding Text with spaces (a huge reply).
	Pad int
	// Delay holds the answer back this long, or until the client gives up.
	Delay time.Duration
	// Hang holds the answer until the client gives up.
	Hang bool
	// Model is the model the reply names ("": the requested one).
	Model string
	// InputTokens and OutputTokens are the usage reported.
	InputTokens, OutputTokens int64
}

// Request is one captured request.
type Request struct {
	// Format is llm.OpenAI or llm.Anthropic, from the path.
	Format string
	// Header is the request's headers.
	Header http.Header
	// Model and MaxTokens are as sent.
	Model     string
	MaxTokens int
	// System is the system prompt.
	System string
	// Messages are the conversation.
	Messages []llm.Message
	// Body is the raw request body.
	Body []byte
}

// Server is a scripted model server. Its methods are safe for concurrent
// use.
type Server struct {
	// URL is the server's root ("http://127.0.0.1:PORT").
	URL string

	srv      *httptest.Server
	mu       sync.Mutex
	script   []Reply
	respond  func(Request) Reply
	requests []Request
	arrived  chan Request
}

// New starts a server answering with replies in order, closed when the
// test ends.
func New(t testing.TB, replies ...Reply) *Server {
	s := &Server{script: replies, arrived: make(chan Request, 256)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Script appends replies to the queue.
func (s *Server) Script(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, replies...)
}

// Respond sets the function that answers once the queue is empty (nil:
// answer HTTP 500 "no scripted reply left").
func (s *Server) Respond(f func(Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = f
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Arrived delivers each request as it arrives, before it is answered
// (up to 256 unread).
func (s *Server) Arrived() <-chan Request { return s.arrived }

// OpenAI returns a configuration for the OpenAI wire format on s.
func (s *Server) OpenAI() llm.Config {
	return llm.Config{Provider: llm.OpenAI, BaseURL: s.URL + "/v1", Model: Model, Timeout: 2 * time.Second}
}

// Anthropic returns a configuration for the Anthropic wire format on s.
func (s *Server) Anthropic() llm.Config {
	return llm.Config{Provider: llm.Anthropic, BaseURL: s.URL, Model: Model, Timeout: 2 * time.Second}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	req := Request{Header: r.Header.Clone(), Body: body}
	switch r.URL.Path {
	case "/v1/chat/completions":
		req.Format = llm.OpenAI
		decodeOpenAI(body, &req)
	case "/v1/messages":
		req.Format = llm.Anthropic
		decodeAnthropic(body, &req)
	default:
		http.Error(w, "llmtest: unknown path "+r.URL.Path, http.StatusNotFound)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	var rep Reply
	switch {
	case len(s.script) > 0:
		rep, s.script = s.script[0], s.script[1:]
	case s.respond != nil:
		rep = s.respond(req)
	default:
		rep = Reply{Status: http.StatusInternalServerError, Text: "llmtest: no scripted reply left"}
	}
	s.mu.Unlock()
	select {
	case s.arrived <- req:
	default:
	}
	if rep.Hang {
		<-r.Context().Done()
		return
	}
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if rep.Model == "" {
		rep.Model = req.Model
	}
	out := rep.Body
	if out == "" {
		out = encode(req.Format, rep)
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.Status != 0 {
		w.WriteHeader(rep.Status)
	}
	_, _ = io.WriteString(w, out)
}

func encode(format string, rep Reply) string {
	text := rep.Text
	if rep.Pad > len(text) {
		text += strings.Repeat(" ", rep.Pad-len(text))
	}
	var v any
	switch {
	case rep.Status >= 400 && format == llm.OpenAI:
		v = map[string]any{"error": map[string]any{"message": text, "type": "server_error", "code": nil, "param": nil}}
	case rep.Status >= 400:
		v = map[string]any{"type": "error", "error": map[string]any{"type": "api_error", "message": text}}
	case format == llm.OpenAI:
		msg := map[string]any{"role": "assistant", "content": text}
		if rep.Thinking != "" {
			msg["reasoning_content"] = rep.Thinking
		}
		v = map[string]any{
			"id": "chatcmpl-llmtest", "object": "chat.completion", "created": 0, "model": rep.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": rep.InputTokens, "completion_tokens": rep.OutputTokens, "total_tokens": rep.InputTokens + rep.OutputTokens},
		}
	default:
		var content []any
		if rep.Thinking != "" {
			content = append(content, map[string]any{"type": "thinking", "thinking": rep.Thinking, "signature": "llmtest"})
		}
		content = append(content, map[string]any{"type": "text", "text": text})
		v = map[string]any{
			"id": "msg_llmtest", "type": "message", "role": "assistant", "model": rep.Model,
			"content": content, "stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": rep.InputTokens, "output_tokens": rep.OutputTokens},
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest: %v", err))
	}
	return string(b)
}

func decodeOpenAI(body []byte, req *Request) {
	var in struct {
		Model     string `json:"model"`
		MaxTokens int    `json:"max_tokens"`
		Messages  []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &in) != nil {
		return
	}
	req.Model, req.MaxTokens = in.Model, in.MaxTokens
	for _, m := range in.Messages {
		text := contentText(m.Content)
		if m.Role == "system" {
			req.System = text
			continue
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.Role(m.Role), Content: text})
	}
}

func decodeAnthropic(body []byte, req *Request) {
	var in struct {
		Model     string          `json:"model"`
		MaxTokens int             `json:"max_tokens"`
		System    json.RawMessage `json:"system"`
		Messages  []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &in) != nil {
		return
	}
	req.Model, req.MaxTokens, req.System = in.Model, in.MaxTokens, contentText(in.System)
	for _, m := range in.Messages {
		req.Messages = append(req.Messages, llm.Message{Role: llm.Role(m.Role), Content: contentText(m.Content)})
	}
}

// contentText reads a content field: a string, or a list of text parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var texts []string
	for _, p := range parts {
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, "\n")
}
