package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/paths"
)

// DefaultRecordTimeout bounds a post or prompt event's writes (8 s):
// inside the 10 s timeout `toolwall install` writes for every hook event,
// past which a host kills the hook, so that a record that cannot be
// written in time is still noted as lost (session.LostError) rather than
// cut off unnoted.
const DefaultRecordTimeout = 8 * time.Second

// DefaultTimeout bounds how long a PreToolUse decision may take (4 s).
// Hosts let a call through when a hook times out (Claude Code, Codex,
// Gemini CLI, Windsurf, Kiro, Cline, Qwen Code; Cursor unless failClosed),
// so toolwall answers "deny" itself well before the timeout the install
// writes (10 s).
const DefaultTimeout = 4 * time.Second

// ProbeEnv is the environment variable `toolwall doctor` sets ("1") on
// the hooks it probes: see Hook.Probe.
const ProbeEnv = "TOOLWALL_DOCTOR_PROBE"

// DefaultMaxPayload bounds the payload read from stdin (8 MiB). A write
// of a large file arrives whole in the payload; beyond this bound the call
// is denied rather than half-read.
const DefaultMaxPayload = 8 << 20

// TurnAdvancer starts a new user turn in a session. The engine with
// session memory implements it; without one, turns are not tracked.
type TurnAdvancer interface {
	AdvanceTurn(ctx context.Context, session string) (int, error)
}

// Decider remembers a session's decisions by the host's name for a call
// (the engine with session memory implements it): Decided returns the
// verdict and decision id remembered under key; Decide remembers v and
// id under key unless a decision is remembered there already, and
// returns the one that stands (earlier: the one remembered before).
type Decider interface {
	Decided(ctx context.Context, session, key string) (v toolwall.Verdict, id string, ok bool)
	Decide(ctx context.Context, session, key string, v toolwall.Verdict, id string) (stands toolwall.Verdict, standsID string, earlier bool)
}

// Auditor receives a record of every PreToolUse decision and the outcome
// of every call that ran (an audit.Store does).
type Auditor interface {
	Record(ctx context.Context, r audit.Record) error
	CallOutcome(ctx context.Context, session, callID string, o audit.Outcome) error
	// Turn marks the start of a session's user turn (a prompt event):
	// records written after it read as in that turn.
	Turn(ctx context.Context, session string, turn int, at time.Time) error
}

// Approver remembers a human's approval of an asked call (an
// *approval.Store does): Check turns an ask into an allow when the same
// call was approved, else notes it pending; Confirm grants the pending ask
// of a call the host reports as run.
type Approver interface {
	Check(ctx context.Context, decision string, call toolwall.Call, v toolwall.Verdict, confirmable bool) (toolwall.Verdict, error)
	Confirm(ctx context.Context, session, callID, by string) (bool, error)
}

// Hook answers one host's hook events; see the package documentation.
type Hook struct {
	// Adapter is the host's protocol.
	Adapter Adapter
	// Shield decides PreToolUse calls and records executed ones.
	Shield toolwall.Shield
	// Turns, when set, advances the session's turn on PromptSubmit.
	Turns TurnAdvancer
	// ProjectDir is the project root (the host's ProjectEnv variable);
	// the payload's project, else the call's cwd, stands in when empty.
	ProjectDir string
	// Home is the user's home directory.
	Home string
	// Context is the privilege the agent's tools run with (default user).
	Context toolwall.ExecContext
	// Windows reads the host's paths as Windows paths and its shell as
	// PowerShell even when they do not look like it (default: the running
	// system is Windows; a payload whose cwd has a drive letter is read
	// as Windows either way).
	Windows bool
	// MaxPayload bounds stdin; 0 means DefaultMaxPayload.
	MaxPayload int
	// Timeout bounds a PreToolUse decision, and reading the payload; 0
	// means DefaultTimeout. When it passes, the call is denied with rule
	// gate.timeout (input.malformed for a payload still incomplete).
	Timeout time.Duration
	// RecordTimeout bounds what a post or prompt event writes (the call's
	// record, the turn); 0 means DefaultRecordTimeout. Those events decide
	// nothing, so they may wait longer for a state file other hook
	// processes are writing.
	RecordTimeout time.Duration
	// Probe marks the events as `toolwall doctor`'s probes, not an
	// agent's calls: their audit records are labelled
	// audit.ProbeDriver+host ("doctor:claude-code") instead of
	// "hook:claude-code", which listings leave out unless asked. It
	// changes nothing else: the decision is made and answered as for any
	// call. The hook command sets it from ProbeEnv.
	Probe bool
	// Logger receives warnings and internal errors; nil means
	// slog.Default().
	Logger *slog.Logger
	// Audit, when set, records every PreToolUse decision (allow included)
	// and attaches the outcome at post events; asks and denies then name
	// their decision id.
	Audit Auditor
	// Approvals, when set, allows an asked call a human approved before
	// in the same session and directory.
	Approvals Approver
	// Decisions, when set, decides a call the host sends in two events
	// (Request.Once) once: the second event gets the first one's verdict
	// without being judged again, so it is neither counted again toward
	// repeated refusals nor recorded again in session memory, approvals
	// or the audit log; a second report that the call ran is not
	// recorded either. Two events that arrive at the same moment may
	// both be judged; the answer is the first decision remembered.
	Decisions Decider
	// Later, when set, is handed the audit writes (a decision's record, a
	// call's outcome), which the answer does not wait for, to run once
	// the answer is out; a resident process replies first and writes
	// then, before its next call. Nil writes them at once. Everything
	// else — session memory, approvals — is written before the answer.
	Later func(func())
}

