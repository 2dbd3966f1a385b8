package session

import (
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/toolwall/toolwall"
)

// Size limits. They keep a record, and with the per-session caps the
// whole store, bounded whatever a tool call holds.
const (
	// MaxIDLen is the longest session id accepted, in bytes.
	MaxIDLen = 256
	// MaxInputLen is the most bytes of Record.Input kept. A longer input
	// is replaced by the JSON object
	// {"truncated":true,"bytes":<original length>,"head":"<start of the input>"}
	// of at most MaxInputLen bytes, so the stored input stays valid JSON
	// and says it was cut.
	MaxInputLen = 4 << 10
	// MaxFieldLen is the most bytes kept of Record.Tool, Record.Summary,
	// each effect's Tag, Path and Detail, each rule id and each refusal
	// key. A longer string is cut at a character boundary and ends in
	// "..." (TruncMark), within MaxFieldLen bytes.
	MaxFieldLen = 1 << 10
	// MaxList is the most Effects and the most Rules kept per record; the
	// rest are dropped.
	MaxList = 32
	// TruncMark ends a string cut to MaxFieldLen.
	TruncMark = "..."
)

// clipString cuts s to MaxFieldLen bytes, ending in TruncMark. The cut
// backs up to the start of a UTF-8 sequence so a valid string stays valid.
func clipString(s string) string {
	if len(s) <= MaxFieldLen {
		return s
	}
	return s[:runeCut(s, MaxFieldLen-len(TruncMark))] + TruncMark
}

// runeCut returns n, or less by up to three bytes so that s[:n] does not
// end inside a UTF-8 sequence that starts a rune.
func runeCut(s string, n int) int {
	for back := 0; back < utf8.UTFMax-1 && n > 0 && !utf8.RuneStart(s[n]); back++ {
		n--
	}
	return n
}

// clipInput returns a copy of in bounded to MaxInputLen bytes (see
// MaxInputLen). An empty input yields nil.
func clipInput(in json.RawMessage) json.RawMessage {
	if len(in) == 0 {
		return nil
	}
	if len(in) <= MaxInputLen {
		return append(json.RawMessage(nil), in...)
	}
	build := func(k int) []byte {
		head, _ := json.Marshal(string(in[:k])) // a string always marshals
		return fmt.Appendf(nil, `{"truncated":true,"bytes":%d,"head":%s}`, len(in), head)
	}
	// Largest head whose escaped form fits; escaping can grow a byte up
	// to six, so search rather than guess.
	lo, hi := 0, MaxInputLen
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if len(build(mid)) <= MaxInputLen {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return build(runeCut(string(in), lo))
}

// normalize returns the stored form of r: fields bounded and copied, At
// defaulted to now and reduced to microseconds in UTC. Turn is left for
// the store to set.
func normalize(r Record, now time.Time) Record {
	out := Record{
		Tool:    clipString(r.Tool),
		Summary: clipString(r.Summary),
		Input:   clipInput(r.Input),
		Turn:    r.Turn,
		At:      r.At,
		Success: r.Success,
	}
	if out.At.IsZero() {
		out.At = now
	}
	out.At = micro(out.At)
	for i, e := range r.Effects {
		if i == MaxList {
			break
		}
		out.Effects = append(out.Effects, toolwall.Effect{
			Tag:    toolwall.Tag(clipString(string(e.Tag))),
			Path:   clipString(e.Path),
			Detail: clipString(e.Detail),
		})
	}
	for i, s := range r.Rules {
		if i == MaxList {
			break
		}
		out.Rules = append(out.Rules, clipString(s))
	}
	return out
}

// clone returns a deep copy of r.
func clone(r Record) Record {
	if r.Input != nil {
		r.Input = append(json.RawMessage(nil), r.Input...)
	}
	if r.Effects != nil {
		r.Effects = append([]toolwall.Effect(nil), r.Effects...)
	}
	if r.Rules != nil {
		r.Rules = append([]string(nil), r.Rules...)
	}
	return r
}

// micro returns t reduced to microseconds in UTC, the precision stores
// keep.
func micro(t time.Time) time.Time { return time.UnixMicro(t.UnixMicro()).UTC() }
