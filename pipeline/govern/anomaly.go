package govern

import (
	"context"
	"log/slog"
	"sync"

	"github.com/toolwall/toolwall/pipeline"
)

// Severity of an anomaly.
type Severity uint8

// Severities.
const (
	SeverityNone Severity = iota
	SeverityWarning
	SeverityCritical
)

func (s Severity) String() string { return [...]string{"none", "warning", "critical"}[s] }

// AnomalyOptions configure the detector (the tool-executor framework's [tools.anomaly]).
type AnomalyOptions struct {
	// Window is how many recent outcomes are looked at (default 10).
	Window int
	// Warn and Critical are error-rate fractions (defaults 0.5 and 0.8).
	Warn, Critical float64
	// Report is called when an outcome leaves the window at Warning or
	// Critical, with the error rate; nil logs a warning on slog.Default.
	Report func(ctx context.Context, s Severity, rate float64, res *pipeline.Result, err error)
}

// Anomaly detects bursts of failing tool calls over a sliding window:
// every outcome counts, and refusals (blocked calls) count as errors. It
// only reports; it never blocks. The rate is judged once the window is
// full. Safe for concurrent use.
type Anomaly struct {
	opts AnomalyOptions

	mu   sync.Mutex
	ring []bool
	next int
	full bool
}

// NewAnomaly returns a detector.
func NewAnomaly(opts AnomalyOptions) *Anomaly {
	if opts.Window <= 0 {
		opts.Window = 10
	}
	if opts.Warn <= 0 {
		opts.Warn = 0.5
	}
	if opts.Critical <= 0 {
		opts.Critical = 0.8
	}
	return &Anomaly{opts: opts, ring: make([]bool, opts.Window)}
}

// Observe records one outcome (failed or not) and returns the severity
// of the window after it, with the error rate.
func (a *Anomaly) Observe(failed bool) (Severity, float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ring[a.next] = failed
	a.next = (a.next + 1) % len(a.ring)
	if a.next == 0 {
		a.full = true
	}
	if !a.full {
		return SeverityNone, 0
	}
	n := 0
	for _, f := range a.ring {
		if f {
			n++
		}
	}
	rate := float64(n) / float64(len(a.ring))
	switch {
	case rate >= a.opts.Critical:
		return SeverityCritical, rate
	case rate >= a.opts.Warn:
		return SeverityWarning, rate
	}
	return SeverityNone, rate
}

// Middleware is the detector's layer: it passes every call through and
// observes its outcome.
func (a *Anomaly) Middleware() pipeline.Middleware {
	return pipeline.Middleware{Name: "anomaly", Wrap: func(next pipeline.Tool) pipeline.Tool {
		return pipeline.ToolFunc(func(ctx context.Context, req *pipeline.Request) (*pipeline.Result, error) {
			res, err := next.Execute(ctx, req)
			if s, rate := a.Observe(Classify(res, err) != PhaseNone); s > SeverityNone {
				if a.opts.Report != nil {
					a.opts.Report(ctx, s, rate, res, err)
				} else {
					slog.WarnContext(ctx, "tool call anomaly", "severity", s.String(), "error_rate", rate, "tool", req.Call.Tool, "caller", req.Call.Caller, "session", req.Call.Session)
				}
			}
			return res, err
		})
	}}
}