func (h *Hook) logger() *slog.Logger {
	if h.Logger != nil {
		return h.Logger
	}
	return slog.Default()
}

// Handle reads one payload from r, writes the answer to stdout and
// stderr, and returns the verdict reached for a PreToolUse event (zero
// otherwise) and the exit status the process must end with. It never
// panics: write errors are logged, as there is nobody else to tell.
func (h *Hook) Handle(ctx context.Context, r io.Reader, stdout, stderr io.Writer) (v toolwall.Verdict, exit int) {
	resp, v := h.handle(ctx, r)
	if _, err := io.WriteString(stdout, resp.Stdout); err != nil {
		h.logger().Error("toolwall hook: cannot write the answer", "err", err)
	}
	if resp.Stderr != "" {
		_, _ = io.WriteString(stderr, resp.Stderr)
	}
	return v, resp.Exit
}

// handle decides and returns the response without writing it.
func (h *Hook) handle(ctx context.Context, r io.Reader) (resp Response, v toolwall.Verdict) {
	event := PreToolUse // until known, answers are deny-shaped: the safe reading
	shape := ""
	defer func() {
		if p := recover(); p != nil {
			h.logger().Error("toolwall hook: internal error", "panic", p)
			v = internalError(p)
			resp = h.encode(event, v, "", shape)
		}
	}()
	max := h.MaxPayload
	if max <= 0 {
		max = DefaultMaxPayload
	}
	data, late, err := h.read(r, max)
	switch {
	case late:
		return h.refuse(fmt.Sprintf("The hook payload did not arrive completely within %v (its input stayed open), so toolwall cannot tell what the tool call would do; it is refused.", h.timeout()))
	case err != nil:
		return h.refuse(fmt.Sprintf("toolwall could not read the hook payload (%v), so the tool call is refused. Retry the call.", err))
	case len(data) > max:
		return h.refuse(fmt.Sprintf("The hook payload is larger than %d bytes, too large to check, so the tool call is refused. Split the work into smaller calls (for example write a large file in parts).", max))
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // Cursor on Windows sends a BOM
	if err := oneObject(data); err != nil {
		return h.refuse(fmt.Sprintf("The %s hook payload cannot be read: it is not one JSON object (%v), so toolwall cannot tell what the tool call would do; it is refused.", h.Adapter.Name(), err))
	}
	if name, why, found := toolwall.AmbiguousTopKey(data); found {
		what := "names " + strconv.Quote(name) + " twice"
		if why != "twice" {
			what = "has a name that is not valid text (" + strconv.Quote(name) + ")"
		}
		return h.refuse(fmt.Sprintf("The %s hook payload %s; readers disagree on which value counts, so toolwall cannot tell what the tool call would do; it is refused.", h.Adapter.Name(), what))
	}
	req, err := h.Adapter.Decode(data)
	if err != nil {
		var de *DecodeError
		if !errors.As(err, &de) {
			var se *json.SyntaxError
			var te *json.UnmarshalTypeError
			if errors.As(err, &se) || errors.As(err, &te) || errors.Is(err, io.ErrUnexpectedEOF) || len(bytes.TrimSpace(data)) == 0 {
				err = fmt.Errorf("not valid JSON: %w", err)
			}
		}
		return h.refuse(fmt.Sprintf("The %s hook payload cannot be read (%v), so toolwall cannot tell what the tool call would do; it is refused.", h.Adapter.Name(), err))
	}
	event, shape = req.Event, req.Shape
	calls, unread := MCPCalls(h.calls(req), req.Event == PostToolUse || req.Event == PostToolUseFailure)
	switch req.Event {
	case PreToolUse:
		if len(calls) == 0 || calls[0].Tool == "" {
			return h.refuse(fmt.Sprintf("The %s payload names no tool, so toolwall cannot check the call; it is refused.", h.Adapter.Name()))
		}
		if unread != nil {
			return h.refuse(MCPUnread(req.Tool, unread))
		}
		once := h.once(req, calls, "")
		if once != "" {
			dctx, cancel := context.WithTimeout(ctx, h.timeout()/2)
			pv, pid, ok := h.Decisions.Decided(dctx, req.Session, once)
			cancel()
			if ok {
				return h.encode(PreToolUse, pv, pid, req.Shape), pv
			}
		}
		id := ""
		for _, call := range calls {
			cv, cid := h.decideOne(ctx, req, call)
			if id == "" || toolwall.Stricter(v.Action, cv.Action) != v.Action {
				v, id = cv, cid
			}
		}
		if once != "" {
			dctx, cancel := context.WithTimeout(ctx, h.timeout()/2)
			v, id, _ = h.Decisions.Decide(dctx, req.Session, once, v, id)
			cancel()
		}
		if !h.Adapter.Caps().Post && !v.Action.Stops() {
			// The host never says the call ran: remember it as run now,
			// so that the next link of a chain still finds it.
			for _, call := range calls {
				h.Shield.RecordInvocation(ctx, call, true)
			}
		}
		return h.encode(PreToolUse, v, id, req.Shape), v
	case PostToolUse, PostToolUseFailure:
		ctx, cancel := context.WithTimeout(ctx, h.recordTimeout())
		defer cancel()
		if once := h.once(req, calls, "ran"); once != "" {
			if _, _, earlier := h.Decisions.Decide(ctx, req.Session, once, toolwall.Verdict{}, ""); earlier {
				break // the host reported this call's run already
			}
		}
		for _, call := range calls {
			if call.Tool == "" {
				continue
			}
			ok := req.Event == PostToolUse
			h.Shield.RecordInvocation(ctx, call, ok)
			h.outcome(ctx, req, call, ok)
		}
	case PromptSubmit:
		ctx, cancel := context.WithTimeout(ctx, h.recordTimeout())
		defer cancel()
		if h.Turns != nil && req.Session != "" {
			n, err := h.Turns.AdvanceTurn(ctx, req.Session)
			if err != nil {
				h.logger().Warn("toolwall hook: cannot advance turn; chain memory may span turns", "session", req.Session, "err", err)
				break
			}
			if h.Audit != nil && n > 0 {
				at := time.Now()
				h.audit(ctx, func(ctx context.Context) {
					if err := h.Audit.Turn(ctx, req.Session, n, at); err != nil {
						h.logger().Warn("toolwall hook: cannot mark the turn in the audit log", "session", req.Session, "err", err)
					}
				})
			}
		}
	}
	return h.Adapter.Encode(Answer{Event: req.Event, Action: toolwall.Allow, Shape: req.Shape}), toolwall.Verdict{}
}

// decideOne decides one call of a PreToolUse event and records it.
func (h *Hook) decideOne(ctx context.Context, req Request, call toolwall.Call) (toolwall.Verdict, string) {
	start := time.Now()
	v := h.decide(ctx, call)
	id := ""
	if h.Audit != nil || h.Approvals != nil {
		id = audit.NewID()
	}
	if h.Approvals != nil {
		// An ask only turns into the host's prompt where the host can ask;
		// elsewhere it is refused and a person approves with toolwall
		// approve.
		var err error
		if v, err = h.Approvals.Check(ctx, id, call, v, req.Prompted && h.Adapter.Caps().Ask); err != nil {
			h.logger().Warn("toolwall hook: approvals unavailable; asking as usual", "err", err)
		}
	}
	if v.Action != toolwall.Allow && !h.Adapter.Caps().StderrReason {
		h.logger().Warn("toolwall: "+v.Action.String(), "host", h.Adapter.Name(), "tool", req.Tool, "session", req.Session, "rules", v.Rules(), "reason", v.Reason, "decision", id)
	}
	h.record(ctx, id, call, v, start)
	return v, id
}

// calls completes the request's calls with the places the gate needs:
// project, home, privilege, the session; Windows paths in the POSIX
// namespace and a Windows shell as PowerShell.
func (h *Hook) calls(req Request) []toolwall.Call {
	out := make([]toolwall.Call, 0, len(req.Calls))
	for _, c := range req.Calls {
		if c.Session == "" {
			c.Session = req.Session
		}
		project := h.ProjectDir
		if project == "" {
			project = req.Project
		}
		if project == "" {
			project = c.Cwd
		}
		c.Project, c.Home = project, h.Home
		if c.Context == "" {
			c.Context = h.Context
		}
		if h.Windows || runtime.GOOS == "windows" || isWindowsPath(c.Cwd) || isWindowsPath(c.Project) {
			c = windowsCall(c)
		}
		out = append(out, c)
	}
	return out
}

// once is the key a call the host may send twice is remembered under
// (see Request.Once): its Once, what (the event's kind) and a digest of
// its calls' tools, directories and inputs (the same command run in
// another directory is another call); "" when there is nothing to
// remember it by or nowhere to remember it.
func (h *Hook) once(req Request, calls []toolwall.Call, what string) string {
	if h.Decisions == nil || req.Once == "" || req.Session == "" || len(calls) == 0 {
		return ""
	}
	d := sha256.New()
	for _, c := range calls {
		d.Write([]byte(c.Tool))
		d.Write([]byte{0})
		d.Write([]byte(c.Cwd))
		d.Write([]byte{0})
		var in bytes.Buffer
		if json.Compact(&in, c.Input) != nil {
			in.Reset()
			in.Write(c.Input)
		}
		d.Write(in.Bytes())
		d.Write([]byte{0})
	}
	return "once:" + what + ":" + req.Once + ":" + hex.EncodeToString(d.Sum(nil)[:16])
}

// isWindowsPath reports whether p is an absolute Windows path.
func isWindowsPath(p string) bool {
	q, ok := paths.FromWindows(p)
	return ok && strings.HasPrefix(q, "/")
}

// windowsCall reads a Windows call's paths in the POSIX namespace and its
// shell as PowerShell.
func windowsCall(c toolwall.Call) toolwall.Call {
	conv := func(p string) string {
		if q, ok := paths.FromWindows(p); ok {
			return q
		}
		return p
	}
	c.Cwd, c.Project, c.Home = conv(c.Cwd), conv(c.Project), conv(c.Home)
	if c.Tool == toolwall.ToolBash {
		c.Tool = toolwall.ToolPowerShell
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(c.Input, &m) != nil {
		return c
	}
	changed := false
	for _, f := range []string{"file_path", "notebook_path", "path"} {
		var s string
		if raw, ok := m[f]; ok && json.Unmarshal(raw, &s) == nil {
			if q, ok := paths.FromWindows(s); ok {
				m[f], _ = json.Marshal(q)
				changed = true
			}
		}
	}
	if changed {
		c.Input, _ = json.Marshal(m)
	}
	return c
}

// timeout is the PreToolUse deadline.
func (h *Hook) timeout() time.Duration {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return DefaultTimeout
}

// recordTimeout is the deadline of a post or prompt event's writes.
func (h *Hook) recordTimeout() time.Duration {
	if h.RecordTimeout > 0 {
		return h.RecordTimeout
	}
	return DefaultRecordTimeout
}

// read reads the payload: see ReadPayload; late reports ErrLate.
func (h *Hook) read(r io.Reader, max int) (data []byte, late bool, err error) {
	data, err = ReadPayload(r, max, h.timeout())
	if errors.Is(err, ErrLate) {
		return nil, true, nil
	}
	return data, false, err
}

// ErrLate is the error of a payload that did not end (its input stayed
// open) within the time allowed.
var ErrLate = errors.New("the hook payload did not arrive completely in time")

// ReadPayload reads r to its end, up to max+1 bytes (so that an oversized
// payload shows as longer than max), waiting at most timeout: then it
// returns ErrLate. A reader in memory is read at once; one that takes a
// read deadline (a pipe or socket the runtime's poller watches, as a
// resident's client's input is) is read in place, up to the deadline;
// any other is read in the background, where a late read goes on until r
// ends (closing r ends it). Other read errors are returned with the bytes
// read.
func ReadPayload(r io.Reader, max int, timeout time.Duration) ([]byte, error) {
	limited := io.LimitReader(r, int64(max)+1)
	switch r := r.(type) {
	case *bytes.Reader, *strings.Reader, *bytes.Buffer:
		return io.ReadAll(limited)
	case interface{ SetReadDeadline(time.Time) error }:
		if r.SetReadDeadline(time.Now().Add(timeout)) == nil {
			data, err := io.ReadAll(limited)
			_ = r.SetReadDeadline(time.Time{})
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return nil, ErrLate
			}
			return data, err
		}
	}
	type result struct {
		data []byte
		err  error
	}
	got := make(chan result, 1)
	go func() {
		d, err := io.ReadAll(limited)
		got <- result{d, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case res := <-got:
		return res.data, res.err
	case <-t.C:
		return nil, ErrLate
	}
}

// oneObject reports an error unless data is one JSON object, with nothing
// but white space after it (null, an array, or an object
// followed by more data is malformed, not a payload to guess at).
func oneObject(data []byte) error {
	// The common case in one pass without allocating: json.Valid holds
	// exactly one value, and an object starts with '{'.
	if v := bytes.TrimLeft(data, " \t\r\n"); len(v) > 0 && v[0] == '{' && json.Valid(data) {
		return nil
	}
	return notOneObject(data)
}

// notOneObject is oneObject token by token: it says what is wrong.
func notOneObject(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return errors.New("it is empty")
		}
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("it holds %v, not an object", tokenText(tok))
	}
	dec = json.NewDecoder(bytes.NewReader(data))
	var obj json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more data follows the object")
	}
	return nil
}

