package session

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/rows"
)

// seedRecord is one line of testdata/records.tsv.
type seedRecord struct {
	tool, summary, tag, path, detail, rule, input string
}

func readSeedRecords(tb testing.TB) []seedRecord {
	tb.Helper()
	var out []seedRecord
	for _, r := range rows.Read(tb, "testdata/records.tsv", 7) {
		n := r.Line
		cols := r.Fields
		for i, c := range cols {
			var err error
			if cols[i], err = strconv.Unquote(c); err != nil {
				tb.Fatalf("records.tsv:%d: column %d: %v", n, i+1, err)
			}
		}
		out = append(out, seedRecord{cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6]})
	}
	return out
}

func (s seedRecord) record(success bool) Record {
	r := Record{Tool: s.tool, Summary: s.summary, Success: success, Input: json.RawMessage(s.input)}
	if s.tag != "" || s.path != "" || s.detail != "" {
		r.Effects = []toolwall.Effect{{Tag: toolwall.Tag(s.tag), Path: s.path, Detail: s.detail}, {Tag: toolwall.TagEgress}}
	}
	if s.rule != "" {
		r.Rules = []string{s.rule, s.rule + "2"}
	}
	return r
}

// FuzzRoundTrip appends records with arbitrary bytes in every field to a
// SQLite store and a memory store and reads them back: both must return
// the record as stored (unchanged within the size limits, bounded beyond
// them), the same, twice.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range readSeedRecords(f) {
		f.Add(s.tool, s.summary, s.tag, s.path, s.detail, s.rule, []byte(s.input), true)
	}
	long := strings.Repeat("\"é\x01", MaxInputLen)
	f.Add(long, long, long, long, long, long, []byte(long), false)

	clk := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	opts := Options{Now: func() time.Time { return clk }, PruneEvery: -1}
	sq, err := Open(filepath.Join(f.TempDir(), "state.db"), opts)
	if err != nil {
		f.Fatal(err)
	}
	defer sq.Close()
	mem := NewMemory(opts)
	ctx := context.Background()

	f.Fuzz(func(t *testing.T, tool, summary, tag, path, detail, rule string, input []byte, success bool) {
		in := seedRecord{tool, summary, tag, path, detail, rule, string(input)}.record(success)
		want := normalize(in, clk)
		want.Turn = 0
		for _, st := range []Store{sq, mem} {
			if err := st.Append(ctx, "s", in); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				got, err := st.History(ctx, "s", Window{Calls: 1})
				if err != nil || len(got) != 1 {
					t.Fatalf("%T History = %v, %v", st, got, err)
				}
				if !reflect.DeepEqual(got[0], want) {
					t.Fatalf("%T round trip:\n got %#v\nwant %#v", st, got[0], want)
				}
			}
		}
		// Within the limits the store keeps every byte.
		if len(tool) <= MaxFieldLen && len(summary) <= MaxFieldLen && len(input) <= MaxInputLen &&
			(want.Tool != tool || want.Summary != summary || string(want.Input) != string(input)) {
			t.Fatalf("a record within the limits was changed: %#v", want)
		}
		if len(want.Input) > MaxInputLen || len(want.Tool) > MaxFieldLen || len(want.Summary) > MaxFieldLen {
			t.Fatalf("a stored record exceeds the limits: %d, %d, %d bytes", len(want.Input), len(want.Tool), len(want.Summary))
		}
		if len(input) > MaxInputLen && !json.Valid(want.Input) {
			t.Fatalf("truncation marker is not JSON: %q", want.Input)
		}
	})
}

// FuzzDecode feeds arbitrary blobs, as a tampered state file could hold,
// to the effects and rules decoders: no panic, and what decodes
// re-encodes to something that decodes the same.
func FuzzDecode(f *testing.F) {
	for _, s := range readSeedRecords(f) {
		r := s.record(true)
		f.Add(encodeEffects(r.Effects))
		f.Add(encodeRules(r.Rules))
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add([]byte{0x01, 0x05, 'a'})
	f.Fuzz(func(t *testing.T, b []byte) {
		if es, err := decodeEffects(b); err == nil {
			again, err := decodeEffects(encodeEffects(es))
			if err != nil || (len(es) > 0 || len(again) > 0) && !reflect.DeepEqual(es, again) {
				t.Fatalf("effects %q: %v then %v, %v", b, es, again, err)
			}
		}
		if rs, err := decodeRules(b); err == nil {
			again, err := decodeRules(encodeRules(rs))
			if err != nil || (len(rs) > 0 || len(again) > 0) && !reflect.DeepEqual(rs, again) {
				t.Fatalf("rules %q: %v then %v, %v", b, rs, again, err)
			}
		}
	})
}

// FuzzRisk notes risk events with arbitrary bytes in Why and Caller and
// any points on a SQLite store and a memory store and reads them back:
// both refuse the same points and return the same bounded event.
func FuzzRisk(f *testing.F) {
	for _, s := range readSeedRecords(f) {
		f.Add(s.summary, s.tool, 1, false)
	}
	f.Add(strings.Repeat("é\x00", MaxFieldLen), "", MaxRiskPoints, true)
	f.Add("", "", -1, false)
	clk := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	opts := Options{Now: func() time.Time { return clk }, PruneEvery: -1}
	sq, err := Open(filepath.Join(f.TempDir(), "state.db"), opts)
	if err != nil {
		f.Fatal(err)
	}
	defer sq.Close()
	mem := NewMemory(opts)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, why, caller string, points int, set bool) {
		in := RiskEvent{Points: points, Set: set, Why: why, Caller: caller}
		want, werr := normalizeRisk(in, clk)
		for _, st := range []Store{sq, mem} {
			err := st.NoteRisk(ctx, "s", in)
			if (err == nil) != (werr == nil) {
				t.Fatalf("%T NoteRisk(%d points) = %v, want %v", st, points, err, werr)
			}
			if err != nil {
				continue
			}
			log, err := st.Risk(ctx, "s")
			if err != nil || len(log.Events) == 0 {
				t.Fatalf("%T Risk = %v, %v", st, log, err)
			}
			if got := log.Events[len(log.Events)-1]; !reflect.DeepEqual(got, want) {
				t.Fatalf("%T round trip:\n got %#v\nwant %#v", st, got, want)
			}
		}
		if len(want.Why) > MaxFieldLen || len(want.Caller) > MaxFieldLen {
			t.Fatalf("a stored event exceeds the limits: %d, %d bytes", len(want.Why), len(want.Caller))
		}
	})
}
