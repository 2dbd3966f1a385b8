package paths

import "testing"

func TestFromWindows(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{`C:\Users\me\proj`, "/Users/me/proj", true},
		{`c:/Users/me`, "/Users/me", true},
		{`C:\`, "/", true},
		{`D:`, "/", true},
		{`\Windows\System32`, "/Windows/System32", true},
		{`path\to\file`, "path/to/file", true},
		{`.\build\..\out`, "out", true},
		{`\\server\share\x`, "/unc/server/share/x", true},
		{`\\?\C:\very\long`, "/very/long", true},
		{`\\.\PhysicalDrive0`, "/dev/PhysicalDrive0", true},
		{`/usr/bin`, "/usr/bin", false},
		{`relative/x`, "relative/x", false},
		{`C:relative`, "C:relative", false},
	} {
		got, ok := FromWindows(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("FromWindows(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
