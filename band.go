package toolwall

import (
	"fmt"
	"math"
)

// Band is a risk band. The band, not the raw score, picks the action
// ("UnixShield — the shipped pattern table").
type Band uint8

// The five bands of the tool shield, from least to most risky.
const (
	// Safe: score below LowScore; nothing matched. Action Allow.
	Safe Band = iota
	// Low: LowScore up to the warn threshold; minor patterns matched. Action Allow.
	Low
	// Medium: warn threshold up to the block threshold. Action Warn.
	Medium
	// High: block threshold up to CriticalScore. Action Deny.
	High
	// Critical: CriticalScore and above, regardless of thresholds. Action Deny.
	Critical
)

// Band edges fixed by the tool shield.
const (
	// LowScore is the lower edge of the Low band (0.2).
	LowScore = 0.2
	// CriticalScore is the hard-wired lower edge of the Critical band (0.9);
	// it is not configurable.
	CriticalScore = 0.9
	// DefaultWarn is the default warn threshold (0.4).
	DefaultWarn = 0.4
	// DefaultBlock is the default block threshold (0.7).
	DefaultBlock = 0.7
)

var bandNames = [...]string{"safe", "low", "medium", "high", "critical"}

// String returns the lower-case band name.
func (b Band) String() string {
	if int(b) < len(bandNames) {
		return bandNames[b]
	}
	return fmt.Sprintf("band(%d)", b)
}

// MarshalText encodes the band as its name.
func (b Band) MarshalText() ([]byte, error) {
	if int(b) >= len(bandNames) {
		return nil, fmt.Errorf("toolwall: invalid band %d", b)
	}
	return []byte(b.String()), nil
}

// UnmarshalText decodes a band name as written by MarshalText.
func (b *Band) UnmarshalText(text []byte) error {
	for i, n := range bandNames {
		if n == string(text) {
			*b = Band(i)
			return nil
		}
	}
	return fmt.Errorf("toolwall: unknown band %q", text)
}

// Action is the action a band picks on its own: Safe and Low allow, Medium
// warns, High and Critical deny (the tool shield's table).
func (b Band) Action() Action {
	switch {
	case b >= High:
		return Deny
	case b == Medium:
		return Warn
	}
	return Allow
}

// Thresholds are the warn and block edges in [0, 1]. The zero value is not
// valid; use [DefaultThresholds] or [NewThresholds].
type Thresholds struct {
	// Warn is the lower edge of the Medium band (default 0.4).
	Warn float64
	// Block is the lower edge of the High band (default 0.7).
	Block float64
}

// DefaultThresholds returns warn 0.4, block 0.7.
func DefaultThresholds() Thresholds { return Thresholds{Warn: DefaultWarn, Block: DefaultBlock} }

// NewThresholds applies the tool shield's threshold hygiene: a non-finite value is
// rejected and the default kept for it, block < warn is swapped, and both
// are clamped to [0, 1]. Each correction is described in the returned
// notes, which the caller should log as warnings; the result is always
// usable.
func NewThresholds(warn, block float64) (Thresholds, []string) {
	var notes []string
	if math.IsNaN(warn) || math.IsInf(warn, 0) {
		notes = append(notes, fmt.Sprintf("warn threshold %v is not finite; keeping %v", warn, DefaultWarn))
		warn = DefaultWarn
	}
	if math.IsNaN(block) || math.IsInf(block, 0) {
		notes = append(notes, fmt.Sprintf("block threshold %v is not finite; keeping %v", block, DefaultBlock))
		block = DefaultBlock
	}
	if block < warn {
		notes = append(notes, fmt.Sprintf("block threshold %v is below warn threshold %v; swapped", block, warn))
		warn, block = block, warn
	}
	clamp := func(name string, v float64) float64 {
		c := math.Min(1, math.Max(0, v))
		if c != v {
			notes = append(notes, fmt.Sprintf("%s threshold %v clamped to %v", name, v, c))
		}
		return c
	}
	return Thresholds{Warn: clamp("warn", warn), Block: clamp("block", block)}, notes
}

// Band returns the band of score. Scores at or above CriticalScore are
// Critical whatever the thresholds; below LowScore, Safe. A NaN score is
// treated as Critical (fail closed).
func (t Thresholds) Band(score float64) Band {
	switch {
	case math.IsNaN(score) || score >= CriticalScore:
		return Critical
	case score >= t.Block:
		return High
	case score >= t.Warn:
		return Medium
	case score >= LowScore:
		return Low
	}
	return Safe
}