// tokenText names a JSON token for a reason: null, a number, "[", …
func tokenText(tok json.Token) string {
	if tok == nil {
		return "null"
	}
	return fmt.Sprint(tok)
}

// decide evaluates call within the timeout; past it the call is denied.
func (h *Hook) decide(ctx context.Context, call toolwall.Call) toolwall.Verdict {
	timeout := h.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan toolwall.Verdict, 1)
	go func() {
		growStack()
		defer func() {
			if p := recover(); p != nil {
				h.logger().Error("toolwall hook: internal error", "panic", p)
				done <- internalError(p)
			}
		}()
		done <- h.Shield.Evaluate(ctx, call)
	}()
	select {
	case v := <-done:
		return v
	case <-ctx.Done():
		return toolwall.Refusal("hook", toolwall.RuleTimeout, fmt.Sprintf("toolwall could not finish checking this call within %v, so it is refused rather than let through unchecked. Retry; if it keeps happening, the state file may be locked by another process.", timeout))
	}
}

// growStack gives the calling goroutine, near its start, a stack deep
// enough for a decision (32 KiB) in one step. A new goroutine starts
// small; grown on the way down the shell reader and the analyzers, its
// stack is copied several times, each copy adjusting every frame on it,
// and a hook call pays that on every decision (about 2 % of a call
// through the resident, measured side by side). Grown here it is copied
// once, with one frame on it.
//
//go:noinline
func growStack() byte {
	var frame [24 << 10]byte
	return frame[len(frame)/2]
}

