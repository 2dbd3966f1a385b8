package nearest

import "testing"

func TestNearest(t *testing.T) {
	names := []string{"retention", "turns", "calls", "state"}
	for _, c := range []struct{ in, name, likely string }{
		{"retension", "retention", "retention"},
		{"turn", "turns", "turns"},
		{"zzzzzzzz", "turns", ""},
		{"", "turns", ""},
	} {
		if got := Name(c.in, names); got != c.name {
			t.Errorf("Name(%q) = %q, want %q", c.in, got, c.name)
		}
		if got := Likely(c.in, names); got != c.likely {
			t.Errorf("Likely(%q) = %q, want %q", c.in, got, c.likely)
		}
	}
	if Name("x", nil) != "" || Distance("kitten", "sitting") != 3 {
		t.Error("empty names or distance")
	}
}
