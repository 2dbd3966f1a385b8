package mcpproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/mcpargs"
)

// judged is a tools/call as the engine sees it: the calls it maps to and
// the strictest of their verdicts.
type judged struct {
	id      string
	calls   []toolwall.Call
	verdict toolwall.Verdict
}

// judge maps a tools/call and decides on it. A call with no argument of
// a known kind is judged under its own tool id; arguments that cannot be
// read are refused.
func (p *Proxy) judge(ctx context.Context, name string, args json.RawMessage) judged {
	j := judged{id: audit.NewID()}
	mapped, err := mcpargs.Calls(name, args, mcpargs.Places{Cwd: p.opts.Cwd, Home: p.opts.Home})
	if err != nil {
		j.verdict = toolwall.Refusal("mcpproxy", toolwall.RuleMalformed, fmt.Sprintf("The arguments of the MCP tool call %s cannot be read (%v), so toolwall cannot tell what it would do; it is refused. Send the arguments as a JSON object.", ToolID(p.opts.Name, name), err))
		return j
	}
	if len(mapped) == 0 {
		mapped = []toolwall.Call{{Tool: ToolID(p.opts.Name, name), Input: args}}
	}
	for i, c := range mapped {
		c.Session = p.opts.Session
		c.ID = j.id + "/" + strconv.Itoa(i)
		if c.Cwd == "" {
			c.Cwd = p.opts.Cwd
		}
		c.Project, c.Home = p.opts.Project, p.opts.Home
		mapped[i] = c
		v := p.evaluate(ctx, c)
		if i == 0 || v.Action > j.verdict.Action || v.Action == j.verdict.Action && v.Score > j.verdict.Score {
			j.verdict = v
		}
	}
	j.calls = mapped
	return j
}

// evaluate decides on one call within the time limit; past it, or when
// the shield panics, the call is refused.
func (p *Proxy) evaluate(ctx context.Context, c toolwall.Call) toolwall.Verdict {
	ctx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	done := make(chan toolwall.Verdict, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				p.log.Error("toolwall mcp-proxy: panic in evaluation", "tool", c.Tool, "panic", r)
				done <- toolwall.Refusal("mcpproxy", toolwall.RuleInternal, fmt.Sprintf("toolwall hit an internal error (%v) and refuses the call rather than let it through unchecked.", r))
			}
		}()
		done <- p.opts.Shield.Evaluate(ctx, c)
	}()
	select {
	case v := <-done:
		return v
	case <-ctx.Done():
		return toolwall.Refusal("mcpproxy", toolwall.RuleTimeout, fmt.Sprintf("toolwall could not finish checking this call within %v, so it is refused rather than let through unchecked. Retry.", p.opts.Timeout))
	}
}

// refusal is the tool result the client sees for a refused call.
func refusal(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// inputAllow is the id of the elicitation the proxy asks for.
const inputAllow = "toolwall-allow"

// Bounds of the asks waiting for the client's user.
const (
	maxPending = 64
	pendingTTL = 10 * time.Minute
)

// pending is a call toolwall asked about, put to the client's user.
type pending struct {
	name string
	args string
	j    judged
	at   time.Time
}

// callTool judges a tools/call and forwards it when allowed. A deny comes
// back as a tool result with isError and the reason. An ask is put to the
// client's user through MCP elicitation when the client supports it (the
// call runs only if the user allows it); otherwise it comes back as a
// refusal saying a human must allow it.
func (p *Proxy) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.Params == nil {
		return nil, errors.New("mcpproxy: tools/call without params")
	}
	if req.Params.RequestState != "" || len(req.Params.InputResponses) > 0 {
		return p.resume(ctx, req)
	}
	name := req.Params.Name
	start := time.Now()
	j := p.judge(ctx, name, req.Params.Arguments)
	tool := ToolID(p.opts.Name, name)
	if p.opts.Approvals != nil {
		// The call as the client made it is what a person approves.
		call := toolwall.Call{Tool: tool, Input: req.Params.Arguments, Session: p.opts.Session, Cwd: p.opts.Cwd, Project: p.opts.Project, Home: p.opts.Home}
		var err error
		if j.verdict, err = p.opts.Approvals.Check(ctx, j.id, call, j.verdict, false); err != nil {
			p.log.Warn("toolwall mcp-proxy: approvals unavailable; asking as usual", "err", err)
		}
	}
	v := j.verdict
	rec := audit.Record{
		ID: j.id, At: start.UTC(), Driver: "mcp-proxy", Session: p.opts.Session,
		Tool: tool, Input: req.Params.Arguments, Verdict: v, Elapsed: time.Since(start),
	}
	if err := p.audit.Record(ctx, rec); err != nil {
		p.log.Error("toolwall mcp-proxy: audit record not written", "decision", j.id, "err", err)
	}
	switch v.Action {
	case toolwall.Deny:
		p.log.Warn("toolwall mcp-proxy: deny", "tool", tool, "rules", v.Rules(), "reason", v.Reason)
		return refusal(host.Explain(v)), nil
	case toolwall.Ask:
		if !canElicit(req.Session) {
			p.log.Warn("toolwall mcp-proxy: ask refused: the client cannot ask its user", "tool", tool, "rules", v.Rules())
			how := " Ask the user to run it or to allow it."
			if p.opts.Approvals != nil {
				how = " Ask the user to run it, or to run `toolwall approve " + j.id + "` in a terminal: the same call then passes when retried."
			}
			return refusal(host.Explain(v) + " A human must allow this call (decision " + j.id + "); the MCP client cannot ask its user here, so it is refused." + how), nil
		}
		state := p.park(pending{name: name, args: string(req.Params.Arguments), j: j, at: time.Now()})
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{inputAllow: &mcp.ElicitParams{
				Mode:            "form",
				Message:         "toolwall asks before this call to " + tool + " runs: " + host.Explain(v) + "\n\nAllow it?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"allow":{"type":"boolean","title":"Allow this call","description":"Run the call toolwall asked about"}},"required":["allow"]}`),
			}},
			RequestState: state,
		}, nil
	case toolwall.Warn:
		p.log.Warn("toolwall mcp-proxy: warn", "tool", tool, "rules", v.Rules(), "reason", v.Reason)
	}
	return p.forward(ctx, req, j)
}

