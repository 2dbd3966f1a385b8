// Package helper runs the model clients in a process of their own, the
// toolwall-llm program, so that a program linking no model SDK — the
// toolwall command, whose hook starts a process for every tool call —
// pays nothing for them at start-up. The OpenAI and Anthropic SDKs cost
// about 2 ms of package initialisation and 40 MB of binary in every
// process that links them, whether or not it ever asks a model; through
// the helper, only a call that asks a model starts one (a few
// milliseconds beside a model's hundreds).
//
// [Open] is an engine.Options.Dial: its client runs the helper found next
// to the running executable (never on the PATH, where an agent could plant
// one) once per completion, sends the configuration and the request as
// JSON on its stdin, and reads the answer on its stdout. [Serve] is the
// helper's side. The API key never crosses the pipe: the helper reads it
// from the variable the configuration names, from the environment it
// inherits. Errors keep their kind across the boundary (timeout,
// cancellation, reply too large, error status, empty reply). [Detector]
// runs the guardrail's MCP server detection in the helper too, for the
// same reason (it needs an HTTP client).
package helper

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/toolwall/toolwall/llm"
)

// Name is the helper program's file name.
const Name = "toolwall-llm"

// startGrace is the time a helper gets beyond the configured timeout to
// start and answer.
const startGrace = 2 * time.Second

// maxAnswer bounds what the helper may write (a reply is at most
// llm.MaxReplyBytes, plus the JSON around it).
const maxAnswer = 2 * llm.MaxReplyBytes

// Path returns where the helper is expected: next to the running
// executable, symbolic links resolved.
func Path() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Join(filepath.Dir(exe), Name), nil
}

// Open returns a client for cfg that runs the helper at Path. It fails
// when cfg fails llm.Config.Check or the helper is not installed there.
func Open(cfg llm.Config) (llm.Client, error) {
	p, err := Path()
	if err != nil {
		return nil, fmt.Errorf("llm: cannot locate the model helper: %w", err)
	}
	return New(p, cfg)
}

// New returns a client for cfg that runs the helper at path.
func New(path string, cfg llm.Config) (llm.Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return nil, fmt.Errorf("llm: the model helper %s is not installed (install it beside toolwall: go install ./cmd/...)", path)
	}
	return &client{path: path, cfg: cfg}, nil
}

type client struct {
	path string
	cfg  llm.Config
}

// call is what goes to the helper: a completion, or a detection.
type call struct {
	Config  llm.Config  `json:"config"`
	Request llm.Request `json:"request"`
	Detect  []int       `json:"detect,omitempty"`
}

// answer is what comes back.
type answer struct {
	Response *llm.Response `json:"response,omitempty"`
	Error    *failure      `json:"error,omitempty"`
	Servers  []string      `json:"servers,omitempty"`
}

type failure struct {
	Status int    `json:"status,omitempty"`
	Msg    string `json:"msg"`
	Kind   string `json:"kind,omitempty"`
}

// kinds are the causes an *llm.Error keeps across the boundary, by name.
func kinds() []struct {
	name string
	err  error
} {
	return []struct {
		name string
		err  error
	}{
		{"canceled", context.Canceled}, {"timeout", context.DeadlineExceeded},
		{"too-large", llm.ErrReplyTooLarge}, {"status", llm.ErrStatus}, {"empty", llm.ErrEmpty},
	}
}

func (c *client) Model() string { return c.cfg.Model }

func (c *client) String() string { return "toolwall-llm " + c.cfg.Provider + " " + c.cfg.Model }

