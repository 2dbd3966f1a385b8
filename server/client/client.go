package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/server/api"
)

// Options configure a Client.
type Options struct {
	// Token is the bearer token, if the server wants one.
	Token string
	// Replicas are more base URLs of the same service, tried in order
	// after the first when it cannot be reached.
	Replicas []string
	// HTTPClient sends the requests; nil means one with a 10 s timeout.
	HTTPClient *http.Client
	// Timings asks the server for each decision's Verdict.Timings
	// (api.QueryTimings); off by default, when decisions carry none.
	Timings bool
}

// Client talks to one toolwall server (or several replicas of it). It is
// safe for concurrent use.
type Client struct {
	bases []string
	token string
	hc    *http.Client
	query string       // appended to the decide paths
	at    atomic.Int32 // the replica in use
}

// New returns a client of the server at base ("http://127.0.0.1:8765").
func New(base string, opts Options) *Client {
	c := &Client{token: opts.Token, hc: opts.HTTPClient}
	if opts.Timings {
		c.query = "?" + api.QueryTimings + "=true"
	}
	for _, b := range append([]string{base}, opts.Replicas...) {
		c.bases = append(c.bases, strings.TrimRight(b, "/"))
	}
	if c.hc == nil {
		c.hc = &http.Client{Timeout: 10 * time.Second}
	}
	return c
}

// StatusError is a response other than 200, with the server's error.
type StatusError struct {
	// Code is the HTTP status.
	Code int
	// Detail is the server's error body (empty if it sent none).
	Detail api.ErrorDetail
	// RetryAfter is when the server asked to be tried again (its
	// Retry-After in seconds, on a 503 of a busy server); 0 if it did
	// not say. The call it answered was not decided, and Decide returns
	// a deny for it.
	RetryAfter time.Duration
}

// Error returns "toolwall server: 400 bad_request: message".
func (e *StatusError) Error() string {
	return fmt.Sprintf("toolwall server: %d %s: %s", e.Code, e.Detail.Code, e.Detail.Message)
}

// retry says when a request may go to the next replica.
type retry int

const (
	retryAny  retry = iota // transport errors and 503
	retryDial              // only when the connection was never made
)

// do sends a request with body in (nil for GET) and decodes a 200
// response into out.
func (c *Client) do(ctx context.Context, method, path string, in, out any, when retry) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	var last error
	start := int(c.at.Load())
	for i := range c.bases {
		at := (start + i) % len(c.bases)
		err := c.once(ctx, method, c.bases[at]+path, body, out)
		if err == nil {
			c.at.Store(int32(at))
			return nil
		}
		last = err
		var se *StatusError
		switch {
		case ctx.Err() != nil:
			return err
		case errors.As(err, &se) && se.Code == http.StatusServiceUnavailable && when == retryAny:
		case errors.As(err, &se):
			return err
		case when == retryDial && !dialError(err):
			return err
		}
	}
	return last
}

// dialError reports whether err means the connection was never made.
func dialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func (c *Client) once(ctx context.Context, method, url string, body []byte, out any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		var e api.Error
		_ = json.Unmarshal(data, &e)
		se := &StatusError{Code: resp.StatusCode, Detail: e.Error}
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && n > 0 {
			se.RetryAfter = time.Duration(n) * time.Second
		}
		return se
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("toolwall server: unreadable response: %w", err)
	}
	return nil
}

// Decide asks for a decision on call. On any error it returns the error
// and a deny decision with rule gate.internal-error (fail closed).
func (c *Client) Decide(ctx context.Context, call api.Call) (api.Decision, error) {
	var d api.Decision
	if err := c.do(ctx, http.MethodPost, api.PathDecide+c.query, call, &d, retryAny); err != nil {
		v := toolwall.Refusal("client", toolwall.RuleInternal, "The toolwall server could not decide on this call ("+err.Error()+"), so it is refused rather than run unchecked. Retry.")
		return api.Decision{Schema: api.Schema, Verdict: v, Rules: v.Rules(), Message: "toolwall denied this call: " + v.Reason}, err
	}
	return d, nil
}

// Record reports that a call ran, with its outcome. A nil error means the
// call is in session memory.
func (c *Client) Record(ctx context.Context, r api.Record) error {
	var out api.Recorded
	return c.do(ctx, http.MethodPost, api.PathRecord, r, &out, retryAny)
}

// Turn starts the session's next user turn and returns its number.
func (c *Client) Turn(ctx context.Context, session string) (int, error) {
	var out api.TurnState
	err := c.do(ctx, http.MethodPost, api.PathTurn, api.Turn{Session: session}, &out, retryDial)
	return out.Turn, err
}

// Rules returns the rules in force.
func (c *Client) Rules(ctx context.Context) (api.Rules, error) {
	var out api.Rules
	err := c.do(ctx, http.MethodGet, api.PathRules, nil, &out, retryAny)
	return out, err
}

// DecideBatch asks for decisions on calls (1 to api.MaxBatch) in one
// request and returns them in the order of the calls. On any error it
// returns the error and a deny with rule gate.internal-error for every
// call (fail closed).
func (c *Client) DecideBatch(ctx context.Context, calls []api.Call) ([]api.Decision, error) {
	var out api.Decisions
	err := c.do(ctx, http.MethodPost, api.PathDecideBatch+c.query, api.Batch{Calls: calls}, &out, retryAny)
	if err == nil && len(out.Decisions) != len(calls) {
		err = fmt.Errorf("toolwall server: %d decisions for %d calls", len(out.Decisions), len(calls))
	}
	if err != nil {
		v := toolwall.Refusal("client", toolwall.RuleInternal, "The toolwall server could not decide on this call ("+err.Error()+"), so it is refused rather than run unchecked. Retry.")
		ds := make([]api.Decision, len(calls))
		for i := range ds {
			ds[i] = api.Decision{Schema: api.Schema, Verdict: v, Rules: v.Rules(), Message: "toolwall denied this call: " + v.Reason}
		}
		return ds, err
	}
	return out.Decisions, nil
}

// RecordBatch reports that calls ran (1 to api.MaxBatch), in order. A nil
// error means every one is in session memory; after an error send the
// whole batch again.
func (c *Client) RecordBatch(ctx context.Context, rs []api.Record) error {
	var out api.Recorded
	return c.do(ctx, http.MethodPost, api.PathRecordBatch, api.Records{Records: rs}, &out, retryAny)
}

// Approve grants the ask of decision: the same call in the same session
// and working directory is then allowed. The client's token must be an
// approver token of the decision's tenant; a decision that left no
// pending ask of that tenant is a *StatusError with code 404
// (Detail.Code "not_pending").
func (c *Client) Approve(ctx context.Context, decision string) (api.Approval, error) {
	var out api.Approval
	err := c.do(ctx, http.MethodPost, api.PathApprove, api.Approve{DecisionID: decision}, &out, retryDial)
	return out, err
}
