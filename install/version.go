package install

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// Version is a host's release, major.minor.patch.
type Version [3]int

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)(?:\.(\d+))?`)

// ParseVersion reads the first major.minor[.patch] in s ("2.1.240
// (Claude Code)", "opencode 2.0.3", "v1.18.30").
func ParseVersion(s string) (Version, bool) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return Version{}, false
	}
	var v Version
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v, true
}

// Less reports whether v is an earlier release than w.
func (v Version) Less(w Version) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// String returns "major.minor.patch".
func (v Version) String() string {
	return strconv.Itoa(v[0]) + "." + strconv.Itoa(v[1]) + "." + strconv.Itoa(v[2])
}

// ProgramVersion runs the host program with --version (the one thing
// run, and only a host's own binary found on the PATH) and returns what
// it printed; "" when the program is absent, fails or takes longer than
// a few seconds.
func ProgramVersion(program string) string {
	path, err := exec.LookPath(program)
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// Memo returns version reading each program once (install, Find and
// doctor ask for the same host more than once).
func Memo(version func(string) string) func(string) string {
	var mu sync.Mutex
	seen := map[string]string{}
	return func(p string) string {
		mu.Lock()
		defer mu.Unlock()
		if v, ok := seen[p]; ok {
			return v
		}
		v := version(p)
		seen[p] = v
		return v
	}
}

// HostVersion reads host name's installed version with o.Version (its
// programs' --version output); ok is false when it cannot be told.
func HostVersion(name string, o Options) (Version, bool) {
	h, err := lookup(name)
	if err != nil {
		return Version{}, false
	}
	return o.version(h.programs...)
}

// version is the version the first of programs that answers reports.
func (o Options) version(programs ...string) (Version, bool) {
	if o.Version == nil {
		return Version{}, false
	}
	for _, p := range programs {
		if v, ok := ParseVersion(o.Version(p)); ok {
			return v, true
		}
	}
	return Version{}, false
}