func (c *client) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	in, err := json.Marshal(call{Config: c.cfg, Request: req})
	if err != nil {
		return nil, c.fail("cannot encode the request: "+err.Error(), nil)
	}
	hctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout+startGrace)
	defer cancel()
	cmd := exec.CommandContext(hctx, c.path)
	cmd.Stdin = bytes.NewReader(in)
	var out, stderr bytes.Buffer
	cmd.Stdout = &limited{w: &out, left: maxAnswer}
	cmd.Stderr = &limited{w: &stderr, left: 4 << 10}
	runErr := cmd.Run()
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return nil, c.fail("the check was cancelled before the model answered", ctx.Err())
	case ctx.Err() != nil:
		return nil, c.fail("the caller's deadline passed before the model answered", ctx.Err())
	case hctx.Err() != nil:
		return nil, c.fail(fmt.Sprintf("no answer within %v", c.cfg.Timeout), context.DeadlineExceeded)
	}
	var a answer
	if err := json.Unmarshal(out.Bytes(), &a); err != nil || (a.Response == nil) == (a.Error == nil) {
		msg := "the model helper failed"
		if runErr != nil {
			msg += " (" + runErr.Error() + ")"
		}
		if s := bytes.TrimSpace(stderr.Bytes()); len(s) > 0 {
			msg += ": " + string(s)
		}
		return nil, c.fail(msg, nil)
	}
	if a.Error != nil {
		e := &llm.Error{Provider: c.cfg.Provider, Model: c.cfg.Model, Status: a.Error.Status, Msg: a.Error.Msg}
		for _, k := range kinds() {
			if k.name == a.Error.Kind {
				e.Err = k.err
			}
		}
		return nil, e
	}
	return a.Response, nil
}

func (c *client) fail(msg string, cause error) *llm.Error {
	return &llm.Error{Provider: c.cfg.Provider, Model: c.cfg.Model, Msg: msg, Err: cause}
}

// limited writes at most left bytes to w, then fails.
type limited struct {
	w    io.Writer
	left int
}

func (l *limited) Write(p []byte) (int, error) {
	if len(p) > l.left {
		return 0, errors.New("helper: output too large")
	}
	l.left -= len(p)
	return l.w.Write(p)
}

// Detector returns a guardrail.Experiences.Detect that runs the
// helper's MCP detection (mcpscan.Detect, loopback only) on the ports:
// the helper beside the running executable probes them and answers with
// the names of the servers it found. Failures are logged to log and find nothing.
func Detector(log *slog.Logger) func(ctx context.Context, ports []int) []string {
	return func(ctx context.Context, ports []int) []string {
		p, err := Path()
		if err == nil {
			var names []string
			if names, err = Detect(ctx, p, ports); err == nil {
				return names
			}
		}
		log.Warn("toolwall: MCP server detection failed", "err", err)
		return nil
	}
}

// Detect runs the helper at path to detect MCP servers on ports of
// 127.0.0.1 and returns their names (within 3 s).
func Detect(ctx context.Context, path string, ports []int) ([]string, error) {
	in, err := json.Marshal(call{Detect: ports})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path)
	cmd.Stdin = bytes.NewReader(in)
	var out bytes.Buffer
	cmd.Stdout = &limited{w: &out, left: 64 << 10}
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("the model helper %s: %w", path, err)
	}
	var a answer
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		return nil, fmt.Errorf("the model helper's answer: %w", err)
	}
	return a.Servers, nil
}

// Serve is the helper's side: it reads one call from r — a completion,
// answered by the client open returns for its configuration (the key read
// from the environment there), or a detection, answered by detect — and
// writes the answer to w. A failure to read the call or to open a client
// is written as an error answer too; Serve returns only the error of
// writing.
func Serve(ctx context.Context, r io.Reader, w io.Writer, open func(llm.Config) (llm.Client, error), detect func(ctx context.Context, ports []int) []string) error {
	var a answer
	var in call
	if err := json.NewDecoder(io.LimitReader(r, 16<<20)).Decode(&in); err != nil {
		a.Error = &failure{Msg: "helper: cannot read the request: " + err.Error()}
	} else if len(in.Detect) > 0 {
		a.Servers = detect(ctx, in.Detect)
	} else if c, err := open(in.Config); err != nil {
		a.Error = &failure{Msg: err.Error()}
	} else if resp, err := c.Complete(ctx, in.Request); err != nil {
		a.Error = &failure{Msg: err.Error()}
		var e *llm.Error
		if errors.As(err, &e) {
			a.Error.Msg, a.Error.Status = e.Msg, e.Status
		}
		for _, k := range kinds() {
			if errors.Is(err, k.err) {
				a.Error.Kind = k.name
			}
		}
	} else {
		a.Response = resp
	}
	return json.NewEncoder(w).Encode(a)
}