// canElicit reports whether the client said it can ask its user.
func canElicit(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	return ip != nil && ip.Capabilities != nil && ip.Capabilities.Elicitation != nil
}

// park keeps an ask for the user's answer and returns the request state
// that names it: random, used once, forgotten after pendingTTL.
func (p *Proxy) park(x pending) string {
	p.pendMu.Lock()
	defer p.pendMu.Unlock()
	if p.pending == nil {
		p.pending = map[string]*pending{}
	}
	for k, old := range p.pending {
		if time.Since(old.at) > pendingTTL || len(p.pending) >= maxPending {
			delete(p.pending, k)
		}
	}
	state := audit.NewID()
	p.pending[state] = &x
	return state
}

// resume handles the retry of an ask with the user's answer: the call
// runs only if the request state names a parked ask of the same tool and
// arguments and the user allowed it.
func (p *Proxy) resume(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	p.pendMu.Lock()
	x := p.pending[req.Params.RequestState]
	delete(p.pending, req.Params.RequestState)
	p.pendMu.Unlock()
	if x == nil || x.name != req.Params.Name || x.args != string(req.Params.Arguments) {
		return refusal("toolwall found no pending question for this call (it expired or was answered), so it is refused. Call the tool again."), nil
	}
	v := x.j.verdict
	el, _ := req.Params.InputResponses[inputAllow].(*mcp.ElicitResult)
	allow := false
	if el != nil && el.Action == "accept" {
		allow, _ = el.Content["allow"].(bool)
	}
	if !allow {
		p.log.Warn("toolwall mcp-proxy: ask declined by the user", "tool", ToolID(p.opts.Name, x.name), "rules", v.Rules())
		return refusal(host.Explain(v) + " The user did not allow it."), nil
	}
	p.log.Info("toolwall mcp-proxy: ask allowed by the user", "tool", ToolID(p.opts.Name, x.name), "rules", v.Rules())
	return p.forward(ctx, req, x.j)
}

// forward sends the call upstream, records what ran in session memory and
// its outcome in the audit log, and returns upstream's result as it is.
func (p *Proxy) forward(ctx context.Context, req *mcp.CallToolRequest, j judged) (*mcp.CallToolResult, error) {
	ran := time.Now()
	res, err := p.upstream.CallTool(ctx, &mcp.CallToolParams{Meta: upstreamMeta(req.Params.Meta), Name: req.Params.Name, Arguments: rawArgs(req.Params.Arguments)})
	success := err == nil && res != nil && !res.IsError
	for _, c := range j.calls {
		p.opts.Shield.RecordInvocation(ctx, c, success)
	}
	o := audit.Outcome{Success: success, Duration: time.Since(ran)}
	if err != nil {
		o.Error = err.Error()
	}
	if err := p.audit.Outcome(ctx, j.id, o); err != nil {
		p.log.Error("toolwall mcp-proxy: audit outcome not written", "decision", j.id, "err", err)
	}
	return res, err
}

// upstreamMeta is the client's _meta less what belongs to the client's
// own connection: the per-request protocol version, client info and
// capabilities (the proxy's connection upstream has its own, and a
// version the upstream server does not speak would make it refuse the
// call), and the progress token (progress is not relayed).
func upstreamMeta(m mcp.Meta) mcp.Meta {
	var out mcp.Meta
	for k, v := range m {
		switch k {
		case mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientInfo, mcp.MetaKeyClientCapabilities, "progressToken":
			continue
		}
		if out == nil {
			out = mcp.Meta{}
		}
		out[k] = v
	}
	return out
}

// rawArgs passes the arguments on byte for byte ({} when there were
// none).
func rawArgs(a json.RawMessage) any {
	if len(a) == 0 {
		return map[string]any{}
	}
	return a
}
