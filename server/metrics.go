package server

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/toolwall/toolwall"
)

// metrics are the server's Prometheus metrics, in a registry of its own.
type metrics struct {
	reg          *prometheus.Registry
	decisions    *prometheus.CounterVec
	ruleHits     *prometheus.CounterVec
	decisionTime prometheus.Histogram
	requests     *prometheus.CounterVec
	requestTime  *prometheus.HistogramVec
	storeErrors  *prometheus.CounterVec
	auditErrors  prometheus.Counter
	panics       prometheus.Counter
	reloads      *prometheus.CounterVec
	policyLoaded prometheus.Gauge
	cacheHits    prometheus.Counter
	cacheMisses  prometheus.Counter
	// byAction are the children of decisions, indexed by toolwall.Action.
	byAction [toolwall.Deny + 1]prometheus.Counter

	// auditUnmatched counts outcomes whose decision the audit log did
	// not hold (audit.ErrNotFound).
	auditUnmatched prometheus.Counter
}

// newMetrics builds and registers the metrics. Nothing is registered with
// the default registry.
func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolwall_decisions_total", Help: "Decisions by action.",
		}, []string{"action"}),
		ruleHits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolwall_decision_rules_total", Help: "Rule ids carried by decisions, by action of the decision.",
		}, []string{"action", "rule"}),
		decisionTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "toolwall_decision_duration_seconds", Help: "Time to decide one call, decoding and encoding excluded.",
			Buckets: prometheus.ExponentialBuckets(10e-6, 2.5, 12), // 10 µs to 0.6 s
		}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolwall_http_requests_total", Help: "HTTP requests by endpoint and status code.",
		}, []string{"endpoint", "code"}),
		requestTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "toolwall_http_request_duration_seconds", Help: "HTTP request latency by endpoint.",
			Buckets: prometheus.ExponentialBuckets(20e-6, 2.5, 12),
		}, []string{"endpoint"}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolwall_store_errors_total", Help: "Session store operations that failed, by operation.",
		}, []string{"op"}),
		auditErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "toolwall_audit_errors_total", Help: "Audit records or outcomes the sink did not accept.",
		}),
		auditUnmatched: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "toolwall_audit_outcomes_unmatched_total",
			Help: "Outcomes (POST /v1/record with a decision_id) whose decision the audit log did not hold: decided by a replica with an audit log of its own, pruned, or a wrong id. A PostgreSQL audit log holds such an outcome until its record is written.",
		}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "toolwall_panics_total", Help: "Panics recovered while serving (each answered with a deny or a 500).",
		}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolwall_policy_reloads_total", Help: "Policy reloads by result: ok, unchanged, error (the policy in force stays).",
		}, []string{"result"}),
		policyLoaded: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "toolwall_policy_loaded_timestamp_seconds", Help: "When the policy in force was loaded (Unix time).",
		}),
	}
	cache := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolwall_decision_cache_total", Help: "Single-call decisions (no session) answered from the verdict cache (hit) or by the gate (miss).",
	}, []string{"result"})
	m.cacheHits, m.cacheMisses = cache.WithLabelValues("hit"), cache.WithLabelValues("miss")
	for a := range m.byAction {
		m.byAction[a] = m.decisions.WithLabelValues(toolwall.Action(a).String())
	}
	// Every store operation and reload result is listed from the start, at
	// 0, so an alert on a rate sees the series before the first failure.
	for _, op := range storeOps {
		m.storeErrors.WithLabelValues(op)
	}
	for _, r := range []string{"ok", "unchanged", "error"} {
		m.reloads.WithLabelValues(r)
	}
	m.reg.MustRegister(m.decisions, m.ruleHits, m.decisionTime, m.requests, m.requestTime,
		m.storeErrors, m.auditErrors, m.auditUnmatched, m.panics, m.reloads, m.policyLoaded, cache,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// observe counts one decision; rules are v.Rules().
func (m *metrics) observe(v toolwall.Verdict, rules []string, elapsed time.Duration) {
	if int(v.Action) < len(m.byAction) {
		m.byAction[v.Action].Inc()
	} else {
		m.decisions.WithLabelValues(v.Action.String()).Inc()
	}
	for _, r := range rules {
		m.ruleHits.WithLabelValues(v.Action.String(), r).Inc()
	}
	m.decisionTime.Observe(elapsed.Seconds())
}
