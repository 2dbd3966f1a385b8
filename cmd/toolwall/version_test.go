package main

import (
	"runtime/debug"
	"testing"
)

// TestDescribeBuild: the version names the module version and the commit
// from the build information, and says so when there is no commit.
func TestDescribeBuild(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "arm64"},
		{Key: "vcs.revision", Value: "a9eaa1175229e1b7c3d2f0e0a1b2c3d4e5f60718"},
		{Key: "vcs.time", Value: "2026-12-07T23:38:14Z"}, {Key: "vcs.modified", Value: "true"},
	}
	for _, c := range []struct {
		name, linked string
		bi           *debug.BuildInfo
		want         string
	}{
		{"from a clone", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261207233814-a9eaa1175229+dirty"}, Settings: vcs},
			"v0.0.0-20261207233814-a9eaa1175229+dirty (commit a9eaa1175229 2026-12-07T23:38:14Z, modified; go1.26.8 linux/arm64)"},
		{"linked version", "v1.2.3", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs[:3]},
			"v1.2.3 (commit a9eaa1175229; go1.26.8 linux/arm64)"},
		{"no VCS stamp", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs[:2]},
			"(devel) (commit unknown: built without VCS information; go1.26.8 linux/arm64)"},
		{"a released module", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}},
			"v1.4.0 (commit unknown: built without VCS information; go1.26.8)"},
		{"no build information", "", nil, "(devel) (no build information)"},
	} {
		if got := describeBuild(c.linked, c.bi); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
