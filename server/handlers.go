package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/chain"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/server/api"
)

//go:embed openapi.json
var openapi []byte

// localTenant is the tenant of every request when the server has no
// tokens.
const localTenant = "local"

// methodOf returns the method of the endpoint at path, for 405 answers.
func methodOf(path string) (string, bool) {
	switch path {
	case api.PathDecide, api.PathDecideBatch, api.PathRecord, api.PathRecordBatch, api.PathTurn, api.PathApprove:
		return http.MethodPost, true
	case api.PathRules, api.PathMetrics, api.PathOpenAPI, api.PathHealth, api.PathReady:
		return http.MethodGet, true
	}
	return "", false
}

// routes registers every endpoint.
func (s *Server) routes() {
	m := http.NewServeMux()
	m.Handle("POST "+api.PathDecide, s.wrap("decide", true, s.decide))
	m.Handle("POST "+api.PathDecideBatch, s.wrap("decide_batch", true, s.decideBatch))
	m.Handle("POST "+api.PathRecord, s.wrap("record", true, s.record))
	m.Handle("POST "+api.PathRecordBatch, s.wrap("record_batch", true, s.recordBatch))
	m.Handle("POST "+api.PathTurn, s.wrap("turn", true, s.turn))
	m.Handle("POST "+api.PathApprove, s.wrap("approve", false, s.approve))
	m.Handle("GET "+api.PathRules, s.wrap("rules", true, s.rules))
	m.Handle("GET "+api.PathMetrics, s.wrap("metrics", true, func(w http.ResponseWriter, r *http.Request, _ string) {
		promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}).ServeHTTP(w, r)
	}))
	m.Handle("GET "+api.PathOpenAPI, s.wrap("openapi", false, func(w http.ResponseWriter, _ *http.Request, _ string) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openapi)
	}))
	m.Handle("GET "+api.PathHealth, s.wrap("healthz", false, func(w http.ResponseWriter, _ *http.Request, _ string) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	}))
	m.Handle("GET "+api.PathReady, s.wrap("readyz", false, s.ready))
	m.Handle("/", s.wrap("other", false, func(w http.ResponseWriter, r *http.Request, _ string) {
		if method, ok := methodOf(r.URL.Path); ok {
			w.Header().Set("Allow", method)
			s.fail(w, http.StatusMethodNotAllowed, "method_not_allowed", r.URL.Path+" takes "+method)
			return
		}
		s.fail(w, http.StatusNotFound, "not_found", "no endpoint "+r.Method+" "+r.URL.Path+"; see "+api.PathOpenAPI)
	}))
	s.mux = m
}

// handler is an endpoint's function; tenant is the authenticated tenant.
type handler func(w http.ResponseWriter, r *http.Request, tenant string)

// statusWriter remembers the status written.
type statusWriter struct {
	http.ResponseWriter
	code int
}

// WriteHeader remembers the first status.
func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write counts an implicit 200.
func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// wrap adds authentication (when auth is set and the server has tokens),
// panic recovery and request metrics to h. A panic in /v1/decide is
// answered with a deny for that request; elsewhere with a 500.
func (s *Server) wrap(name string, auth bool, h handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		w := &statusWriter{ResponseWriter: rw}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.metrics.panics.Inc()
				s.log.Error("toolwall serve: panic in handler", "endpoint", name, "panic", p)
				if w.code == 0 {
					if name == "decide" {
						s.respond(w, http.StatusOK, s.decision(audit.NewID(), internalError(p)))
					} else {
						s.fail(w, http.StatusInternalServerError, "internal", fmt.Sprintf("internal error: %v", p))
					}
				}
			}
			code := w.code
			if code == 0 {
				code = http.StatusOK
			}
			s.metrics.requests.WithLabelValues(name, strconv.Itoa(code)).Inc()
			s.metrics.requestTime.WithLabelValues(name).Observe(time.Since(start).Seconds())
		}()
		tenant := localTenant
		if len(s.tenants) == 0 && !loopbackHost(r.Host) {
			// Without tokens only local clients may talk to the server; a
			// web page that rebinds its own name to 127.0.0.1 still sends
			// its name in Host.
			s.fail(w, http.StatusForbidden, "forbidden", "this server has no bearer tokens and answers only requests addressed to localhost, 127.0.0.1 or [::1]")
			return
		}
		if auth && len(s.tenants) > 0 {
			var ok bool
			if tenant, ok = s.authenticate(r); !ok {
				w.Header().Set("WWW-Authenticate", `Bearer realm="toolwall"`)
				s.fail(w, http.StatusUnauthorized, "unauthorized", "a valid bearer token is required (Authorization: Bearer <token>)")
				return
			}
		}
		if r.Method == http.MethodPost {
			size := r.ContentLength
			if size > s.opts.MaxBody {
				size = 0 // refused by decode before it is read
			}
			release, busy := s.admission.admit(tenant, size)
			if release == nil {
				// The body is read past and dropped (through a small
				// buffer), so that the client, still sending it, reads
				// the answer rather than a reset connection.
				_, _ = io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
				s.busy(w, busy)
				return
			}
			defer release()
		}
		h(w, r, tenant)
	})
}

