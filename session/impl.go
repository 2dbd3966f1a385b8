package session

import "time"

// Helpers for Store implementations outside this package (such as
// session/postgres), so that every store bounds, validates and defaults
// alike and passes the sessiontest conformance suite.

// Normalize returns the form in which a store keeps r: fields bounded as
// [MaxInputLen], [MaxFieldLen] and [MaxList] say and copied, At set to now
// when zero and reduced to microseconds in UTC. Turn is left for the store
// to set.
func Normalize(r Record, now time.Time) Record { return normalize(r, now) }

// NormalizeRisk returns the form in which a store keeps e (Why and
// Caller bounded, At set to now when zero and reduced to microseconds in
// UTC), or an error matching [ErrInvalid] when its points are outside 0
// to [MaxRiskPoints]. Turn is left for the store to set.
func NormalizeRisk(e RiskEvent, now time.Time) (RiskEvent, error) { return normalizeRisk(e, now) }

// CheckID returns an error matching [ErrInvalid] for an empty session id
// or one longer than [MaxIDLen] bytes.
func CheckID(id string) error { return checkID(id) }

// CheckKey returns key cut to [MaxFieldLen] bytes, or an error matching
// [ErrInvalid] when it is empty.
func CheckKey(key string) (string, error) { return checkKey(key) }

// WithDefaults returns w with each zero or negative field set to its
// default (Calls 20, Turns 3).
func (w Window) WithDefaults() Window { return w.withDefaults() }

// WithDefaults returns o with each unset field set to its default (see
// [Options]).
func (o Options) WithDefaults() Options { return o.withDefaults() }