// refuse answers a payload that cannot be read with a deny.
func (h *Hook) refuse(reason string) (Response, toolwall.Verdict) {
	h.logger().Warn("toolwall hook: refusing malformed payload", "host", h.Adapter.Name(), "reason", reason)
	v := toolwall.Refusal("hook", toolwall.RuleMalformed, reason)
	id := ""
	if h.Audit != nil {
		id = audit.NewID()
		h.record(context.Background(), id, toolwall.Call{}, v, time.Now())
	}
	return h.encode(PreToolUse, v, id, ""), v
}

// record writes the audit record of decision id; a failure is logged and
// changes nothing (the decision stands).
func (h *Hook) record(ctx context.Context, id string, call toolwall.Call, v toolwall.Verdict, start time.Time) {
	if h.Audit == nil {
		return
	}
	elapsed := time.Since(start)
	h.audit(ctx, func(ctx context.Context) {
		// Built here: redaction is work a resident does after answering.
		rec := audit.New(id, h.driver(), call, v, start, elapsed)
		if err := h.Audit.Record(ctx, rec); err != nil {
			h.logger().Error("toolwall hook: cannot write the audit record", "decision", id, "err", err)
		}
	})
}

// driver names the hook in its audit records.
func (h *Hook) driver() string {
	if h.Probe {
		return audit.ProbeDriver + h.Adapter.Name()
	}
	return "hook:" + h.Adapter.Name()
}