// loopbackHost reports whether a Host header names this machine's
// loopback interface.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// authenticate returns the tenant of the request's bearer token. Tokens
// are compared by their SHA-256, so the time taken does not depend on how
// much of a guess matches.
func (s *Server) authenticate(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	tenant, ok := s.tenants[sha256.Sum256([]byte(strings.TrimSpace(token)))]
	return tenant, ok
}

// decode reads the JSON body of r into v: at most MaxBody bytes, one
// object, no unknown fields, the schema version if any. On failure it
// answers and returns false.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any, schema func() string) bool {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			s.fail(w, http.StatusUnsupportedMediaType, "unsupported_media_type", "the body must be application/json")
			return false
		}
	}
	tooLarge := func() string {
		return fmt.Sprintf("the body is larger than %d bytes; split the work into smaller calls", s.opts.MaxBody)
	}
	if r.ContentLength > s.opts.MaxBody {
		// Declared too large: refused before reading it (and the
		// connection closed, so the client need not send it).
		w.Header().Set("Connection", "close")
		s.fail(w, http.StatusRequestEntityTooLarge, "too_large", tooLarge())
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBody)
	if err := Decode(r.Body, v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.fail(w, http.StatusRequestEntityTooLarge, "too_large", tooLarge())
		} else {
			s.fail(w, http.StatusBadRequest, "bad_request", err.Error())
		}
		return false
	}
	if v := schema(); v != "" && v != api.Schema {
		s.fail(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("schema %q is not served here (this server speaks %q)", v, api.Schema))
		return false
	}
	return true
}

// Decode reads exactly one JSON value from body into v, refusing unknown
// fields and trailing data. It is the server's request decoding, exported
// for its fuzz target and for clients that want to check a body first.
//
// A body with a member name that decoders read differently (a name twice
// in one object, at any depth outside a tool input; see
// toolwall.AmbiguousKeyOutside) is refused: encoding/json keeps the last
// of two, another reader the first, so the call judged need not be the
// call that runs. A tool input's own names are the gate's to judge.
func Decode(body io.Reader, v any) error {
	data, err := io.ReadAll(body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return fmt.Errorf("the body is not a valid request: %w", err)
	}
	if name, why, found := toolwall.AmbiguousKeyOutside(data, "input"); found {
		if why == "twice" {
			return fmt.Errorf("the body is not a valid request: it names %q twice in one object", name)
		}
		return fmt.Errorf("the body is not a valid request: a member name is not valid text (%q)", name)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return fmt.Errorf("the body is not a valid request: %w", err)
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); err == nil {
		return errors.New("the body is not a valid request: data after the JSON object")
	} else if errors.As(err, new(*http.MaxBytesError)) {
		return err
	} else if !errors.Is(err, io.EOF) {
		return fmt.Errorf("the body is not a valid request: data after the JSON object: %w", err)
	}
	return nil
}

