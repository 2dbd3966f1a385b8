package paths

import "testing"

func TestPaths(t *testing.T) {
	for _, tt := range []struct {
		p, root       string
		under, strict bool
	}{
		{"/a/b", "/a", true, true},
		{"/a", "/a", true, false},
		{"/ab", "/a", false, false},
		{"/a", "/", true, true},
		{"/", "/", true, false},
		{"", "/", false, false},
		{"/a", "", false, false},
		{"/home/user/.ssh", "/home/user", true, true},
		{"/home/username", "/home/user", false, false},
	} {
		if got := Under(tt.p, tt.root); got != tt.under {
			t.Errorf("Under(%q, %q) = %v", tt.p, tt.root, got)
		}
		if got := StrictlyUnder(tt.p, tt.root); got != tt.strict {
			t.Errorf("StrictlyUnder(%q, %q) = %v", tt.p, tt.root, got)
		}
	}
	for _, tt := range []struct{ p, cwd, want string }{
		{"x", "/w", "/w/x"}, {"../x", "/w/a", "/w/x"}, {"/a//b/./c/..", "/w", "/a/b"}, {"", "/w", ""}, {"x", "", "x"},
	} {
		if got := Abs(tt.p, tt.cwd); got != tt.want {
			t.Errorf("Abs(%q, %q) = %q, want %q", tt.p, tt.cwd, got, tt.want)
		}
	}
	for _, tt := range []struct{ p, home, want string }{
		{"~", "/h", "/h"}, {"~/x", "/h", "/h/x"}, {"~user", "/h", "~user"}, {"~/x", "", "~/x"},
	} {
		if got := Expand(tt.p, tt.home); got != tt.want {
			t.Errorf("Expand(%q, %q) = %q", tt.p, tt.home, got)
		}
	}
}

func BenchmarkUnder(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Under("/home/user/projects/app/src/main.go", "/home/user/projects/app")
	}
}
