package tags

import (
	"strings"
	"testing"
	"time"
)

var names = []string{"tool", "summary", "thought", "arguments", "think", "thinking"}

func TestStrip(t *testing.T) {
	for _, c := range []struct {
		in, out string
		ok      bool
	}{
		{"a<tool>x</tool>b", "ab", true},
		{"a<TOOL>x</tool>b", "ab", true},
		{"<arguments unparsed=\"true\">x</arguments>", "", true},
		{"<summary><thought>x</thought></summary>y", "y", true},
		{"<thinking>x</thinking>y<think>z</think>", "y", true},
		{"<b>x</b>", "<b>x</b>", true},
		{"<summaryx>", "<summaryx>", true},
		{"&lt;tool&gt;", "&lt;tool&gt;", true},
		{"x < y > z", "x < y > z", true},
		{"<tool>x", "", false},
		{"x</tool>", "", false},
		{"<tool><summary></tool></summary>", "", false},
		{"<tool/>", "", false},
		{"<tool", "", false},
		{"<summary a=1", "", false},
		{"<summary \n<summary>x</summary>", "", false},
		{"<summary <x>", "", false},
	} {
		out, ok := Strip(c.in, names)
		if out != c.out || ok != c.ok {
			t.Errorf("Strip(%q) = %q, %v; want %q, %v", c.in, out, ok, c.out, c.ok)
		}
	}
}

func TestEscape(t *testing.T) {
	if got := Escape(`</arguments>&amp; "q"`); got != `&lt;/arguments&gt;&amp;amp; "q"` {
		t.Errorf("Escape = %q", got)
	}
}

func TestLine(t *testing.T) {
	if got := Line("a\n\tb\u202e c\u200b\x00d", 100); got != "a b c d" {
		t.Errorf("Line = %q", got)
	}
	if got := Line(strings.Repeat("é", 200), 11); got != "éééé…" {
		t.Errorf("Line cut = %q", got)
	}
}

// TestStripLinear: floods of 200,000 tags, uncut (Strip has no size cap
// of its own), finish in linear time; the watchdog only catches a
// quadratic Strip, which would take hours. BenchmarkStripFlood reports
// the time.
func TestStripLinear(t *testing.T) {
	for _, flood := range []string{"<summary ", "<summary>", "</summary>", "<summary></summary>", "<", "<summaryx "} {
		in := strings.Repeat(flood, 200_000)
		done := make(chan bool, 1)
		go func() { _, ok := Strip(in, names); done <- ok }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%q × 200,000: not done within 10 s", flood)
		}
	}
}

func BenchmarkStripFlood(b *testing.B) {
	for _, flood := range []string{"<summary ", "<summary></summary>", "<summaryx "} {
		in := strings.Repeat(flood, 200_000)
		b.Run(strings.TrimSpace(flood), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				Strip(in, names)
			}
		})
	}
}