// respond writes v as JSON with status code.
func (s *Server) respond(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.log.Error("toolwall serve: cannot encode response", "err", err)
		code, b = http.StatusInternalServerError, []byte(`{"schema":"`+api.Schema+`","error":{"code":"internal","message":"cannot encode the response"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(append(b, '\n'))
}

// fail writes an error response.
func (s *Server) fail(w http.ResponseWriter, code int, kind, msg string) {
	s.respond(w, code, api.Error{Schema: api.Schema, Error: api.ErrorDetail{Code: kind, Message: msg}})
}

// decision is the response body for verdict v. An ask says how it is
// approved where this server keeps approvals and takes them.
func (s *Server) decision(id string, v toolwall.Verdict) api.Decision {
	d := api.Decision{Schema: api.Schema, DecisionID: id, Verdict: v, Rules: v.Rules()}
	if v.Action != toolwall.Allow {
		d.Message = host.Explain(v)
	}
	if v.Action == toolwall.Ask && s.approvals != nil && len(s.approvers) > 0 {
		d.Message += " A person approves it with POST " + api.PathApprove + ` {"decision_id": "` + id + `"} and an approver token (never the agent's); the same call in the same session and working directory then passes when retried.`
	}
	return d
}

// decide answers POST /v1/decide.
func (s *Server) decide(w http.ResponseWriter, r *http.Request, tenant string) {
	var req api.Call
	if !s.decode(w, r, &req, func() string { return req.Schema }) {
		return
	}
	timings, ok := s.wantTimings(w, r)
	if !ok {
		return
	}
	ds, err := s.decideAll(r.Context(), tenant, []api.Call{req}, timings)
	if err != nil {
		s.fail(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	s.respond(w, http.StatusOK, ds[0])
}

// decideBatch answers POST /v1/decide/batch.
func (s *Server) decideBatch(w http.ResponseWriter, r *http.Request, tenant string) {
	var req api.Batch
	if !s.decode(w, r, &req, func() string { return req.Schema }) {
		return
	}
	if len(req.Calls) == 0 || len(req.Calls) > api.MaxBatch {
		s.fail(w, http.StatusBadRequest, "bad_request", fmt.Sprintf(`"calls" must hold 1 to %d calls, not %d`, api.MaxBatch, len(req.Calls)))
		return
	}
	timings, ok := s.wantTimings(w, r)
	if !ok {
		return
	}
	ds, err := s.decideAll(r.Context(), tenant, req.Calls, timings)
	if err != nil {
		s.fail(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	s.respond(w, http.StatusOK, api.Decisions{Schema: api.Schema, Decisions: ds})
}

// wantTimings reads the request's api.QueryTimings parameter; a value
// that is not a boolean is answered 400 and ok is false.
func (s *Server) wantTimings(w http.ResponseWriter, r *http.Request) (want, ok bool) {
	q := r.URL.Query().Get(api.QueryTimings)
	if q == "" {
		return false, true
	}
	want, err := strconv.ParseBool(q)
	if err != nil {
		s.fail(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("query parameter %s=%q is not true or false", api.QueryTimings, q))
		return false, false
	}
	return want, true
}

// decideAll decides reqs for tenant, in order: each gets its decision id,
// is counted, has asks matched against the approvals, and is written to
// the audit log (with its timings; the answer carries them only when
// timings is set). A call the server cannot read is an error naming its
// index (in a batch), and nothing is decided.
func (s *Server) decideAll(ctx context.Context, tenant string, reqs []api.Call, timings bool) ([]api.Decision, error) {
	calls := make([]toolwall.Call, len(reqs))
	for i, c := range reqs {
		call, err := s.call(tenant, c)
		if err != nil {
			if len(reqs) > 1 {
				err = fmt.Errorf("calls[%d]: %w", i, err)
			}
			return nil, err
		}
		calls[i] = call
	}
	start := time.Now()
	cur := s.current.Load()
	vctx, v := s.withView(ctx, calls)
	verdicts := s.evaluate(vctx, cur, calls)
	// What follows the decisions is written even when the client has
	// gone (its context cancelled): a decision made is staged and
	// audited, within the request timeout.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.Timeout)
	defer cancel()
	if v != nil {
		// The calls staged for /v1/record, in one write before the
		// answer; staging is best effort, as in the gate (a call not
		// staged is analyzed again when it is recorded).
		if err := s.store.note(wctx, "stage", v.flush(wctx)); err != nil {
			s.log.Warn("toolwall serve: cannot stage calls; chain memory may miss them", "calls", len(calls), "err", err)
		}
	}
	_, discard := s.audit.(audit.Discard)
	out := make([]api.Decision, len(calls))
	var records []audit.Record
	for i, call := range calls {
		id, v := audit.NewID(), verdicts[i].v
		if s.approvals != nil && v.Action == toolwall.Ask {
			var err error
			if v, err = s.approvals.Check(wctx, id, s.approvalCall(tenant, reqs[i].Session, call), v, false); err != nil {
				s.log.Warn("toolwall serve: approvals unavailable; asking as usual", "decision", id, "err", err)
			}
		}
		d := s.decision(id, v)
		s.metrics.observe(v, d.Rules, verdicts[i].took)
		if !discard {
			records = append(records, audit.New(id, "server", call, v, start, verdicts[i].took))
		}
		if !timings {
			d.Timings = nil
		}
		out[i] = d
	}
	s.writeAudit(wctx, records)
	return out, nil
}

// approvalCall is the call an approval is kept for: the tenant's session
// (with the tenant even when the client sent none, so that a grant never
// crosses tenants).
func (s *Server) approvalCall(tenant, session string, call toolwall.Call) toolwall.Call {
	call.Session = tenant + "/" + session
	return call
}

// record answers POST /v1/record. A 200 means the call is in session
// memory; when the store fails the answer is 503 and the client retries.
func (s *Server) record(w http.ResponseWriter, r *http.Request, tenant string) {
	var req api.Record
	if !s.decode(w, r, &req, func() string { return req.Schema }) {
		return
	}
	code, kind, err := s.recordAll(r.Context(), tenant, []api.Record{req})
	if err != nil {
		s.fail(w, code, kind, err.Error())
		return
	}
	s.respond(w, http.StatusOK, api.Recorded{Schema: api.Schema, Recorded: true})
}

// recordBatch answers POST /v1/record/batch: 200 once every record is in
// session memory, 503 (send the batch again) when the store failed.
func (s *Server) recordBatch(w http.ResponseWriter, r *http.Request, tenant string) {
	var req api.Records
	if !s.decode(w, r, &req, func() string { return req.Schema }) {
		return
	}
	if len(req.Records) == 0 || len(req.Records) > api.MaxBatch {
		s.fail(w, http.StatusBadRequest, "bad_request", fmt.Sprintf(`"records" must hold 1 to %d records, not %d`, api.MaxBatch, len(req.Records)))
		return
	}
	code, kind, err := s.recordAll(r.Context(), tenant, req.Records)
	if err != nil {
		s.fail(w, code, kind, err.Error())
		return
	}
	s.respond(w, http.StatusOK, api.Recorded{Schema: api.Schema, Recorded: true, Count: len(req.Records)})
}

// recordAll records reqs in order and attaches their outcomes to the
// audit log. Records the server cannot read make the whole request a 400
// (nothing is recorded); a store failure is a 503 after the others were
// recorded (recording a call twice only repeats a link of a chain).
func (s *Server) recordAll(ctx context.Context, tenant string, reqs []api.Record) (int, string, error) {
	calls := make([]toolwall.Call, len(reqs))
	for i, req := range reqs {
		at := ""
		if len(reqs) > 1 {
			at = fmt.Sprintf("records[%d]: ", i)
		}
		if req.Outcome == nil || req.Outcome.Success == nil {
			return http.StatusBadRequest, "bad_request", errors.New(at + `"outcome" with "success" is required`)
		}
		call, err := s.call(tenant, req.Call)
		if err != nil {
			return http.StatusBadRequest, "bad_request", errors.New(at + err.Error())
		}
		calls[i] = call
	}
	ctx, slot := withSlot(ctx)
	eng := s.Engine()
	ctx, v := s.withView(ctx, calls)
	for _, round := range rounds(calls) {
		if v != nil {
			// The round's commits in one write; the gate's Commit of each
			// call is then answered from it.
			var ids, keys []string
			var ok []bool
			for _, i := range round {
				if calls[i].Session != "" && calls[i].ID != "" {
					ids, keys, ok = append(ids, calls[i].Session), append(keys, calls[i].ID), append(ok, *reqs[i].Outcome.Success)
				}
			}
			if len(ids) > 0 {
				v.commitAll(ctx, ids, keys, ok)
			}
		}
		for _, i := range round {
			// what ran is what an MCP call's arguments do, as a hook
			// records it
			ran, err := host.MCPCalls(calls[i:i+1], true)
			if err != nil {
				ran = calls[i : i+1]
			}
			for _, c := range ran {
				eng.RecordInvocation(ctx, c, *reqs[i].Outcome.Success)
			}
		}
	}
	var ids []string
	var outs []audit.Outcome
	for _, req := range reqs {
		if req.DecisionID != "" {
			ids = append(ids, req.DecisionID)
			outs = append(outs, audit.Outcome{
				Success: *req.Outcome.Success, ExitCode: req.Outcome.ExitCode, Truncated: req.Outcome.Truncated,
				Duration: time.Duration(req.Outcome.DurationMS) * time.Millisecond, Error: req.Outcome.Error,
			})
		}
	}
	// Written even when the client has gone, as a decision's record is.
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.Timeout)
	defer cancel()
	s.writeOutcomes(octx, ids, outs)
	if err := slot.get(); err != nil {
		return http.StatusServiceUnavailable, "unavailable", fmt.Errorf("session memory did not record the call (%w); retry", err)
	}
	return 0, "", nil
}

// approve answers POST /v1/approve: an approver token of the decision's
// tenant turns its pending ask into a grant. An unknown decision, one of
// another tenant, an allow, a deny and one already approved are all the
// same 404 not_pending (a tenant learns nothing of another's decisions).
func (s *Server) approve(w http.ResponseWriter, r *http.Request, _ string) {
	if len(s.approvers) == 0 {
		s.fail(w, http.StatusForbidden, "forbidden", "this server has no approver tokens: approvals need a token of their own (toolwall serve --approver-file), never the one an agent decides with")
		return
	}
	tenant, ok := s.approver(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="toolwall-approve"`)
		s.fail(w, http.StatusUnauthorized, "unauthorized", "an approver token is required (Authorization: Bearer <approver token>); the token an agent decides with cannot approve")
		return
	}
	var req api.Approve
	if !s.decode(w, r, &req, func() string { return req.Schema }) {
		return
	}
	if req.DecisionID == "" || len(req.DecisionID) > MaxNameLen {
		s.fail(w, http.StatusBadRequest, "bad_request", fmt.Sprintf(`"decision_id" is required, at most %d bytes`, MaxNameLen))
		return
	}
	notPending := "no pending ask of this tenant has decision id " + req.DecisionID + " (only an asked call can be approved, once; a denied call never can)"
	if s.approvals == nil {
		s.fail(w, http.StatusNotFound, "not_pending", notPending)
		return
	}
	p, err := s.approvals.Pending(r.Context(), req.DecisionID)
	if err == nil && !strings.HasPrefix(p.Session, tenant+"/") {
		err = approval.ErrNotPending
	}
	var g approval.Entry
	if err == nil {
		g, err = s.approvals.Approve(r.Context(), req.DecisionID, "toolwall serve "+api.PathApprove)
	}
	switch {
	case errors.Is(err, approval.ErrNotPending):
		s.fail(w, http.StatusNotFound, "not_pending", notPending)
		return
	case err != nil:
		s.fail(w, http.StatusServiceUnavailable, "unavailable", "the approvals are unavailable ("+err.Error()+"); retry")
		return
	}
	out := api.Approval{Schema: api.Schema, DecisionID: g.Decision, Session: strings.TrimPrefix(g.Session, tenant+"/"), Tool: g.Tool, Summary: g.Summary}
	if !g.Expires.IsZero() {
		out.Expires = g.Expires.UTC().Format(time.RFC3339)
	}
	s.log.Info("toolwall serve: ask approved", "decision", g.Decision, "tenant", tenant, "tool", g.Tool)
	s.respond(w, http.StatusOK, out)
}

// approver returns the tenant of the request's approver token.
func (s *Server) approver(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	tenant, ok := s.approvers[sha256.Sum256([]byte(strings.TrimSpace(token)))]
	return tenant, ok
}

// rounds splits the indices of calls into rounds that keep each
// session's calls in order: round r holds the r-th call of every
// session (calls without a session all go in the first), so a round
// never holds two calls of one session.
func rounds(calls []toolwall.Call) [][]int {
	var out [][]int
	n := map[string]int{}
	for i, c := range calls {
		r := 0
		if c.Session != "" {
			r = n[c.Session]
			n[c.Session]++
		}
		if r == len(out) {
			out = append(out, nil)
		}
		out[r] = append(out[r], i)
	}
	return out
}

// turn answers POST /v1/turn.
func (s *Server) turn(w http.ResponseWriter, r *http.Request, tenant string) {
	var req api.Turn
	if !s.decode(w, r, &req, func() string { return req.Schema }) {
		return
	}
	if req.Session == "" || len(req.Session) > MaxSessionLen {
		s.fail(w, http.StatusBadRequest, "bad_request", fmt.Sprintf(`"session" is required, at most %d bytes`, MaxSessionLen))
		return
	}
	if s.store == nil {
		s.respond(w, http.StatusOK, api.TurnState{Schema: api.Schema, Session: req.Session})
		return
	}
	n, err := s.Engine().AdvanceTurn(r.Context(), tenant+"/"+req.Session)
	if err != nil {
		s.fail(w, http.StatusServiceUnavailable, "unavailable", "session memory did not advance the turn ("+err.Error()+")")
		return
	}
	s.respond(w, http.StatusOK, api.TurnState{Schema: api.Schema, Session: req.Session, Turn: n})
}

// rules answers GET /v1/rules.
func (s *Server) rules(w http.ResponseWriter, _ *http.Request, _ string) {
	cur := s.current.Load()
	th := cur.eng.Thresholds()
	win := gate.ChainWindow
	if cur.cfg.Memory.Calls > 0 {
		win.Calls = cur.cfg.Memory.Calls
	}
	if cur.cfg.Memory.Turns > 0 {
		win.Turns = cur.cfg.Memory.Turns
	}
	out := api.Rules{
		Schema:     api.Schema,
		Policy:     api.PolicyState{Source: cur.cfg.Source, Version: cur.version, LoadedAt: cur.at.Format(time.RFC3339)},
		Thresholds: api.Thresholds{Warn: th.Warn, Block: th.Block},
		Disabled:   append([]string{}, cur.cfg.Rules.Disable...),
		Window:     api.Window{Calls: win.Calls, Turns: win.Turns},
		Tools:      cur.eng.WatchedTools(),
	}
	if e := s.reloadErr.Load(); e != nil {
		out.Policy.ReloadError = *e
	}
	for _, a := range analyzers.All() {
		out.Analyzers = append(out.Analyzers, api.Analyzer{Name: a.Name, Doc: a.Doc, Tools: a.Tools})
	}
	for _, c := range chain.Rules {
		out.Chains = append(out.Chains, api.Chain{ID: c.ID, Action: c.Action, Score: c.Score, Why: c.Why})
	}
	s.respond(w, http.StatusOK, out)
}

// ready answers GET /readyz: 200 while serving with a reachable store,
// 503 while shutting down or when the store does not answer within 1 s.
func (s *Server) ready(w http.ResponseWriter, r *http.Request, _ string) {
	if s.draining.Load() {
		s.fail(w, http.StatusServiceUnavailable, "unavailable", "shutting down")
		return
	}
	if s.store != nil {
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		defer cancel()
		if _, err := s.store.Turn(ctx, "toolwall/readyz"); err != nil {
			// /readyz needs no token: the error (a database's address,
			// user, socket path) goes to the log, not to the caller.
			if now := time.Now().UnixNano(); now-s.notReadyLogged.Load() > int64(10*time.Second) {
				// /readyz needs no token: at most one line per 10 s.
				s.notReadyLogged.Store(now)
				s.log.Warn("toolwall serve: not ready: session store unavailable", "err", err)
			}
			s.fail(w, http.StatusServiceUnavailable, "unavailable", "session store unavailable (the server's log says why)")
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ready\n"))
}