// audit runs write now, or hands it to Later with ctx's values and
// without its cancellation (the call it belongs to has ended by then).
func (h *Hook) audit(ctx context.Context, write func(context.Context)) {
	if h.Later == nil {
		write(ctx)
		return
	}
	ctx = context.WithoutCancel(ctx)
	h.Later(func() { write(ctx) })
}

// outcome attaches what happened to the call to its decision's record,
// and takes the run of an asked call as the user's approval where a human
// was prompted.
func (h *Hook) outcome(ctx context.Context, req Request, call toolwall.Call, ok bool) {
	if h.Approvals != nil && req.Prompted && h.Adapter.Caps().Ask {
		if _, err := h.Approvals.Confirm(ctx, call.Session, call.ID, h.Adapter.Name()+" "+req.Event.String()); err != nil {
			h.logger().Warn("toolwall hook: cannot record the approval", "err", err)
		}
	}
	if h.Audit == nil || call.ID == "" {
		return
	}
	o := req.Outcome
	o.Success = ok
	h.audit(ctx, func(ctx context.Context) {
		if err := h.Audit.CallOutcome(ctx, call.Session, call.ID, audit.RedactOutcome(o)); err != nil {
			h.logger().Warn("toolwall hook: cannot attach the outcome", "err", err)
		}
	})
}

