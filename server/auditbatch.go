package server

import (
	"context"
	"errors"

	"github.com/toolwall/toolwall/audit"
)

// auditBatcher is an audit sink that writes a request's records, and
// attaches its outcomes, in one statement each (audit/postgres.Store):
// one round trip per request where Record and Outcome take one per
// call.
type auditBatcher interface {
	// RecordMany writes rs, all or none.
	RecordMany(ctx context.Context, rs []audit.Record) error
	// OutcomeMany attaches outs[i] to decision ids[i] and returns the
	// ids no record had.
	OutcomeMany(ctx context.Context, ids []string, outs []audit.Outcome) ([]string, error)
}

// writeAudit writes the records of one request's decisions; a failure
// is logged and counted per record (the decisions stand).
func (s *Server) writeAudit(ctx context.Context, rs []audit.Record) {
	if b, ok := s.audit.(auditBatcher); ok && len(rs) > 1 {
		if err := b.RecordMany(ctx, rs); err != nil {
			s.metrics.auditErrors.Add(float64(len(rs)))
			s.log.Error("toolwall serve: audit records not written", "decisions", len(rs), "first", rs[0].ID, "err", err)
		}
		return
	}
	for _, r := range rs {
		if err := s.audit.Record(ctx, r); err != nil {
			s.metrics.auditErrors.Inc()
			s.log.Error("toolwall serve: audit record not written", "decision", r.ID, "err", err)
		}
	}
}

// writeOutcomes attaches the outcomes of one request's records to their
// decisions. An outcome whose decision the audit log does not hold
// (audit.ErrNotFound) is not this server's failure, but one the log may
// never show: it is a warning naming the decision and counted in
// toolwall_audit_outcomes_unmatched_total, never lost silently. Other
// failures are errors, counted in toolwall_audit_errors_total.
func (s *Server) writeOutcomes(ctx context.Context, ids []string, outs []audit.Outcome) {
	if b, ok := s.audit.(auditBatcher); ok && len(ids) > 1 {
		held, err := b.OutcomeMany(ctx, ids, outs)
		if err != nil {
			s.metrics.auditErrors.Add(float64(len(ids)))
			s.log.Error("toolwall serve: audit outcomes not written", "outcomes", len(ids), "first", ids[0], "err", err)
		}
		for _, id := range held {
			s.unmatched(id, audit.ErrNotFound)
		}
		return
	}
	for i, id := range ids {
		switch err := s.audit.Outcome(ctx, id, outs[i]); {
		case errors.Is(err, audit.ErrNotFound):
			s.unmatched(id, err)
		case err != nil:
			s.metrics.auditErrors.Inc()
			s.log.Error("toolwall serve: audit outcome not written", "decision", id, "err", err)
		}
	}
}

// unmatched reports an outcome whose decision the audit log does not
// hold.
func (s *Server) unmatched(id string, err error) {
	s.metrics.auditUnmatched.Inc()
	s.log.Warn("toolwall serve: audit outcome for a decision the audit log does not hold (decided by a replica with an audit log of its own, pruned, or a wrong id)",
		"decision", id, "err", err)
}
