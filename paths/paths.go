package paths

import (
	"path"
	"strings"
)

// Abs returns p made absolute against cwd and cleaned ("//" → "/",
// "/a/./b/.." → "/a"). An empty p yields "". A relative p with an empty
// cwd is cleaned only.
func Abs(p, cwd string) string {
	if p == "" {
		return ""
	}
	if !strings.HasPrefix(p, "/") && cwd != "" {
		p = cwd + "/" + p
	}
	return path.Clean(p)
}

// Under reports whether p is root or inside it. Both must be absolute and
// clean. Every path is under "/".
func Under(p, root string) bool {
	if root == "" || p == "" {
		return false
	}
	if root == "/" || p == root {
		return true
	}
	return len(p) > len(root) && p[len(root)] == '/' && p[:len(root)] == root
}

// StrictlyUnder reports whether p is inside root and not root itself.
func StrictlyUnder(p, root string) bool {
	return p != root && Under(p, root)
}

// Expand replaces a leading "~" or "~/" of p with home. Other forms are
// returned unchanged.
func Expand(p, home string) string {
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return home + p[1:]
	}
	return p
}
