package codex

import (
	"strings"
	"testing"

	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/hosttest"
	"github.com/toolwall/toolwall/host/view"
)

func TestConformance(t *testing.T) { hosttest.Run(t, Adapter{}, view.For("codex")) }

func FuzzAdapter(f *testing.F) { hosttest.Fuzz(f, Adapter{}, view.For("codex")) }

func TestPatchCalls(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: new.sh\n+#!/bin/sh\n+echo hi\n*** Update File: src/a.go\n@@ func a\n-old\n+new\n ctx\n*** Update File: b.txt\n*** Move to: c.txt\n-x\n+y\n*** Delete File: /etc/passwd\n*** End Patch\n"
	calls, ok := host.PatchCalls(patch, "/w")
	var got []string
	for _, c := range calls {
		got = append(got, c.Tool+" "+string(c.Input))
	}
	want := []string{
		`Write {"content":"#!/bin/sh\necho hi\n","file_path":"/w/new.sh"}`,
		`Edit {"file_path":"/w/src/a.go","new_string":"new\nctx\n","old_string":"old\nctx\n"}`,
		`Write {"content":"y\n","file_path":"/w/c.txt"}`,
		`Bash {"command":"rm -f -- '/w/b.txt'"}`,
		`Bash {"command":"rm -f -- '/etc/passwd'"}`,
	}
	if !ok || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("PatchCalls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, ok := host.PatchCalls("just text", "/w"); ok {
		t.Error("text without headers read as a patch")
	}
}