// encode turns a verdict into the host's answer: allow and warn allow; an
// ask the host cannot show is a deny that says a human must run the call.
// A decision id, when there is one, ends the reason.
func (h *Hook) encode(event Event, v toolwall.Verdict, id, shape string) Response {
	a := Answer{Event: event, Action: v.Action, Shape: shape}
	if !v.Action.Stops() {
		a.Action = toolwall.Allow
		return h.Adapter.Encode(a)
	}
	a.Reason = Explain(v)
	if v.Action == toolwall.Ask && !h.Adapter.Caps().Ask {
		a.Action = toolwall.Deny
		a.Reason += " " + h.Adapter.Name() + " cannot ask a human from a hook, so the call is refused: a human must run it"
		if id != "" {
			a.Reason += ", or run `toolwall approve " + id + "` in a terminal and the same call will pass when retried"
		}
		a.Reason += "."
	}
	if id != "" {
		a.Reason += " [decision " + id + "; toolwall explain " + id + "]"
	}
	return h.Adapter.Encode(a)
}

// Explain formats a verdict's reason for the model and the human:
// "toolwall denied this call [rule, rule]: reason".
func Explain(v toolwall.Verdict) string {
	var b strings.Builder
	b.WriteString("toolwall ")
	switch v.Action {
	case toolwall.Deny:
		b.WriteString("denied this call")
	case toolwall.Ask:
		b.WriteString("asks a human to confirm this call")
	default:
		b.WriteString(v.Action.String() + "s this call")
	}
	if rules := v.Rules(); len(rules) > 0 {
		b.WriteString(" [" + strings.Join(rules, ", ") + "]")
	}
	if v.Reason != "" {
		b.WriteString(": " + v.Reason)
	}
	for _, n := range v.Notes {
		b.WriteString(" (" + n + ")")
	}
	return b.String()
}

// internalError is the refusal for a panic p inside the hook or the gate.
func internalError(p any) toolwall.Verdict {
	return toolwall.Refusal("hook", toolwall.RuleInternal, fmt.Sprintf("toolwall hit an internal error (%v) and refuses the call rather than let it through unchecked. Retry; if it persists, ask the user to check the toolwall installation.", p))
}
