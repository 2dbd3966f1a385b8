package engine

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/jsonlstore"
	"github.com/toolwall/toolwall/audit/sqlitestore"
	"github.com/toolwall/toolwall/policy"
)

// DefaultAuditRetention is how long audit records are kept unless
// audit.retention says otherwise (30 days).
const DefaultAuditRetention = 30 * 24 * time.Hour

// Stores locates toolwall's audit store and approvals: beside the state
// database (Dir), unless audit.path names the audit store's file. No
// environment variable of its own moves them.
type Stores struct {
	// Dir is the directory of the state database ("" when unknown: then
	// there is neither audit nor approvals).
	Dir string
	cfg *policy.Config
}

// StoresFor returns the stores of cfg with the state database at state
// (see StatePath).
func StoresFor(cfg *policy.Config, state string) Stores {
	if cfg == nil {
		cfg = &policy.Config{}
	}
	s := Stores{cfg: cfg}
	if state != "" {
		if abs, err := filepath.Abs(state); err == nil {
			s.Dir = filepath.Dir(abs)
		}
	}
	return s
}

// AuditPaths returns the audit store's database and inbox for the sqlite
// store (audit.db and audit.jsonl), or the file of the jsonl store (db
// ""); both "" when auditing is off or the place is unknown.
func (s Stores) AuditPaths() (db, inbox string) {
	if !s.cfg.Audit.On() {
		return "", ""
	}
	p := expand(s.cfg.Audit.Path)
	if s.cfg.Audit.Store == "jsonl" {
		if p == "" && s.Dir != "" {
			p = filepath.Join(s.Dir, "audit.jsonl")
		}
		return "", p
	}
	if p == "" {
		if s.Dir == "" {
			return "", ""
		}
		p = filepath.Join(s.Dir, "audit.db")
	}
	return p, p[:len(p)-len(filepath.Ext(p))] + ".jsonl"
}

// expand makes "~/x" absolute against the user's home.
func expand(p string) string {
	if len(p) > 1 && p[:2] == "~/" {
		if h := UserHome(); h != "" {
			return filepath.Join(h, p[2:])
		}
		return ""
	}
	return p
}

// Audit opens the audit store (nil when off or its place is unknown). It
// does no I/O until used.
func (s Stores) Audit() audit.Store {
	db, inbox := s.AuditPaths()
	switch {
	case db != "":
		return sqlitestore.Open(db, sqlitestore.Options{Inbox: inbox})
	case inbox != "":
		return jsonlstore.Open(inbox)
	}
	return nil
}

// AuditRetention is how long audit records are kept.
func (s Stores) AuditRetention() time.Duration {
	if r := s.cfg.Audit.Retention.Duration; r > 0 {
		return r
	}
	return DefaultAuditRetention
}

// ApprovalsPath is the approvals file, approvals.jsonl beside the state
// database ("" when unknown).
func (s Stores) ApprovalsPath() string {
	if s.Dir == "" {
		return ""
	}
	return filepath.Join(s.Dir, "approvals.jsonl")
}

// Approvals opens the approvals (nil when their place is unknown), with
// approvals.ttl and the session memory's retention.
func (s Stores) Approvals() *approval.Store {
	p := s.ApprovalsPath()
	if p == "" {
		return nil
	}
	return approval.Open(p, approval.Options{TTL: s.cfg.Approvals.TTL.Duration, Retention: s.cfg.Memory.Retention.Duration})
}

// Files lists the audit store's and the approvals' files, for the self
// analyzer (Options.Protect): an agent that could write them would erase
// its tracks or approve its own calls.
func (s Stores) Files() []string {
	var out []string
	db, inbox := s.AuditPaths()
	if db != "" {
		out = append(out, sqlitestore.Files(db, inbox)...)
	} else if inbox != "" {
		out = append(out, inbox)
	}
	if p := s.ApprovalsPath(); p != "" {
		out = append(out, approval.Files(p)...)
	}
	return out
}

// OpenAudit opens the audit store and prunes it to its retention, for a
// command that reads it; an error when auditing is off or has no place.
func (s Stores) OpenAudit(ctx context.Context) (audit.Store, error) {
	a := s.Audit()
	if a == nil {
		return nil, errors.New("auditing is off (audit.enabled = false) or has no place (set HOME or audit.path)")
	}
	if _, err := a.Prune(ctx, time.Now().Add(-s.AuditRetention())); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}
