package mcpproxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
)

// MaxDepth is how deep a client's message may nest (objects and arrays,
// the message itself being level 1). A tools/call's arguments sit three
// levels down; no tool's arguments need more than a few dozen levels,
// and a message nested thousands deep is a few kilobytes the model can
// write.
const MaxDepth = 128

// maxLine bounds one line of the client, as the SDK bounds a frame.
const maxLine = mcp.DefaultMaxLineLength - 1

// JSON-RPC error codes the line transport answers with.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
)

// Lines returns the transport the proxy serves a client on over
// newline-delimited JSON-RPC (r and w are the client's side, stdin and
// stdout for a proxy a client started). It is the SDK's stdio transport
// with each line screened first: the SDK ends the connection on the
// first line it cannot decode, so a client (or a model that steers what
// the client sends) could take the proxy down with one bad line. A line
// that is not JSON is answered with a parse error (-32700), one that is
// not a JSON-RPC 2.0 message (another version, no method and no id, an
// id that is neither a number nor a string, a batch) with an invalid
// request error (-32600), a tools/call nested deeper than MaxDepth with a
// refusal, recorded as a decision, and the proxy keeps serving.
func (p *Proxy) Lines(r io.ReadCloser, w io.WriteCloser) mcp.Transport {
	return &lines{p: p, r: r, w: w}
}

type lines struct {
	p *Proxy
	r io.ReadCloser
	w io.WriteCloser
}

func (t *lines) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	out := &lockedWriter{w: t.w}
	go t.p.pump(context.WithoutCancel(ctx), t.r, pw, out)
	return (&mcp.IOTransport{Reader: readCloser{pr, t.r}, Writer: out}).Connect(ctx)
}

// readCloser reads the screened lines; closing it closes the client's
// side too, which ends the pump.
type readCloser struct {
	*io.PipeReader
	src io.Closer
}

func (r readCloser) Close() error { return errors.Join(r.PipeReader.Close(), r.src.Close()) }

// lockedWriter keeps the SDK's messages and the transport's own answers
// whole lines: each is written by one Write call.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (l *lockedWriter) Close() error { return l.w.Close() }

// pump reads the client's lines, passes on the ones the SDK can read
// and answers the others itself.
func (p *Proxy) pump(ctx context.Context, r io.Reader, pw *io.PipeWriter, out io.Writer) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	long := false // the line is past maxLine: it is dropped and answered
	for {
		chunk, err := br.ReadSlice('\n')
		if !long && len(line)+len(chunk) > maxLine {
			long, line = true, line[:0]
		}
		if !long {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		var pass, reply []byte
		switch {
		case long:
			reply = errorLine(nil, codeParse, fmt.Sprintf("parse error: the line is longer than %d bytes", maxLine))
		case len(bytes.TrimSpace(line)) > 0:
			pass, reply = p.screen(ctx, line)
		}
		if reply != nil {
			if _, werr := out.Write(reply); werr != nil {
				pw.CloseWithError(werr)
				return
			}
		}
		if pass != nil {
			if _, werr := pw.Write(pass); werr != nil {
				return
			}
		}
		line, long = line[:0], false
		if err != nil {
			pw.CloseWithError(err) // io.EOF ends the SDK's reading as the end of the stream
			return
		}
	}
}

// screen judges one line of the client: pass is what goes on to the SDK
// (the line, or in its place an error response the SDK can read), reply
// what the client is answered directly.
func (p *Proxy) screen(ctx context.Context, line []byte) (pass, reply []byte) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		return nil, errorLine(nil, codeParse, "parse error: the line is not one JSON value")
	}
	if line[0] == '[' {
		return nil, errorLine(nil, codeInvalidRequest, "invalid request: JSON-RPC batches are not accepted; send each message on its own line")
	}
	var top map[string]json.RawMessage
	if line[0] != '{' || json.Unmarshal(line, &top) != nil {
		return nil, errorLine(nil, codeInvalidRequest, "invalid request: a JSON-RPC message is a JSON object")
	}
	id := top["id"]
	if !validID(id) {
		id = nil
	}
	var method string
	_, hasMethod := top["method"]
	if hasMethod {
		if json.Unmarshal(top["method"], &method) != nil {
			return nil, errorLine(id, codeInvalidRequest, "invalid request: method is not a string")
		}
	}
	if d := depth(line); d > MaxDepth {
		why := fmt.Sprintf("the message nests %d levels deep, more than the %d toolwall reads", d, MaxDepth)
		switch {
		case hasMethod && method == "tools/call" && id != nil:
			return nil, p.refuseDeep(ctx, id, top["params"], d)
		case !hasMethod && id != nil:
			// A response to the proxy's own request (an elicitation's
			// answer): the request fails instead.
			return errorLine(id, codeInvalidRequest, "invalid request: "+why), nil
		case hasMethod && id == nil:
			p.log.Warn("toolwall mcp-proxy: a notification was dropped", "method", method, "reason", why)
			return nil, nil
		}
		return nil, errorLine(id, codeInvalidRequest, "invalid request: "+why)
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return nil, errorLine(id, codeInvalidRequest, "invalid request: "+err.Error())
	}
	return append(line, '\n'), nil
}

// refuseDeep answers a tools/call whose arguments nest too deep with a
// refusal, as a deny is answered, and records the decision.
func (p *Proxy) refuseDeep(ctx context.Context, id, params json.RawMessage, d int) []byte {
	var call struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(params, &call)
	tool := ToolID(p.opts.Name, call.Name)
	reason := fmt.Sprintf("The arguments of the MCP tool call %s nest %d levels deep, more than the %d toolwall reads, so toolwall cannot tell what the call would do; it is refused. Send arguments that nest less deeply.", tool, d, MaxDepth)
	v := toolwall.Refusal("mcpproxy", toolwall.RuleMalformed, reason)
	rec := audit.Record{ID: audit.NewID(), At: time.Now().UTC(), Driver: "mcp-proxy", Session: p.opts.Session, Tool: tool, Verdict: v}
	if err := p.audit.Record(ctx, rec); err != nil {
		p.log.Error("toolwall mcp-proxy: audit record not written", "decision", rec.ID, "err", err)
	}
	p.log.Warn("toolwall mcp-proxy: deny", "tool", tool, "rules", v.Rules(), "reason", reason)
	b, err := json.Marshal(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, refusal(reason)})
	if err != nil {
		return errorLine(id, codeInvalidRequest, "invalid request: "+reason)
	}
	return append(b, '\n')
}

// validID reports whether raw is a JSON-RPC id the SDK reads: a number or
// a string.
func validID(raw json.RawMessage) bool {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case float64, string:
		return true
	}
	return false
}

// errorLine is a JSON-RPC error response line (id null when id is nil).
func errorLine(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   any             `json:"error"`
	}{"2.0", id, struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return append(b, '\n')
}

// depth is how deep objects and arrays nest in the JSON text b.
func depth(b []byte) int {
	d, most := 0, 0
	in, esc := false, false
	for _, c := range b {
		if in {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
			continue
		}
		switch c {
		case '"':
			in = true
		case '{', '[':
			d++
			most = max(most, d)
		case '}', ']':
			d--
		}
	}
	return most
}
