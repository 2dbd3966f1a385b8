package paths

import (
	"path"
	"strings"
)

// FromWindows reads a Windows path in the POSIX namespace the analyzers
// judge, and reports whether p was a Windows path at all (a drive letter,
// a UNC or device prefix, or a backslash). Every drive's root is "/"
// (C:\Users\me\proj → /Users/me/proj, D:\ → /), so a drive root and the
// user's profile are the places the analyzers know as the root and the
// home; a root-relative \Windows is /Windows; a UNC path
// \\server\share\x is /unc/server/share/x; a device \\.\PhysicalDrive0 is
// /dev/PhysicalDrive0; the long-path prefix \\?\ is dropped. A relative
// path keeps being relative (path\to\file → path/to/file). Forward
// slashes are accepted too (C:/Users/me). Letter case is kept: Windows
// paths are case-insensitive, so callers comparing with known places
// should fold case where it matters.
func FromWindows(p string) (string, bool) {
	if !windowsish(p) {
		return p, false
	}
	s := strings.ReplaceAll(p, `\`, "/")
	switch {
	case strings.HasPrefix(s, "//?/"), strings.HasPrefix(s, "//./") && driveAt(s, 4):
		s = s[4:]
	case strings.HasPrefix(s, "//./"):
		return path.Clean("/dev/" + s[4:]), true
	case strings.HasPrefix(s, "//"):
		return path.Clean("/unc/" + s[2:]), true
	}
	if driveAt(s, 0) {
		s = "/" + s[2:]
	}
	if s == "" {
		return ".", true
	}
	return path.Clean(s), true
}

// windowsish reports whether p looks like a Windows path.
func windowsish(p string) bool {
	return strings.ContainsRune(p, '\\') || driveAt(p, 0)
}

// driveAt reports whether s has a drive letter and colon at i ("C:").
func driveAt(s string, i int) bool {
	if len(s) < i+2 || s[i+1] != ':' {
		return false
	}
	c := s[i] | 0x20
	return c >= 'a' && c <= 'z' && (len(s) == i+2 || s[i+2] == '/' || s[i+2] == '\\')
}
